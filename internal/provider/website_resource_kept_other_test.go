package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// The kept website is put back only into the state of
// the resource it was kept from. Here nothing is replaced: a resource with
// skip_destroy = true is removed from the configuration (Terraform lets go
// of the website, which stays on the server), and another resource block
// with the same domain is added in the same apply. Its create is refused
// ("already been taken"), and the provider put the kept website, with the
// removed resource's state (its skip_destroy, exclude_params, password),
// into the new resource's state, tainted, with an error that says a
// replacement was refused. It must fail with "Domain Already Exists" and
// the kept website's id to import, and write no state.
func TestAccWebsite_keptNotAdoptedByAnotherResource(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-other")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "old" {
  domain         = %q
  skip_destroy   = true
  exclude_params = ["utm_old"]
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "new" {
  domain = %q
}
`, domain)))
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 1 {
		t.Fatalf("apply: exit code %d, want 1 (the domain is taken):\n%s", code, out)
	}
	if !strings.Contains(out, "Domain Already Exists") {
		t.Errorf("apply said no \"Domain Already Exists\" with the id to import:\n%s", out)
	}
	state := w.Read("terraform.tfstate")
	if strings.Contains(state, `"name": "new"`) && strings.Contains(state, `"id": "`) {
		t.Errorf("analytics_website.new, which never held the website, now holds it (no import asked for):\n%s\napply said:\n%s", state, out)
	}
	// Clean up: the website stays on the server after skip_destroy.
	if ws, err := env.FindWebsite(env.Key, domain); err == nil && ws != nil {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), ws.ID)
	}
}

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
// with the same domain and other settings is added in the same apply. Its
// create would be refused ("already been taken"); the provider once put
// the kept website, with the removed resource's state (its skip_destroy,
// exclude_params, password), into the new resource's state. The plan
// refuses the pair now, and the website stays in the removed resource's
// state.
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
	if code != 1 || !strings.Contains(out, "Website Would Leave Every State") {
		t.Fatalf("apply: exit code %d, want 1 and the plan refused:\n%s", code, out)
	}
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["new"] != "" || ids["old"] == "" {
		t.Errorf("the states hold %v, want the website in old's alone:\napply said:\n%s", ids, out)
	}
	// Clean up: the website stays on the server after skip_destroy.
	if ws, err := env.FindWebsite(env.Key, domain); err == nil && ws != nil {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), ws.ID)
	}
}

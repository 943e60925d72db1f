package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// A replacement of a website with skip_destroy = true on the same domain
// (-replace, or a tainted website) cannot create the new website: the old
// one keeps the domain. The website stays in the state (tainted), never
// dropped from it while it is still on the server.
func TestAccWebsite_skipDestroyReplaceSameDomain(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept")
	config := func(skip bool) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = %t\n", domain, skip)))
	}
	w.Write("main.tf", config(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID

	for _, args := range [][]string{{"-replace=" + websiteAddr}, nil} {
		// The second time, the website is tainted by the first.
		out, code := w.Run(append([]string{"apply", "-auto-approve"}, args...)...)
		if code != 1 || !acctest.ExpectError(`Replacement Refused: skip_destroy Keeps the Website.*terraform untaint`).MatchString(out) {
			t.Fatalf("apply %v: exit code %d:\n%s", args, code, out)
		}
		state := w.Read("terraform.tfstate")
		if !strings.Contains(state, fmt.Sprintf(`"id": "%d"`, id)) || !strings.Contains(state, `"status": "tainted"`) {
			t.Fatalf("after apply %v, the state holds:\n%s", args, state)
		}
	}
	if got := env.MustWebsite(t, domain).ID; got != id {
		t.Errorf("the website on the server is %d, want %d", got, id)
	}
	// As the error says: untaint it to keep it as it is.
	w.MustRun(0, "untaint", websiteAddr)
	w.MustRun(0, "plan", "-detailed-exitcode")
	w.Write("main.tf", config(false))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

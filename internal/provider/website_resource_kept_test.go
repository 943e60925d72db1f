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

// A replacement with skip_destroy = true whose configuration also changed
// is not put back into the state: the provider cannot tell it from another
// resource with the same domain (TestAccWebsite_keptNotAdoptedByAnotherResource),
// and the kept state's exclude_params and password are not what this
// configuration says. The create fails with "Domain Already Exists" and
// the website's id to import; nothing is written, and the website stays on
// the server as it was. (Before, it was put back, tainted, with the kept
// state's values.)
func TestAccWebsite_skipDestroyReplaceWithChangesNotRestored(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-values")
	config := func(param, password string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n  privacy = \"password\"\n"+
			"  password = %q\n  exclude_params = [%q]\n", domain, password, param)))
	}
	w.Write("main.tf", config("utm_old", "old-secret"))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.Write("main.tf", config("utm_new", "new-secret"))
	out, code := w.Run("apply", "-auto-approve", "-no-color", "-replace="+websiteAddr)
	if code != 1 || !acctest.ExpectError(fmt.Sprintf(`Domain Already Exists.*id = "%d"`, id)).MatchString(out) {
		t.Fatalf("apply -replace: exit code %d:\n%s", code, out)
	}
	if state := w.Read("terraform.tfstate"); strings.Contains(state, fmt.Sprintf(`"id": "%d"`, id)) || strings.Contains(state, "secret") {
		t.Errorf("the state holds the kept website, or a password:\n%s", state)
	}
	if strings.Contains(out, "secret") {
		t.Errorf("the apply's output shows a password:\n%s", out)
	}
	if got := env.MustWebsite(t, domain).ID; got != id {
		t.Errorf("the website on the server is %d, want %d", got, id)
	}
	// As the error says: import it, then apply this configuration.
	w.MustRun(0, "import", websiteAddr, fmt.Sprint(id))
	w.Write("main.tf", strings.Replace(config("utm_new", "new-secret"), "skip_destroy = true", "skip_destroy = false", 1))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

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

// The website put back into the state after a refused replacement is the
// one on the server: what the API never returns (exclude_params, password)
// is the kept website's, not the replacement's planned values, which were
// never written. Otherwise, untainted as the error advises, the state
// claims values the server does not hold, and no plan shows it.
func TestAccWebsite_skipDestroyReplaceRestoresServerValues(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-values")
	config := func(param, password string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n  privacy = \"password\"\n"+
			"  password = %q\n  exclude_params = [%q]\n", domain, password, param)))
	}
	w.Write("main.tf", config("utm_old", "old-secret"))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config("utm_new", "new-secret"))
	out, code := w.Run("apply", "-auto-approve", "-replace="+websiteAddr)
	if code != 1 || !acctest.ExpectError(`Replacement Refused`).MatchString(out) {
		t.Fatalf("apply -replace: exit code %d:\n%s", code, out)
	}
	w.MustRun(0, "untaint", websiteAddr)
	out, code = w.Run("plan", "-detailed-exitcode", "-no-color")
	if code != 2 {
		t.Errorf("after untaint, the plan (exit %d) shows no change although the server still holds exclude_params "+
			"utm_old and password old-secret and the configuration says utm_new and new-secret:\n%s", code, out)
	}
	w.Write("main.tf", strings.Replace(config("utm_new", "new-secret"), "skip_destroy = true", "skip_destroy = false", 1))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// logWarnings logs the plan's warnings and returns their details.
func logWarnings(t *testing.T, diags []acctest.PlanDiag) []string {
	t.Helper()
	var out []string
	for _, d := range diags {
		if d.Severity == "warning" {
			t.Logf("%s %s: %s", d.Address, d.Summary, d.Detail)
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// TestAccWebsite_review41LimitReplaceFlagUncounted: 2 of 3 held; c has
// create_before_destroy and is replaced with -replace (no domain change),
// and a new website n, which depends on c (so Terraform plans it after c),
// is planned. The apply creates c's replacement, then n while c still
// counts: 4 websites on a plan of 3, so n's create is refused. The plan
// counts every replacement of the plan (issue 41, item 3): Terraform drops
// the warnings of c's own second plan (the docs say so), but c's
// replacement must still count in n's check, planned after it. -replace
// is not counted at all.
func TestAccWebsite_review41LimitReplaceFlagUncounted(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	c := `
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "c" {
  domain = "c.example.com"
  lifecycle {
    create_before_destroy = true
  }
}
`
	w.Write("main.tf", env.ProviderBlock()+c)
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock()+c+`
resource "analytics_website" "n" {
  domain     = "n.example.com"
  depends_on = [analytics_website.c]
}
`)
	warnings := logWarnings(t, w.PlanDiags("-replace=analytics_website.c"))
	out, code := w.Run("apply", "-auto-approve", "-replace=analytics_website.c")
	t.Logf("apply: exit code %d\n%s", code, out)
	if len(warnings) == 0 {
		t.Errorf("2 of 3 held, -replace of a create_before_destroy website and a create: no limit warning "+
			"(the apply exits %d)", code)
	}
}

// TestAccWebsite_review41LimitTaintedCountedAsCreate: 3 of 3 held, c is
// tainted (no create_before_destroy): Terraform deletes c before it
// creates its replacement, which fits. The plan must not say that a create
// fails in any order, nor advise deleting a website.
func TestAccWebsite_review41LimitTaintedCountedAsCreate(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "b" {
  domain = "b.example.com"
}
resource "analytics_website" "c" {
  domain = "c.example.com"
}
`)
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "taint", "analytics_website.c")
	warnings := logWarnings(t, w.PlanDiags())
	out, code := w.Run("apply", "-auto-approve")
	t.Logf("apply: exit code %d\n%s", code, out)
	for _, d := range warnings {
		if regexp.MustCompile(`in any order|more than the limit`).MatchString(d) {
			t.Errorf("3 of 3 held, a tainted website replaced (delete first): the plan says a create fails "+
				"in any order, but the apply exits %d: %s", code, d)
		}
	}
}

// TestAccWebsite_review41LostClearOfExcludeParams: exclude_params is
// removed from the configuration after Terraform set it, so the update
// clears it on the server ("clears it on the server once"). The update's
// answer never comes: the connection is reset before the server saw it,
// so nothing was applied. The state forgets exclude_params (null), which
// equals the configuration's null: no plan ever shows the clear again, and
// the server keeps excluding the parameter. After a lost answer the next
// plan must show the change again (or the provider must learn what the
// server holds, which the API cannot tell).
func TestAccWebsite_review41LostClearOfExcludeParams(t *testing.T) {
	acctest.NeedsEmulator(t, "resets the connection of an update before the server sees it")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("lost-clear")
	config := func(extra string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain = %q
  %s
}
`, domain, extra)
	}
	s.W.Write("main.tf", config(`exclude_params = ["utm_source"]`))
	s.W.MustRun(0, "apply", "-auto-approve")

	if err := env.SetFaults(&emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetBeforeRate: 1}); err != nil {
		t.Fatal(err)
	}
	s.W.Write("main.tf", config(""))
	if out, code := s.W.Run("apply", "-auto-approve"); code != 1 {
		t.Fatalf("the update whose answer is lost: exit code %d:\n%s", code, out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "utm_source" {
		t.Fatalf("the server applied the update (exclude_params %q): not the case under test", w.ExcludeParams)
	}
	out, code := s.W.Run("plan", "-detailed-exitcode")
	s.W.MustRun(0, "apply", "-auto-approve")
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "" {
		t.Errorf("after a lost update that cleared exclude_params, the plan exits %d (no change) and the server "+
			"keeps exclude_params %q for good:\n%s", code, w.ExcludeParams, out)
	}
	s.Destroy(t)
}

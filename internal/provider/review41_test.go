package provider

import (
	"regexp"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
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

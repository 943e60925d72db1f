package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestLimitWarning_deletePlannedAfterCreate: 3 of 3 held, a create and a
// delete. If the delete runs first the create fits, so the plan's warning
// must say the order decides, in whichever order the two are planned. A
// delete planned after the create never gets a check of its own, so the
// create's warning is the plan's last word: it must not say a create fails
// "whatever the order".
func TestLimitWarning_deletePlannedAfterCreate(t *testing.T) {
	t.Parallel()
	for _, order := range [][]limitEvent{{limitDelete, limitCreate}, {limitCreate, limitDelete}} {
		got := limitWarnings(3, 3, order...)
		if len(got) == 0 {
			t.Errorf("%v: no warning", order)
			continue
		}
		last := got[len(got)-1]
		if strings.Contains(last, "whatever the order") || !strings.Contains(last, "the order decides") {
			t.Errorf("%v: the plan's last limit warning is false (a delete that runs first makes room): %s", order, last)
		}
	}
}

// TestAccWebsite_limitWarningDeletePlannedLast: the same in a real plan. 3
// of 3 held; the plan creates n and deletes d (removed from the
// configuration). x depends on n, and d depended on x when it was created,
// so Terraform plans n before d. The apply can succeed (d's delete runs
// first when nothing orders it), so n's warning must not say a create
// fails whatever the order.
func TestAccWebsite_limitWarningDeletePlannedLast(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "x" {
  domain = "x.example.com"
}
resource "analytics_website" "y" {
  domain = "y.example.com"
}
resource "analytics_website" "d" {
  count      = 1
  domain     = "d.example.com"
  depends_on = [analytics_website.x]
}
`)
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "n" {
  domain = "n.example.com"
}
resource "analytics_website" "x" {
  domain     = "x.example.com"
  depends_on = [analytics_website.n]
}
resource "analytics_website" "y" {
  domain = "y.example.com"
}
resource "analytics_website" "d" {
  count      = 0
  domain     = "d.example.com"
  depends_on = [analytics_website.x]
}
`)
	diags := w.PlanDiags()
	for _, d := range diags {
		if d.Severity == "warning" {
			t.Logf("%s %s: %s", d.Address, d.Summary, d.Detail)
		}
	}
	d, ok := planWarnings(diags, "Website Limit Would Be Exceeded")["analytics_website.n"]
	if !ok || strings.Contains(d.Detail, "whatever the order") || strings.Contains(d.Detail, "in any order,") &&
		!strings.Contains(d.Detail, "a delete planned later warns again") {
		t.Errorf("3 of 3, a create and a delete (planned after it): %+v", diags)
	}
	// Whichever of n and d is planned last sees both: some limit warning
	// says the order decides (true in either planning order).
	decides := false
	for _, d := range diags {
		decides = decides || d.Severity == "warning" && strings.Contains(d.Detail, "the order decides")
	}
	if !decides {
		t.Errorf("3 of 3, a create and a delete: no warning says the order decides: %+v", diags)
	}
	// What the apply does (not asserted: it depends on the order).
	out, code := w.Run("apply", "-auto-approve")
	t.Logf("apply: exit code %d\n%s", code, out)
}

// TestLimitWarning_orderDecidesPlural: "the order decides whether up to 1
// create fail" is "1 create fails".
func TestLimitWarning_orderDecidesPlural(t *testing.T) {
	t.Parallel()
	for _, w := range limitWarnings(3, 3, limitDelete, limitCreate) {
		if regexp.MustCompile(`\b1 create fail\b`).MatchString(w) {
			t.Errorf("plural for one create: %s", w)
		}
	}
}

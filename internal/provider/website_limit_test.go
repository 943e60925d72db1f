package provider

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// limitWarnings plans events in order against limit and have, as one
// command's websites would, and returns the warnings' details.
func limitWarnings(limit, have int, events ...limitEvent) []string {
	var c planCounter
	var out []string
	for _, e := range events {
		t := c.add(e)
		if e == limitDelete && t.creates+t.replaces == 0 {
			continue // no check: nothing needs its room (warnLimit)
		}
		var diags diag.Diagnostics
		addLimitWarning(&diags, e, creatingLead(types.StringValue("x.example.com")), limit, have, t)
		for _, d := range diags {
			out = append(out, d.Summary()+": "+d.Detail())
		}
	}
	return out
}

// TestLimitWarning_order: whether a plan gets a limit warning does not
// depend on the order its websites are planned in, and a warning never says
// the plan fits when another create takes the room a replacement's delete
// makes.
func TestLimitWarning_order(t *testing.T) {
	t.Parallel()
	orders := func(a, b limitEvent) [][]limitEvent { return [][]limitEvent{{a, b}, {b, a}} }
	// 3 of 3 held, a create and a replacement: the replacement cannot fit
	// in any order, and no warning may say it does.
	for _, o := range orders(limitCreate, limitReplace) {
		got := limitWarnings(3, 3, o...)
		if len(got) == 0 {
			t.Fatalf("3 of 3, %v: no warning", o)
		}
		if last := got[len(got)-1]; !strings.Contains(last, "at least 1 create fails") || strings.Contains(last, "fits") {
			t.Errorf("3 of 3, %v: the last warning: %s", o, last)
		}
	}
	// The create planned first: the replacement's warning never says it
	// fits.
	for _, w := range limitWarnings(3, 3, limitCreate, limitReplace) {
		if strings.Contains(w, "fits") {
			t.Errorf("3 of 3, a create then a replacement: says it fits: %s", w)
		}
	}
	// 2 of 3 held, a replacement (create_before_destroy or not) and a
	// create: a warning in either order, saying what create_before_destroy
	// does.
	for _, o := range orders(limitCreate, limitReplace) {
		got := limitWarnings(3, 2, o...)
		if len(got) != 1 || !strings.Contains(got[0], "With lifecycle { create_before_destroy = true }") {
			t.Errorf("2 of 3, %v: %q", o, got)
		}
	}
	// A delete makes room only if it runs first: the order decides.
	if got := limitWarnings(3, 3, limitDelete, limitCreate); len(got) != 1 || !strings.Contains(got[0], "the order decides") {
		t.Errorf("3 of 3, a delete then a create: %q", got)
	}
	if got := limitWarnings(3, 3, limitCreate, limitDelete); len(got) != 2 || !strings.Contains(got[0], "a delete planned later warns again") || !strings.Contains(got[1], "the order decides") {
		t.Errorf("3 of 3, a create then a delete: %q", got)
	}
	if got := limitWarnings(3, 1, limitCreate, limitReplace); len(got) != 0 {
		t.Errorf("1 of 3, a create and a replacement: %q", got)
	}
}

// TestLimitWarning_counts: the advice over the limit counts the websites
// to delete first for each order of a replacement, and no count reads
// "1 websites" or "1 creates".
func TestLimitWarning_counts(t *testing.T) {
	t.Parallel()
	got := limitWarnings(3, 4, limitReplace)
	if len(got) != 1 || !strings.Contains(got[0], "delete 1 website you no longer need (2 if the replacements use create_before_destroy)") {
		t.Errorf("4 held of 3, a replacement: %q", got)
	}
	bad := regexp.MustCompile(`\b1 (websites|creates)\b|(up to|at least|delete) (0|-)`)
	events := []limitEvent{limitCreate, limitReplace, limitDelete}
	for limit := range 4 {
		for have := range 5 {
			for _, a := range events {
				for _, b := range events {
					for _, w := range limitWarnings(limit, have, a, b, limitCreate) {
						if bad.MatchString(w) {
							t.Errorf("limit %d, %d held, %v %v create: %s", limit, have, a, b, w)
						}
					}
				}
			}
		}
	}
}

// TestLimitWarning_failingCountAtMostCreates: a user may hold more
// websites than the plan allows (creates sent in parallel pass the check
// together). 5 held of 3 and one replacement: the plan has one create,
// yet the warning says "at least 2 creates fail". No count of failing
// creates may exceed the creates and replacements planned.
func TestLimitWarning_failingCountAtMostCreates(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`(?:at least|up to) (\d+) creates? (?:fail|may fail)|\b(\d+) creates? fails?\b`)
	events := []limitEvent{limitCreate, limitReplace, limitDelete}
	for limit := 1; limit <= 3; limit++ {
		for have := 0; have <= limit+3; have++ {
			for _, a := range events {
				for _, b := range append(events, -1) {
					order := []limitEvent{a}
					if b >= 0 {
						order = append(order, b)
					}
					creates := 0
					for _, e := range order {
						if e != limitDelete {
							creates++
						}
					}
					for _, w := range limitWarnings(limit, have, order...) {
						for _, m := range re.FindAllStringSubmatch(w, -1) {
							s := m[1]
							if s == "" {
								s = m[2]
							}
							if n, _ := strconv.Atoi(s); n > creates {
								t.Errorf("limit %d, %d held, %v: %q, but the plan has %d create(s): %s",
									limit, have, order, m[0], creates, w)
							}
						}
					}
				}
			}
		}
	}
}

// TestLimitWarning_orderDecidesNamesCreateBeforeDestroy: 4 held of 3 (parallel
// creates passed the check together), the plan replaces c and deletes d.
// Without create_before_destroy the order decides (d's delete first makes
// room for c's). With it, c's create comes while 3 are held even after d's
// delete: refused in every order. The plan's last warning says only "the
// order decides" and never names create_before_destroy, unlike the other
// verdicts.
func TestLimitWarning_orderDecidesNamesCreateBeforeDestroy(t *testing.T) {
	t.Parallel()
	for _, order := range [][]limitEvent{{limitReplace, limitDelete}, {limitDelete, limitReplace}} {
		got := limitWarnings(3, 4, order...)
		if len(got) == 0 {
			t.Errorf("%v: no warning", order)
			continue
		}
		if last := got[len(got)-1]; !regexp.MustCompile(`create_before_destroy`).MatchString(last) {
			t.Errorf("%v: the last warning does not say that with create_before_destroy the replacement "+
				"fails in every order: %s", order, last)
		}
	}
}

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

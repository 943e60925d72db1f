package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A create with skip_destroy = true looks its domain up at plan (a tainted
// website's replacement looks like one): a domain the user holds gets the
// warning with the website's id (ids, when several share it), a domain
// nobody holds none. Other creates make no request more. With a website
// limit, the limit check's list page holds every website of the user (up
// to 10), and the lookup costs nothing; at the limit with more websites,
// the limit check looks the domain up, and the warning shares its answer;
// without a limit, it costs one or two list requests (the shared lookup's
// page 1, then a search for a domain the page does not hold), and only
// for skip_destroy = true.
func TestAccWebsite_skipDestroyCreateLooksDomainUp(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, and seeds two websites with one domain")
	acctest.Parent(t)
	for _, c := range []struct {
		name, key string
		extra     int // websites more than the three below
		lookup    int // the most GET /websites the lookup costs (page 1, then a search)
	}{
		{"limit, every website on the count's page", keyNoEmailPlan, 0, 0},
		{"limit reached, more websites than the count's page", keyNoEmailPlan, 8, 0},
		{"unlimited", keyUnlimitedPlan, 0, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := acctest.New(t, acctest.Emulator(planUsers(t, c.key)))
			w := acctest.NewWorkdir(t)
			held, dup, free := env.Domain("held"), env.Domain("dup"), env.Domain("free")
			h := env.Seed(env.Key, emulator.Website{Domain: held})
			d1 := env.Seed(env.Key, emulator.Website{Domain: dup})
			d2 := env.Seed(env.Key, emulator.Website{Domain: dup})
			for i := range c.extra {
				env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint("extra", i))})
			}

			plan := func(domain string, skip bool) (map[string]acctest.PlanDiag, int) {
				t.Helper()
				w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = %t\n", domain, skip))))
				env.ResetStats()
				warned := planWarnings(w.PlanDiags(), heldSummary)
				return warned, env.Stats().ByRoute["GET /api/v1/websites"]
			}
			var noLookup int // the GET /websites of a create without skip_destroy, when no limit check looks
			for _, p := range []struct {
				domain string
				ids    string // the warning's
			}{
				{free, ""},
				{held, fmt.Sprintf(`\(id %d\).*id = "%d"`, h.ID, h.ID)},
				{dup, fmt.Sprintf(`\(ids %d, %d\).*id = "%d" or "%d"`, d1.ID, d2.ID, d1.ID, d2.ID)},
			} {
				warned, without := plan(p.domain, false)
				if d, ok := warned[websiteAddr]; ok {
					t.Errorf("%s, skip_destroy = false: warned %+v", p.domain, d)
				}
				if p.domain == free {
					noLookup = without
				} else if c.lookup > 0 && without != noLookup {
					t.Errorf("%s, skip_destroy = false: %d GET /websites, want %d as for a domain nobody holds",
						p.domain, without, noLookup)
				}
				warned, with := plan(p.domain, true)
				d, ok := warned[websiteAddr]
				switch {
				case p.ids == "" && ok:
					t.Errorf("%s, skip_destroy = true: warned %+v", p.domain, d)
				case p.ids != "" && (!ok || !acctest.ExpectError(p.ids).MatchString(d.Detail)):
					t.Errorf("%s, skip_destroy = true: want a warning with %s, got %+v", p.domain, p.ids, warned)
				}
				t.Logf("%s: %d GET /websites without skip_destroy, %d with", p.domain, without, with)
				if more := with - without; more < min(c.lookup, 1) || more > c.lookup {
					t.Errorf("%s: %d GET /websites with skip_destroy = true, %d without; want %d to %d more",
						p.domain, with, without, min(c.lookup, 1), c.lookup)
				}
			}
		})
	}
}

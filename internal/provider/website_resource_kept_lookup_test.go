package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Every create looks its domain up at plan (a tainted website's
// replacement looks like one, whatever its skip_destroy now): a domain the
// user holds gets the warning with the website's id (ids, when several
// share it), a domain nobody holds none. The creates of a run share one
// complete list of the user's websites: with a website limit whose count's
// list page holds every website (up to 10), that page, and the lookup
// costs nothing more; else one sweep of the list (one page here). Never a
// search per domain.
func TestAccWebsite_skipDestroyCreateLooksDomainUp(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, and seeds two websites with one domain")
	acctest.Parent(t)
	for _, c := range []struct {
		name, key string
		extra     int // websites more than the three below
		requests  int // GET /websites of the plan: the count's page, and the sweep
	}{
		{"limit, every website on the count's page", keyNoEmailPlan, 0, 1},
		{"limit reached, more websites than the count's page", keyNoEmailPlan, 8, 2},
		{"unlimited", keyUnlimitedPlan, 0, 1},
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

			// A plan per skip_destroy creates a website with each domain (one
			// plan cannot create two with one domain): each address gets its
			// own warning (or none), and the creates share one list, so the
			// plan costs what one create does.
			for _, skip := range []bool{false, true} {
				var hcl strings.Builder
				for _, p := range []struct{ name, domain string }{{"free", free}, {"held", held}, {"dup", dup}} {
					fmt.Fprintf(&hcl, "resource \"analytics_website\" %q {\n  domain       = %q\n  skip_destroy = %t\n}\n", p.name, p.domain, skip)
				}
				w.Write("main.tf", env.Config(hcl.String()))
				env.ResetStats()
				warned := planWarnings(w.PlanDiags(), heldSummary)
				for _, p := range []struct {
					addr, domain string
					ids          string // the warning's
				}{
					{"analytics_website.free", free, ""},
					{"analytics_website.held", held, fmt.Sprintf(`\(id %d\).*id = "%d"`, h.ID, h.ID)},
					{"analytics_website.dup", dup, fmt.Sprintf(`\(ids %d, %d\).*id = "%d" or "%d"`, d1.ID, d2.ID, d1.ID, d2.ID)},
				} {
					d, ok := warned[p.addr]
					switch {
					case p.ids == "" && ok:
						t.Errorf("%s, skip_destroy = %t: warned %+v", p.domain, skip, d)
					case p.ids != "" && (!ok || !acctest.ExpectError(p.ids).MatchString(d.Detail)):
						t.Errorf("%s, skip_destroy = %t: want a warning with %s, got %+v", p.domain, skip, p.ids, warned)
					}
				}
				if got := env.Stats().ByRoute["GET /api/v1/websites"]; got != c.requests {
					t.Errorf("skip_destroy = %t: %d GET /websites for three creates, want %d", skip, got, c.requests)
				}
			}
		})
	}
}

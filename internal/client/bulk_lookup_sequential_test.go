package client_test

// What lookups by domain cost when they come one after the
// other (terraform -parallelism=1, or imports that depend on each other),
// with no refresh before them.

import (
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// 1000 websites (10 pages). L lookups of existing domains, one at a time.
// The two strategies the reader chooses between cost L searches (one
// request each here) or a sweep read twice (20 requests). The reader's
// bound: no pattern costs more than about twice the better of them.
// With L = 10, the better is 10 searches. The reader reads page 1 at the
// first lookup, searches for each lookup while the lookups counted do not
// exceed the pages left (ski rental, as for a sweep read ONCE), and then
// sweeps and reads every page again for the waiting lookup: 1 + 9
// searches + 9 pages + 10 pages again = 29, about three times the better.
// Before the sweep was read twice for lookups, the same rental cost 1 + 9
// + 9 = 19, twice the better.
func TestSequentialLookupsCost(t *testing.T) {
	t.Parallel()
	for _, n := range []int{10, 12} {
		env := newBulkEnv(t)
		ids := env.seed(1000)
		b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
		for _, d := range domainsOf(env, ids[100:100+n]) {
			if _, err := b.FindByDomain(ctx(t), d); err != nil {
				t.Fatal(err)
			}
		}
		total, list, show := env.requests()
		better := min(n, 20)
		t.Logf("%d sequential lookups: %d requests (%d list, %d show); better strategy %d; %+v", n, total, list, show, better, b.Stats())
		if total > 2*better+2 {
			t.Errorf("%d sequential lookups cost %d requests; the better strategy costs %d (bound: about twice)", n, total, better)
		}
	}
}

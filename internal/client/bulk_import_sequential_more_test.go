package client_test

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Sequential imports (a lookup, then a Read of the id found) on 1000
// websites (10 pages), for more imports than TestSequentialImportsCost
// tries. Each Read is a hit, yet counted toward the sweep with the
// lookups: the sweep read twice (20 pages) is bought at about 10
// imports, when 10 searches would do. Better = min(n searches, 20 pages).
func TestSequentialImportsPastTheSweepCost(t *testing.T) {
	t.Parallel()
	for _, n := range []int{9, 10, 11, 12, 13, 14, 16, 20, 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			env := newBulkEnv(t)
			ids := env.seed(1000)
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
			for _, d := range domainsOf(env, ids[100:100+n]) {
				w, err := b.FindByDomain(ctx(t), d)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := b.Read(ctx(t), w.ID); err != nil {
					t.Fatal(err)
				}
			}
			total, list, show := env.requests()
			better := min(n, 20)
			t.Logf("%d sequential imports: %d requests (%d list, %d show); better %d; %+v", n, total, list, show, better, b.Stats())
			if total > 2*better+2 {
				t.Errorf("%d sequential imports by domain cost %d requests; the better strategy costs %d (bound: about twice)", n, total, better)
			}
		})
	}
}

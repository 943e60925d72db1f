package client_test

// Imports by domain one after the other, as Terraform
// runs them with -parallelism=1 (or as they happen to arrive): each
// import looks its domain up (FindByDomain), then reads its id (Read).

import (
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// 1000 websites (10 pages); 6 imports, each a lookup and then a read of
// the id it found. The better strategy: 6 searches (one request each;
// the reads are served from the searches' answers). The reader counts the
// 6 lookups AND the 6 reads (hits all) toward the sweep, so at the sixth
// lookup (11 counted > 9 pages left) it sweeps, and as that lookup waits,
// it reads all 10 pages a second time: 1 + 5 searches + 9 + 10 = 25
// requests, four times the better. The bound the reader documents is
// about twice.
func TestSequentialImportsCost(t *testing.T) {
	t.Parallel()
	for _, n := range []int{6, 8} {
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
		t.Logf("%d sequential imports: %d requests (%d list, %d show); better strategy %d; %+v", n, total, list, show, n, b.Stats())
		if total > 2*n+2 {
			t.Errorf("%d sequential imports by domain cost %d requests; %d searches would do (bound: about twice)", n, total, n)
		}
	}
}

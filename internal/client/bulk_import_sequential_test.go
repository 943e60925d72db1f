package client_test

// Imports by domain one after the other, as Terraform
// runs them with -parallelism=1 (or as they happen to arrive): each
// import looks its domain up (FindByDomain), then reads its id (Read).

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// 1000 websites (10 pages); n imports, each a lookup and then a read of
// the id it found. The better strategy: n searches (one request each; the
// reads are served from the searches' answers), or the sweep read twice
// (20 requests) when more. The bound the reader documents is about twice.
// A read served by its lookup's search does not count toward the sweep:
// when it did, 6 imports cost 25 requests, 11 to 13 imports 30.
func TestSequentialImportsCost(t *testing.T) {
	t.Parallel()
	for _, n := range []int{6, 8, 11, 13, 16, 20, 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
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

package client_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Lookup costs for several list sizes and lookup counts, sequential and
// concurrent, FindByDomain and FindHolders: within about twice the better
// of one search per lookup and the sweep read twice.
func TestLookupCosts(t *testing.T) {
	t.Parallel()
	for _, size := range []int{150, 1000} {
		pages := (size + 99) / 100
		for _, n := range []int{1, 3, 8, 11, 21, 40} {
			for _, mode := range []string{"seq-find", "seq-holders", "conc-find", "conc-holders"} {
				t.Run(fmt.Sprintf("%d/%d/%s", size, n, mode), func(t *testing.T) {
					env := newBulkEnv(t)
					ids := env.seed(size)
					clock := newFakeClock()
					opts := client.BulkReaderOptions{Linger: -1, Clock: clock.Now}
					b := client.NewBulkReader(env.c, opts)
					doms := domainsOf(env, ids[size/2:min(size, size/2+n)])
					for len(doms) < n {
						doms = append(doms, fmt.Sprintf("none-%d.example.net", len(doms)))
					}
					look := func(c context.Context, d string) error {
						if mode == "seq-holders" || mode == "conc-holders" {
							_, err := b.FindHolders(c, d, func(s string) bool { return s == d })
							return err
						}
						_, err := b.FindByDomain(c, d)
						return err
					}
					if mode[:3] == "seq" {
						for _, d := range doms {
							if err := look(ctx(t), d); err != nil {
								t.Fatal(err)
							}
						}
					} else {
						res := runAll(t, doms, 8, 0, func(c context.Context, d string) error { return look(c, d) })
						for d, err := range res {
							if err != nil {
								t.Fatal(d, err)
							}
						}
					}
					total, list, show := env.requests()
					better := min(n, 2*pages)
					if total > 2*better+2 {
						t.Errorf("%d lookups on %d pages (%s): %d requests (%d list, %d show); better %d; %+v", n, pages, mode, total, list, show, better, b.Stats())
					}
				})
			}
		}
	}
}

package client_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Reads and lookups mixed: sequential alternation, and concurrent.
func TestMixedCosts(t *testing.T) {
	t.Parallel()
	for _, size := range []int{500, 1000} {
		pages := size / 100
		for _, n := range []int{2, 5, 10, 20, 40} {
			for _, mode := range []string{"alt", "conc", "reads-then-lookups", "lookups-then-reads"} {
				t.Run(fmt.Sprintf("%d/%d/%s", size, n, mode), func(t *testing.T) {
					env := newBulkEnv(t)
					ids := env.seed(size)
					b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
					doms := domainsOf(env, ids[:n])
					type op struct {
						id  int64
						dom string
					}
					var ops []op
					switch mode {
					case "alt", "conc":
						for i := range n {
							ops = append(ops, op{id: ids[size-1-i]}, op{dom: doms[i]})
						}
					case "reads-then-lookups":
						for i := range n {
							ops = append(ops, op{id: ids[size-1-i]})
						}
						for i := range n {
							ops = append(ops, op{dom: doms[i]})
						}
					default:
						for i := range n {
							ops = append(ops, op{dom: doms[i]})
						}
						for i := range n {
							ops = append(ops, op{id: ids[size-1-i]})
						}
					}
					do := func(c context.Context, o op) error {
						if o.dom != "" {
							_, err := b.FindByDomain(c, o.dom)
							return err
						}
						_, err := b.Read(c, o.id)
						return err
					}
					if mode == "conc" {
						for _, err := range runAll(t, ops, 8, 0, do) {
							if err != nil {
								t.Fatal(err)
							}
						}
					} else {
						for _, o := range ops {
							if err := do(ctx(t), o); err != nil {
								t.Fatal(err)
							}
						}
					}
					total, list, show := env.requests()
					// better: reads by GET or one sweep; lookups by search or the sweep again.
					better := min(n, pages) + min(n, 2*pages)
					better = min(better, 2*pages+1)
					if total > 2*better+2 {
						t.Errorf("%s: %d reads + %d lookups on %d pages: %d requests (%d list, %d show); better %d; %+v", mode, n, n, pages, total, list, show, better, b.Stats())
					} else {
						t.Logf("%s: %d requests, better %d", mode, total, better)
					}
				})
			}
		}
	}
}

package client_test

// A list in any order but newest first is read newest first and ordered
// here (sweepLocally), then cut where the page asked for begins.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// serverPages reads the list as the server pages it, from page `from` to
// the end, in the server's order (one request per page).
func serverPages(t *testing.T, c *client.Client, opts client.ListOptions, from int) []int64 {
	t.Helper()
	var ids []int64
	for page := from; ; page++ {
		o := opts
		o.Page = page
		p, err := c.ListWebsites(ctx(t), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range p.Websites {
			ids = append(ids, w.ID)
		}
		if !p.HasNext || len(p.Websites) == 0 {
			return ids
		}
	}
}

// AllWebsites from page P of any order is what the server's pages P..end
// hold (unique domains, so the server's order is one order).
func TestLocalCut(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(237)
	// Domains in another order than ids, unique.
	for i, id := range ids {
		d := fmt.Sprintf("%c%03d-x.example.com", 'a'+(i*7)%26, i)
		if i%3 == 0 {
			d = fmt.Sprintf("%c%03d-X.Example.com", 'a'+(i*7)%26, i)
		}
		env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Domain = d })
	}
	for _, order := range []struct{ by, dir string }{{"", ""}, {client.SortByID, client.SortDesc}, {"", client.SortAsc}, {client.SortByID, client.SortAsc}, {client.SortByDomain, client.SortAsc}, {client.SortByDomain, client.SortDesc}, {client.SortByDomain, ""}} {
		for _, per := range []int{0, 10, 100} {
			for _, search := range []string{"", "a0"} {
				for _, page := range []int{0, 2, 3, 24, 30} {
					opts := client.ListOptions{SortBy: order.by, Sort: order.dir, PerPage: per, Search: search}
					want := serverPages(t, env.c, opts, max(page, 1))
					opts.Page = page
					var got []int64
					for w, err := range env.c.AllWebsites(ctx(t), opts) {
						if err != nil {
							t.Fatalf("%+v: %v", opts, err)
						}
						got = append(got, w.ID)
					}
					if !slices.Equal(got, want) {
						t.Errorf("%+v: %d websites %v..., server pages from %d: %d %v...", opts, len(got), head(got), page, len(want), head(want))
					}
				}
			}
		}
	}
}

func head(ids []int64) []int64 { return ids[:min(len(ids), 5)] }

package client_test

// The order made here (sweepLocally) against the
// emulator's own pages, for every order, with shared domains, case
// differences and non-ASCII domains (held).

import (
	"fmt"
	"slices"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestLocalOrderMatchesServerPages(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	doms := []string{"b.example", "B.example", "a.example", "bücher.example", "buz.example", "a_b.example", "a1.example", "a-b.example", "z.example", "Z.EXAMPLE", "ä.example"}
	for i := range 230 {
		d := doms[i%len(doms)]
		if i%3 == 0 {
			d = fmt.Sprintf("s%03d.%s", i%17, d)
		}
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d})
	}
	for _, o := range []client.ListOptions{
		{SortBy: client.SortByDomain, Sort: client.SortAsc},
		{SortBy: client.SortByDomain, Sort: client.SortDesc},
		{SortBy: client.SortByDomain},
		{Sort: client.SortAsc},
		{SortBy: client.SortByDomain, Sort: client.SortAsc, Search: "example"},
	} {
		o.PerPage = 25
		got, err := client.ListAllWebsites(env.c, ctx(t), o)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for page := 1; ; page++ {
			o2 := o
			o2.Page = page
			p, err := env.c.ListWebsites(ctx(t), o2)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range p.Websites {
				want = append(want, w.ID)
			}
			if !p.HasNext {
				break
			}
		}
		var g []int64
		for _, w := range got {
			g = append(g, w.ID)
		}
		if !slices.Equal(g, want) {
			t.Errorf("%+v: local order differs from the server's pages", o)
		}
	}
}

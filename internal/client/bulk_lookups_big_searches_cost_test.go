package client_test

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Lookups that this process's writes make search stop once the searches
// cost, in requests, what a new sweep read twice would: a search reads
// every page of its answer (twice when there are several), so searches
// for apexes that match many websites reach that bar sooner than the
// same number of searches of one page.
//
// 250 websites under 2 apexes (3 pages of the sweep), one create of
// unknown outcome (every lookup searches until the next sweep), then 40
// held checks of the two apexes alternately. A new verified sweep of 3
// pages, read twice (about 6-7 requests), answers them all; counting
// searches instead of requests cost 30. Deterministic (standing clock,
// Linger off).
func TestHeldChecksOfBigSearchesCost(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	for i := range 250 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("s%03d.apex%d.example", i, i%2)})
	}
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	env.loseCreate(t, b, "lost.example.net")
	before, list0, _ := env.requests()
	for i := range 40 {
		d := fmt.Sprintf("apex%d.example", i%2)
		ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
		if err != nil || len(ws) != 0 {
			t.Fatalf("FindHolders(%s) = %v, %v", d, ws, err)
		}
	}
	after, list, _ := env.requests()
	t.Logf("40 apex checks after one lost create: %d requests (%d list); %+v", after-before, list-list0, b.Stats())
	if n := after - before; n > 14 {
		t.Errorf("40 held-domain checks after one create of unknown outcome cost %d requests; "+
			"a new verified sweep of 3 pages (about 7) answers them all: the searches before it must be counted in requests", n)
	}
}

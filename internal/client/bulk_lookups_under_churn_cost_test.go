package client_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Lookups beside another client that keeps changing websites: each
// sweep for them (read twice) sees a change, and after two changes the
// sweep failed. The lookups counted toward it are spent, and no sweep is
// tried for a TTL, twice as long after each failure that follows: a few
// failed sweeps in all, where trying again every TTL cost several times
// what searching each lookup costs (165 and 198 requests for 30 lookups).
//
// 250 websites (3 pages), a sweep made by reads (read once), then 30
// lookups of other domains 3 s apart, while another client renames a
// website of page 2 on every read of that page. Deterministic (standing
// clock moved by the test, PageConcurrency 1, Linger off).
//
// with_own_update: one update of this process after the sweep (the
// lookups then sweep anew rather than read its pages again);
// without_own_update: they read its pages again (fetchVerify).
func TestLookupsUnderChurnCost(t *testing.T) {
	t.Parallel()
	for _, own := range []bool{true, false} {
		name := map[bool]string{true: "with_own_update", false: "without_own_update"}[own]
		t.Run(name, func(t *testing.T) { t.Parallel(); resweepUnderChurn(t, own) })
	}
}

func resweepUnderChurn(t *testing.T, own bool) {
	env, ids, clock, b := stepReader(t, 250)
	for _, id := range []int64{ids[249], ids[248], ids[149]} { // a GET, page 1, then the other pages
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.Sweeps != 1 {
		t.Fatalf("premise: the reads made %d sweeps; %+v", s.Sweeps, s)
	}
	// One update of this process (keeps the domain).
	if own {
		if err := b.Write(ctx(t), ids[5], func() (*client.Website, error) {
			env.emu.UpdateWebsite(ids[5], func(w *emulator.Website) { w.Privacy = ptr(1); w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
			return env.c.GetWebsite(ctx(t), ids[5])
		}); err != nil {
			t.Fatal(err)
		}
	}
	// Another client renames a website of page 2 whenever that page is read.
	var mu sync.Mutex
	k := 0
	env.hook(func(page int, after bool) {
		if after || page != 2 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		k++
		env.emu.UpdateWebsite(ids[120], func(w *emulator.Website) {
			w.Domain = fmt.Sprintf("churn-%d.example.org", k)
			w.UpdatedAt = w.UpdatedAt.Add(time.Second)
		})
	})
	before, list0, _ := env.requests()
	const n = 30
	for i := range n {
		d := fmt.Sprintf("other-%02d.example.net", i)
		if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
			t.Fatalf("FindHolders(%s): %v", d, err)
		}
		clock.Advance(3 * time.Second)
	}
	after, list, _ := env.requests()
	t.Logf("%d lookups 3 s apart under churn: %d requests (%d list); %+v", n, after-before, list-list0, b.Stats())
	if got := after - before; got > 3*n {
		t.Errorf("%d lookups cost %d requests; searching each costs about %d: failed sweeps must spend the lookups "+
			"counted toward them, and wait longer after each failure", n, got, n)
	}
}

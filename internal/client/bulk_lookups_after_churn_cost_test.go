package client_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestLookupsUnderChurnCost's set-up (250 websites, a sweep made by
// reads, lookups of other domains 3 s apart while another client renames
// a page-2 website on every read of that page), but the churn stops
// after the first 125 lookups (over 6 min). The 60 lookups that follow
// are answered by a sweep read twice after a few searches (about 14
// requests): the failed sweeps' cost is repaid by lookups, not by time.
// A back-off that doubled a time window per failure cost 60 searches.
// Deterministic (standing clock moved by the test, PageConcurrency 1,
// Linger off).
func TestLookupsAfterChurnStopsCost(t *testing.T) {
	t.Parallel()
	env, ids, clock, b := stepReader(t, 250)
	for _, id := range []int64{ids[249], ids[248], ids[149]} {
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	var churn atomic.Bool
	churn.Store(true)
	var mu sync.Mutex
	k := 0
	env.hook(func(page int, after bool) {
		if after || page != 2 || !churn.Load() {
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
	lookup := func(i int) {
		t.Helper()
		d := fmt.Sprintf("other-%02d.example.net", i)
		if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
			t.Fatalf("FindHolders(%s): %v", d, err)
		}
		clock.Advance(3 * time.Second)
	}
	for i := range 125 {
		lookup(i)
	}
	churn.Store(false)
	s0 := b.Stats()
	before, _, _ := env.requests()
	const n = 60
	for i := range n {
		lookup(100 + i)
	}
	after, _, _ := env.requests()
	s := b.Stats()
	t.Logf("%d lookups after the churn stopped: %d requests, %d searches, %d sweeps; %+v", n, after-before,
		s.Searches-s0.Searches, s.Sweeps-s0.Sweeps, s)
	if got := after - before; got > 2*(7+7) {
		t.Errorf("%d lookups 3 s apart after the churn stopped cost %d requests (%d searches); a sweep read twice "+
			"after a few searches (about 14) answers them: the failures must not keep them searching long after the churn", n, got, s.Searches-s0.Searches)
	}
}

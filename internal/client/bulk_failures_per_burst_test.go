package client_test

// What the page failures of an earlier burst of reads cost a later one:
// nothing.

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestEarlierBurstsFailuresDoNotDoubleLater: the doubling of what a
// failed sweep owes counts the page failures of the burst only. A burst
// of reads during an outage of page 2 (100 reads of its websites: several
// attempts, each failed) and, a minute later, the server answering again
// but for one transient failure of the next burst's first page: its 300
// reads cost about twice a sweep and the failed page, its 100 create
// checks (FindHolders) about twice a sweep read twice and the failed page
// (as without the earlier burst: 21 requests; see
// TestOneFailedPageCostsLittle). Before, the count of failures carried
// over: they owed 1<<7 = 128 pages, about 130 requests for the reads and
// 100 for the checks. Deterministic (standing clock moved by the test,
// Linger off, PageConcurrency 1).
func TestEarlierBurstsFailuresDoNotDoubleLater(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"reads", "lookups"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			env, ids, clock, b := stepReader(t, 500) // 5 pages
			var outage, transient atomic.Bool
			outage.Store(true)
			env.fail(func(page int) int {
				if outage.Load() && page == 2 {
					return http.StatusNotFound
				}
				if page == 1 && transient.CompareAndSwap(true, false) {
					return http.StatusNotFound
				}
				return 0
			})
			for _, id := range ids[300:400] { // page 2
				if _, err := b.Read(ctx(t), id); err != nil {
					t.Fatalf("read %d: %v", id, err)
				}
				clock.Advance(50 * time.Millisecond)
			}
			if s := b.Stats(); s.Sweeps != 0 || s.PageErrors < 5 {
				t.Fatalf("premise: the outage failed several sweeps; %+v", s)
			}
			outage.Store(false)
			transient.Store(true)
			clock.Advance(time.Minute)
			before, _, _ := env.requests()
			n, want, step := 300, 2*(1+5+1), time.Duration(0)
			if kind == "lookups" {
				n, want, step = 100, 2*(1+2*5+1), 50*time.Millisecond
			}
			readsOrLookups(t, b, clock, kind, ids, n, step)
			after, _, _ := env.requests()
			got := after - before
			t.Logf("%s a minute later with one failed page: %d requests; %+v", kind, got, b.Stats())
			if got > want {
				t.Errorf("%s after one transient page failure cost %d requests, want at most %d (about twice a "+
					"sweep and the failed page): the page failures of an earlier burst still double what it owes",
					kind, got, want)
			}
		})
	}
}

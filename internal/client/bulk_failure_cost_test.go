package client_test

// What a failed list page or a big search costs the reads and lookups
// around it, and a lookup whose match panics.

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestOneFailedPageCostsLittle: one transient failure (page 1 of the
// first sweep answered 404 once) costs the reads and lookups of the rest
// of a refresh or plan, all within a TTL of it (50 ms apart on the
// reader's clock), what it cost: they repay the failed page, then sweep.
// Before, no sweep started for a TTL after a failure: 100 reads cost 100
// GETs, 60 create checks 60 searches. Deterministic (standing clock moved
// by the test, Linger off, PageConcurrency 1).
func TestOneFailedPageCostsLittle(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"reads", "lookups"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			env, ids, clock, b := stepReader(t, 250) // 3 pages
			var failed atomic.Bool
			env.fail(func(page int) int {
				if page == 1 && failed.CompareAndSwap(false, true) {
					return http.StatusNotFound // the first list request only
				}
				return 0
			})
			n, want := 100, 2*(1+3+1)
			if kind == "lookups" {
				n, want = 60, 2*(1+6+1)
			}
			readsOrLookups(t, b, clock, kind, ids, n, 50*time.Millisecond)
			if s := b.Stats(); s.PageErrors != 1 {
				t.Fatalf("premise: one page failed; %+v", s)
			}
			total, list, show := env.requests()
			t.Logf("%d %s after one failed page: %d requests (%d list, %d show); %+v", n, kind, total, list, show, b.Stats())
			if total > want {
				t.Errorf("%d %s within a TTL of one failed page cost %d requests, want at most %d (about twice a sweep "+
					"and the failed page): the window sends them all to the server alone", n, kind, total, want)
			}
		})
	}
}

// TestPanickingMatchLeavesReaderUsable: FindHolders runs the caller's
// match on a sweep's domains with the reader's lock held; a match that
// panics (the caller recovers) panics the call, and the reader is
// unlocked: later Reads and Stats answer. Before, they blocked for ever.
// The outcome does not depend on timing: the lock is held or not; the
// 10 s bound only ends the test.
func TestPanickingMatchLeavesReaderUsable(t *testing.T) {
	t.Parallel()
	_, ids, b := sweptReader(t, 150) // a verified sweep: the lookup matches its domains
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Error("FindHolders returned although its match panicked")
			}
		}()
		_, _ = b.FindHolders(ctx(t), "site-00003", func(s string) bool {
			if s == "site-00003.example.com" {
				panic("a domain the caller's rule cannot handle")
			}
			return false
		})
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = b.Read(ctx(t), ids[0])
		_ = b.Stats()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the reader stays locked after a FindHolders whose match panicked: Read and Stats block for ever")
	}
}

// TestBigSearchesCountTheirRequests: a lookup counts toward the sweep
// (and repays a failed sweep's pages) with the requests its search cost.
// A create check of an apex under which many websites are (250 websites
// under 2 apexes, 3 pages) searches every page of the answer, twice (4
// requests): 40 such checks 1 s apart, with no sweep yet, cost about
// twice a sweep read twice (6), which answers them all. When page 3 of
// the first sweep fails once, one search repays it and one more pays for
// reading page 3 again. Before, each lookup counted one: 26 and 54
// requests. Deterministic (standing clock moved by the test, Linger off,
// PageConcurrency 1).
func TestBigSearchesCountTheirRequests(t *testing.T) {
	t.Parallel()
	for _, failing := range []bool{false, true} {
		t.Run(map[bool]string{false: "no failure", true: "page 3 fails once"}[failing], func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			for i := range 250 {
				env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("s%03d.apex%d.example", i, i%2)})
			}
			clock := newFakeClock()
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
			var failed atomic.Bool
			if failing {
				env.fail(func(page int) int {
					if page == 3 && failed.CompareAndSwap(false, true) {
						return http.StatusNotFound
					}
					return 0
				})
			}
			for i := range 40 {
				d := fmt.Sprintf("apex%d.example", i%2)
				ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
				if err != nil || len(ws) != 0 {
					t.Fatalf("FindHolders(%s) = %v, %v", d, ws, err)
				}
				clock.Advance(time.Second)
			}
			total, list, _ := env.requests()
			t.Logf("40 apex checks: %d requests (%d list); %+v", total, list, b.Stats())
			// A sweep read twice (6), page 1 read first (1), the failed
			// page: about twice that, and the two searches of 4 after
			// the failure.
			want := 2 * (6 + 1 + 1)
			if failing {
				want += 2 * 4
			}
			if total > want {
				t.Errorf("40 held checks of big searches cost %d requests, want at most %d: "+
					"a lookup counts toward the sweep with what its search cost", total, want)
			}
		})
	}
}

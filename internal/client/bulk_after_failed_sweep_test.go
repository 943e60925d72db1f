package client_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

// failedSweepReader is a reader on 250 websites (3 pages; Linger off,
// PageConcurrency 1, a standing clock) whose first sweep, made by three
// reads, failed: page 3 answered 404 (once, or until the test clears
// env.failPage).
func failedSweepReader(t *testing.T, once bool) (*bulkEnv, []int64, *testclock.Clock, *client.BulkReader) {
	t.Helper()
	env, ids, clock, b := stepReader(t, 250)
	var failed atomic.Bool
	env.fail(func(page int) int {
		if page == 3 && (!once || failed.CompareAndSwap(false, true)) {
			return http.StatusNotFound
		}
		return 0
	})
	safeReads(t, b, ids[249], ids[248], ids[149]) // a GET, page 1, then pages 2-3 (page 3 fails)
	if s := b.Stats(); s.PageErrors == 0 || s.Sweeps != 0 {
		t.Fatalf("premise: a failed sweep; %+v", s)
	}
	return env, ids, clock, b
}

// safeReads reads ids, failing the test on an error or a panic (the
// reader's lock then stays held: no Stats after it).
func safeReads(t *testing.T, b *client.BulkReader, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Read(%d) panicked: %v", id, r)
				}
			}()
			if _, err := b.Read(ctx(t), id); err != nil {
				t.Fatalf("read %d: %v", id, err)
			}
		}()
	}
}

// A sweep that failed (a page answered 404), then a complete sweep
// (ListAll): the reads that follow plan their fetches as after any
// complete sweep. A back-off that doubled per failure once panicked here
// (a negative shift, the failure count reset by the complete sweep while
// failedAt stayed set). Deterministic.
func TestReadAfterFailedThenCompleteSweep(t *testing.T) {
	t.Parallel()
	env, ids, clock, b := failedSweepReader(t, false)
	env.failPage.Store(nil)
	if _, err := b.ListAll(ctx(t), client.ListOptions{}); err != nil { // a complete sweep
		t.Fatal(err)
	}
	clock.Advance(time.Minute) // the sweep is stale, the failure long past
	safeReads(t, b, ids[:5]...)
}

// The same with no ListAll: a refresh's sweep whose page 3 fails once
// (a 404), and reads after the failure's TTL that sweep completely. The
// first lookup by domain that follows (an import by domain, a create's
// held-domain check) is answered from that sweep, and reads once it is
// stale plan as after any sweep.
func TestReadsAndLookupAfterFailedThenSweptByReads(t *testing.T) {
	t.Parallel()
	_, ids, clock, b := failedSweepReader(t, true)
	clock.Advance(6 * time.Second) // past the failure's TTL
	safeReads(t, b, ids[247], ids[246], ids[148])
	if s := b.Stats(); s.Sweeps != 1 || s.PageErrors != 1 {
		t.Fatalf("premise: a failed sweep, then a complete one; %+v", s)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("FindByDomain after a failed then complete sweep panicked: %v", r)
			}
		}()
		if _, err := b.FindByDomain(ctx(t), "site-00010.example.com"); err != nil {
			t.Errorf("FindByDomain: %v", err)
		}
	}()
	clock.Advance(10 * time.Second) // that sweep is stale
	safeReads(t, b, ids[245], ids[244], ids[147])
}

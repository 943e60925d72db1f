package client_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A sweep that failed (a page answered 404), then a complete sweep
// (ListAll, or a later sweep of reads): the reads that follow plan their
// fetches as after any complete sweep. A back-off that doubled per
// failure once panicked here (a negative shift, the failure count reset
// by the complete sweep while failedAt stayed set). Deterministic
// (standing clock moved by the test, Linger off, PageConcurrency 1).
func TestReadAfterFailedThenCompleteSweep(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	env.fail(func(page int) int {
		if page == 3 {
			return http.StatusNotFound
		}
		return 0
	})
	for _, id := range []int64{ids[249], ids[248], ids[149]} { // a GET, page 1, then pages 2-3 (page 3 fails)
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.PageErrors == 0 || s.Sweeps != 0 {
		t.Fatalf("premise: a failed sweep; %+v", s)
	}
	env.failPage.Store(nil)
	if _, err := b.ListAll(ctx(t), client.ListOptions{}); err != nil { // a complete sweep
		t.Fatal(err)
	}
	clock.Advance(time.Minute) // the sweep is stale, the failure long past
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Read after a failed sweep and a complete one panicked: %v", r)
			}
		}()
		for _, id := range ids[:5] {
			if _, err := b.Read(ctx(t), id); err != nil {
				t.Errorf("read %d: %v", id, err)
			}
		}
	}()
}

// The same with no ListAll: a refresh's sweep whose page 3 fails once
// (a 404), reads after the back-off that sweep completely, and a read
// once that sweep is stale panics.
func TestReadAfterFailedThenSweptByReads(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	var failed atomic.Bool
	env.fail(func(page int) int {
		if page == 3 && failed.CompareAndSwap(false, true) {
			return http.StatusNotFound
		}
		return 0
	})
	read := func(id int64) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Read(%d) panicked: %v", id, r) // b.mu stays locked: no Stats
			}
		}()
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatalf("read %d: %v", id, err)
		}
	}
	for _, id := range []int64{ids[249], ids[248], ids[149]} { // a GET, page 1, pages 2-3: page 3 fails
		read(id)
	}
	if s := b.Stats(); s.PageErrors != 1 || s.Sweeps != 0 {
		t.Fatalf("premise: a failed sweep; %+v", s)
	}
	clock.Advance(10 * time.Second) // past the back-off (one TTL)
	for _, id := range []int64{ids[247], ids[246], ids[148]} {
		read(id)
	}
	if s := b.Stats(); s.Sweeps != 1 {
		t.Fatalf("premise: a complete sweep after the back-off; %+v", s)
	}
	clock.Advance(10 * time.Second) // that sweep is stale
	for _, id := range []int64{ids[245], ids[244], ids[147]} {
		read(id)
	}
}

// A refresh whose first sweep failed (page 3 answered 404 once) and whose
// reads swept again after the back-off: the first lookup by domain that
// follows (an import by domain, a create's held-domain check) is answered,
// the sweep still fresh.
func TestLookupAfterFailedThenSweptByReads(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	var failed atomic.Bool
	env.fail(func(page int) int {
		if page == 3 && failed.CompareAndSwap(false, true) {
			return http.StatusNotFound
		}
		return 0
	})
	for _, id := range []int64{ids[249], ids[248], ids[149]} { // a GET, page 1, pages 2-3: page 3 fails
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(6 * time.Second) // past the back-off (one TTL)
	for _, id := range []int64{ids[247], ids[246], ids[148]} {
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.Sweeps != 1 || s.PageErrors != 1 {
		t.Fatalf("premise: a failed sweep, then a complete one; %+v", s)
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("FindByDomain after a failed then complete sweep panicked: %v", r) // b.mu stays locked
		}
	}()
	if _, err := b.FindByDomain(ctx(t), "site-00010.example.com"); err != nil {
		t.Errorf("FindByDomain: %v", err)
	}
}

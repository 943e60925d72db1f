package client_test

// What the page failures of an earlier burst of reads cost a later one:
// nothing.

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestEarlierBurstsFailuresDoNotDoubleLaterDebt: the doubling of what a
// failed sweep owes counts the page failures of the burst only. A burst
// of reads during an outage of page 2 (100 reads of its websites: 7
// attempts, each failed) and, a minute later, the server answering
// again, one transient failure of the next burst's first page: its 300
// reads cost about twice a sweep and the failed page
// (TestOneFailedPageCostsLittle: 2*(1+5+1) here). Before, the count of
// failures carried over: they owed 1<<7 = 128 pages, about 130 requests.
// Deterministic (standing clock moved by the test, Linger off,
// PageConcurrency 1).
func TestEarlierBurstsFailuresDoNotDoubleLaterDebt(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500) // 5 pages
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	var (
		outage    atomic.Bool
		transient atomic.Bool
	)
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
	read := func(id int64) {
		t.Helper()
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatalf("read %d: %v", id, err)
		}
		clock.Advance(50 * time.Millisecond)
	}
	for _, id := range ids[300:400] { // page 2
		read(id)
	}
	s := b.Stats()
	t.Logf("burst during the outage of page 2: %+v", s)
	if s.Sweeps != 0 || s.PageErrors < 5 {
		t.Fatalf("premise: the outage failed several sweeps; %+v", s)
	}
	outage.Store(false)
	transient.Store(true)
	clock.Advance(time.Minute)
	before, _, _ := env.requests()
	for _, id := range ids[:300] {
		read(id)
	}
	after, list, show := env.requests()
	got, want := after-before, 2*(1+5+1)
	t.Logf("300 reads a minute later with one failed page: %d requests (list %d, show %d in all); %+v", got, list, show, b.Stats())
	if got > want {
		t.Errorf("300 reads after one transient page failure cost %d requests, want at most %d (about twice a sweep "+
			"and the failed page): the page failures of an earlier burst still double what the failure owes", got, want)
	}
}

// TestEarlierBurstsFailuresDoNotDoubleLaterLookups: as
// TestEarlierBurstsFailuresDoNotDoubleLaterDebt, for the create checks
// of a later burst: after a burst of reads during an outage of page 2,
// one transient failure of the next burst's first page makes its 100
// create checks (FindHolders) cost about twice a sweep read twice and the
// failed page (TestOneFailedPageCostsLittle), as without the earlier
// burst (21 requests). Before, they searched one by one (1<<7 owed): 100
// requests. Deterministic (standing
// clock moved by the test, Linger off, PageConcurrency 1).
func TestEarlierBurstsFailuresDoNotDoubleLaterLookups(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500) // 5 pages
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	var (
		outage    atomic.Bool
		transient atomic.Bool
	)
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
	for i := range 100 {
		d := fmt.Sprintf("new-%03d.example.net", i)
		if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
			t.Fatalf("FindHolders(%s): %v", d, err)
		}
		clock.Advance(50 * time.Millisecond)
	}
	after, _, _ := env.requests()
	got, want := after-before, 2*(1+2*5+1)
	t.Logf("100 create checks a minute later with one failed page: %d requests; %+v", got, b.Stats())
	if got > want {
		t.Errorf("100 create checks after one transient page failure cost %d requests, want at most %d (about twice "+
			"a sweep read twice and the failed page): the page failures of an earlier burst still double what the "+
			"failure owes", got, want)
	}
}

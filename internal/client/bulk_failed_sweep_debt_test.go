package client_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// The pages a failed sweep owes are those of its attempt
// (failedLocked: "a server that answers again is swept again after as
// many reads as the failure cost"). Earlier bursts, each a probe GET and
// page 1 alone (too few reads to pay for the rest), paid for their own
// pages; they must not be owed again by a later burst whose sweep fails
// once. Deterministic (standing clock moved by the test, Linger off,
// PageConcurrency 1).
func TestFailedSweepOwesOnlyItsBurst(t *testing.T) {
	t.Parallel()
	for _, bursts := range []int{0, 20} {
		t.Run(map[int]string{0: "no earlier bursts", 20: "20 earlier bursts"}[bursts], func(t *testing.T) {
			t.Parallel()
			env, ids, clock, b := stepReader(t, 250) // 3 pages; page 1 holds ids[150:], page 3 ids[:50]
			read := func(id int64) {
				t.Helper()
				if _, err := b.Read(ctx(t), id); err != nil {
					t.Fatalf("read %d: %v", id, err)
				}
			}
			for i := range bursts {
				clock.Advance(6 * time.Second) // a new burst: page 1 stale
				read(ids[249-i])               // the probe GET
				read(ids[100])                 // page 1, then a GET (page 2)
			}
			var failed atomic.Bool
			env.fail(func(page int) int {
				if page == 3 && failed.CompareAndSwap(false, true) {
					return http.StatusNotFound
				}
				return 0
			})
			clock.Advance(6 * time.Second)
			// The probe GET, page 1, then pages 2-3: page 3 fails once.
			for _, id := range []int64{ids[249], ids[248], ids[149]} {
				read(id)
			}
			if s := b.Stats(); s.PageErrors != 1 || s.Sweeps != 0 {
				t.Fatalf("premise: a failed sweep; %+v", s)
			}
			// The failed attempt cost 3 pages. The refresh goes on, a read
			// a second, on the websites of page 3.
			before, _, _ := env.requests()
			for _, id := range ids[:50] {
				clock.Advance(time.Second)
				read(id)
			}
			after, list, show := env.requests()
			t.Logf("%d earlier bursts: 50 reads after the failed sweep cost %d requests (%d list, %d show in all); %+v",
				bursts, after-before, list, show, b.Stats())
			// The failing TTL (5 reads), the 3 pages owed, the probe, then
			// page 3 and page 1 again: about 10.
			if got := after - before; got > 12 {
				t.Errorf("50 reads after a sweep that failed once cost %d requests, want at most 12: "+
					"the debt holds pages that earlier bursts requested and paid for", got)
			}
		})
	}
}

// The same debt after a verify that succeeded. A refresh swept
// 1000 websites (10 pages, read once), the create checks that followed
// read them again (fetchVerify: 10 pages, the same); a later burst's
// sweep fails once on page 10, after 10 pages of its own. Those 10 are
// owed; the verify's 10 were paid for by the lookups that caused it, and
// its sweep completed. Deterministic (standing clock moved by the test,
// Linger off, PageConcurrency 1).
func TestFailedSweepOwesNoVerifiedPages(t *testing.T) {
	t.Parallel()
	env, ids, clock, b := stepReader(t, 1000) // 10 pages; page 10 holds ids[:100]
	read := func(id int64) {
		t.Helper()
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatalf("read %d: %v", id, err)
		}
	}
	for _, id := range ids {
		read(id)
	}
	if s := b.Stats(); s.Sweeps != 1 {
		t.Fatalf("premise: the refresh swept; %+v", s)
	}
	p0 := b.Stats().Pages
	for i := range 12 {
		d := fmt.Sprintf("new-%02d.example.net", i)
		if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.Pages-p0 != 10 || s.PageErrors != 0 {
		t.Fatalf("premise: the lookups read the sweep's 10 pages again; %+v", s)
	}
	var failed atomic.Bool
	env.fail(func(page int) int {
		if page == 10 && failed.CompareAndSwap(false, true) {
			return http.StatusNotFound
		}
		return 0
	})
	clock.Advance(6 * time.Second) // a new burst
	// The probe GET, page 1, GETs of page-2 websites until the reads pay
	// for pages 2-10, then pages 2-10: page 10 fails.
	read(ids[999])
	read(ids[998])
	for i := 899; i > 850 && b.Stats().PageErrors == 0; i-- {
		read(ids[i])
	}
	if s := b.Stats(); s.PageErrors != 1 || s.Sweeps != 1 {
		t.Fatalf("premise: a failed sweep; %+v", s)
	}
	before, _, _ := env.requests()
	for _, id := range ids[:100] { // page 10's websites, a read a second
		clock.Advance(time.Second)
		read(id)
	}
	after, list, show := env.requests()
	t.Logf("100 reads after the failed sweep cost %d requests (%d list, %d show in all); %+v", after-before, list, show, b.Stats())
	// The failing TTL (5 reads), the 10 pages owed, the probe, then page
	// 10 and page 1 again: about 14.
	if got := after - before; got > 16 {
		t.Errorf("100 reads after a sweep that failed once (10 pages) cost %d requests, want at most 16: "+
			"the debt holds the pages of a verify that succeeded", got)
	}
}

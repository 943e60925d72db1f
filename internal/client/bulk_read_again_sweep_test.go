package client_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A lookup that reads changed websites again (readAgain) unlocks
// the reader while it reads, then answers from whatever sweep the reader
// holds when it comes back (matchingLocked), without checking that it is
// still the fresh, verified sweep it started from. Meanwhile other lookups
// (the creates' checks of the same apply, searching because this process
// created a website of their domain) reach the `costly` bound
// and drop the sweep, and reads start a new one: no lookup waits for it,
// so its pages are read once (unverified). Another client's renames while
// those pages were read make that sweep hold domain d nowhere, although d
// was held at every moment; the lookup that read again answers "no
// holder" (a create of d would then duplicate it).
//
// Ordered by hooks (PageConcurrency 1, Linger off, standing clock):
// deterministic. The other lookups and reads run inside the hook of the
// readAgain's GET, i.e. while the first lookup waits for it.
func TestReadAgainAnswersOnlyFromTheSweepItStarted(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages newest first: ids[249..150], ids[149..50], ids[49..0]
	const (
		d  = "held.example.org"
		q  = "q.example.org"
		dx = "own-create.example.org"
	)
	W, W2 := ids[120], ids[20] // page 2, page 3
	env.rename(W, q)
	env.rename(W2, d) // d held by W2 from the start
	A := ids[200]     // changed by this process, outcome unknown (Forget)

	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	b.Forget(A)

	never := true // d never without holder
	var once sync.Once
	env.hookShow(func(id int64) {
		if id != A {
			return
		}
		once.Do(func() {
			// Another goroutine of the same apply: a create of dx, then
			// the checks of dx search until they drop the sweep.
			if err := env.create(t, b, dx); err != nil {
				t.Error(err)
				return
			}
			for range 6 {
				if _, err := b.FindHolders(ctx(t), dx, func(s string) bool { return s == dx }); err != nil {
					t.Error(err)
					return
				}
			}
			// Renames by another client while the next sweep reads its
			// pages: d handed from W2 (page 3) to W (page 2) after page 2
			// was read, before page 3.
			env.hook(func(page int, after bool) {
				if after {
					return
				}
				if env.holders(d) == 0 {
					never = false
				}
				if page == 3 {
					env.rename(W, d)
					env.rename(W2, q)
				}
			})
			// Refresh reads: a website that is gone, then more: they start
			// a sweep (no lookup waits for it: read once).
			for i := range 4 {
				if _, err := b.Read(ctx(t), int64(900000+i)); err != nil && !errors.Is(err, client.ErrNotFound) {
					t.Error(err)
				}
			}
			env.listHook.Store(nil)
		})
	})

	ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
	t.Logf("FindHolders(%q) = %v, %v; holders now %d; %+v", d, ws, err, env.holders(d), b.Stats())
	if err != nil {
		t.Fatal(err)
	}
	if !never || env.holders(d) != 1 {
		t.Fatalf("premise: d must be held at every moment")
	}
	if b.Stats().Sweeps < 2 {
		t.Fatalf("premise: the hook's reads did not sweep again; %+v", b.Stats())
	}
	if len(ws) == 0 {
		t.Errorf("FindHolders(%q) answered no holder although %q was held at every moment (by %d, then %d): "+
			"after readAgain the lookup was answered by a sweep whose pages were read once", d, d, W2, W)
	}
}

// The same unchecked sweep after readAgain, with no other goroutine: the
// lookup's own reads again start the new sweep. Four websites changed
// with unknown outcome (Forget); four lookups search (blind), the fifth
// reads the four again. While it does, the verified sweep it checked goes
// stale (the clock passes MaxAge during the first GET: a long
// Retry-After, say), so its own Reads count toward a new sweep and make
// one, read once: page 1, then the last page (where the changed websites
// are), then page 2 (for the last one). Another client hands d from W (page 2) to W2 (page
// 3) after page 3 was read, before page 2: that sweep holds d nowhere,
// although d was held at every moment, and the lookup answers from it.
//
// Ordered by hooks (PageConcurrency 1, Linger off, a clock moved by the
// test): deterministic.
func TestReadAgainOwnReadsLeaveNoUnverifiedAnswer(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // pages newest first: ids[249..150], ids[149..50], ids[49..0]
	const (
		d = "held.example.org"
		q = "q.example.org"
	)
	W, W2 := ids[120], ids[20] // page 2, page 3
	env.rename(W, d)           // d held by W from the start
	env.rename(W2, q)
	unknown := []int64{ids[10], ids[11], ids[12], ids[100]} // the last on page 2

	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	for _, id := range unknown {
		b.Forget(id)
	}
	for i := range 4 { // blind searches
		o := fmt.Sprintf("other-%d.example.net", i)
		if _, err := b.FindHolders(ctx(t), o, func(s string) bool { return s == o }); err != nil {
			t.Fatal(err)
		}
	}
	sweeps := b.Stats().Sweeps

	never := true
	var once, handed sync.Once
	env.hookShow(func(id int64) {
		if id == unknown[0] {
			once.Do(func() { clock.Advance(client.DefaultBulkMaxAge + time.Minute) })
		}
	})
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		if env.holders(d) == 0 {
			never = false
		}
		if page == 2 {
			handed.Do(func() { env.rename(W2, d); env.rename(W, q) })
		}
	})

	ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
	t.Logf("FindHolders(%q) = %v, %v; holders now %d; %+v", d, ws, err, env.holders(d), b.Stats())
	if err != nil {
		t.Fatal(err)
	}
	if !never || env.holders(d) != 1 {
		t.Fatalf("premise: d must be held at every moment")
	}
	if b.Stats().Sweeps <= sweeps {
		t.Fatalf("premise: the lookup's reads did not sweep again; %+v", b.Stats())
	}
	if len(ws) == 0 {
		t.Errorf("FindHolders(%q) answered no holder although %q was held at every moment (by %d, then %d): "+
			"after readAgain the lookup was answered by the sweep its own reads made, read once", d, d, W, W2)
	}
}

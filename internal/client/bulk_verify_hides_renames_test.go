package client_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A second read of a sweep that took updated_at moves on websites this
// process wrote since as unchanged (a233f86) let another client's
// renames hide behind this process's own updates.
//
// Two websites, P (page 2) and Q (page 3), which this process updates
// (Write, keeping their domains) between the sweep and its verification.
// Another client renames them back and forth so that the domain b is held
// at every moment, by P or by Q (or both), but every read of P (both page
// reads, and the answer of this process's update) shows P with p, and
// every read of Q shows q: P holds b exactly while Q's page is read, and Q
// while P's page is read. Without the tolerance the verification sees
// P's and Q's updated_at moved by the renames, drops the sweep and the
// lookup searches; with it, the sweep is "verified", and FindHolders(b)
// answers no holder: no moment had none (b was held from before the
// reader's first request to after the lookup).
//
// Every step is ordered by the test's hooks (PageConcurrency 1, Linger
// off, a standing clock): deterministic.
//
// The subtest without_own_updates is the control: the same renames, no
// Write; it passes (the verification sees the change, the lookup searches).
func TestVerifySeesRenamesBesideOwnUpdates(t *testing.T) {
	t.Parallel()
	for _, own := range []bool{true, false} {
		name := map[bool]string{true: "with_own_updates", false: "without_own_updates"}[own]
		t.Run(name, func(t *testing.T) { t.Parallel(); verifyHidesRenames(t, own) })
	}
}

func verifyHidesRenames(t *testing.T, own bool) {
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages newest first: ids[249..150], ids[149..50], ids[49..0]
	const (
		b0 = "b.example.org"
		p0 = "p.example.org"
		q0 = "q.example.org"
	)
	P, Q := ids[120], ids[20] // page 2, page 3
	// Handing b from one to the other: the new holder first.
	giveToQ := func() { env.rename(Q, b0); env.rename(P, p0) }
	giveToP := func() { env.rename(P, b0); env.rename(Q, q0) }
	env.rename(P, p0)
	env.rename(Q, b0) // b is held (by Q) before the reader begins

	var (
		mu    sync.Mutex
		reads = map[int]int{}
		never = true
	)
	check := func() {
		if env.holders(b0) == 0 {
			never = false
		}
	}
	// The sweep: P's page read while Q holds b, Q's page while P does.
	env.hook(func(page int, after bool) {
		mu.Lock()
		defer mu.Unlock()
		check()
		if after {
			return
		}
		reads[page]++
		if page == 3 && reads[3] == 1 {
			giveToP()
		}
	})
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: newFakeClock().Now})
	for _, id := range []int64{ids[249], ids[248], ids[149]} { // a GET, page 1, then the other pages
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.Sweeps != 1 {
		t.Fatalf("the reads made %d sweeps; %+v", s.Sweeps, s)
	}
	env.listHook.Store(nil)

	// This process's updates (Write), each while its website holds its own
	// domain: they keep the domain, as the API's update does.
	update := func(id int64) {
		if !own {
			return
		}
		if err := b.Write(ctx(t), id, func() (*client.Website, error) {
			env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Privacy = ptr(1); w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
			return env.c.GetWebsite(ctx(t), id) // the update's answer
		}); err != nil {
			t.Fatal(err)
		}
	}
	giveToQ()
	update(P)
	giveToP()
	update(Q)

	// Lookups of other domains (the creates' checks): the first ones
	// search, then they outnumber the sweep's pages and it is verified
	// (fetchVerify): P's page read while Q holds b, Q's while P does.
	verifyReads := map[int]int{}
	env.hook(func(page int, after bool) {
		mu.Lock()
		defer mu.Unlock()
		check()
		if after {
			return
		}
		verifyReads[page]++
		switch {
		case page == 2 && verifyReads[2] == 1:
			giveToQ()
		case page == 3 && verifyReads[3] == 1:
			giveToP()
		}
	})
	for i := range 5 {
		d := fmt.Sprintf("other-%d.example.net", i)
		if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
			t.Fatal(err)
		}
	}
	env.listHook.Store(nil)

	ws, err := b.FindHolders(ctx(t), b0, func(s string) bool { return s == b0 })
	mu.Lock()
	check()
	held := never
	mu.Unlock()
	t.Logf("FindHolders(%q) = %v, %v; holders now %d; %+v", b0, ws, err, env.holders(b0), b.Stats())
	if err != nil {
		t.Fatal(err)
	}
	if !held {
		t.Fatalf("the test's renames left b without a holder at some point: its premise does not hold")
	}
	if len(ws) == 0 {
		t.Errorf("FindHolders(%q) answered no holder, although %q was held at every moment (by website %d or %d); "+
			"the verification tolerated the other client's renames of both as this process's own updates", b0, b0, P, Q)
	}
}

package client

import (
	"context"
	"time"
)

// maxFetchWaits bounds how many list fetches one Read waits for before it
// reads the website individually.
const maxFetchWaits = 3

// Read returns the website id like Client.GetWebsite, from a list sweep when
// many websites are being read. Errors are those of GetWebsite; in
// particular a website that does not exist (or belongs to another user) is
// an ErrNotFound *APIError, always confirmed by an individual GET.
func (b *BulkReader) Read(ctx context.Context, id int64) (*Website, error) {
	if b.ttl < 0 {
		b.mu.Lock()
		b.stats.Reads++
		b.stats.Gets++
		b.mu.Unlock()
		return b.c.GetWebsite(ctx, id)
	}

	b.mu.Lock()
	now := b.now()
	b.stats.Reads++
	b.touchLocked(now)
	if e, ok := b.entries[id]; ok && e.searched && b.freshLocked(e.at, now) {
		// An import's read of what its lookup's search found: the lookup
		// counted toward a sweep, and this read would cost nothing
		// without one either.
		b.stats.Hits++
		b.mu.Unlock()
		return e.w.clone(), nil
	}
	b.countLocked(now)
	var hit *Website
	found, err := b.waitLocked(ctx, now, now, id, b.probe, true, func(now time.Time) bool {
		if e, ok := b.entries[id]; ok && b.freshLocked(e.at, now) {
			hit = e.w.clone()
		}
		return hit != nil
	})
	if err != nil || found {
		if found {
			b.stats.Hits++
		}
		b.mu.Unlock()
		return hit, err
	}
	g := b.gets[id]
	var w *waiter
	if g != nil {
		var joined bool
		if w, joined = g.ctx.join(ctx); !joined {
			g = nil // every read waiting for it gave up: it is ending
		}
	}
	if g == nil {
		g = &bulkGet{done: make(chan struct{})}
		b.gets[id] = g
		b.stats.Gets++
		seq := b.seq
		g.ctx, w = goShared(ctx, func(ctx context.Context) {
			defer close(g.done)
			g.w, g.err = b.getStore(ctx, id, seq, g)
		})
	}
	b.mu.Unlock()
	if err := w.await(ctx, g.done); err != nil {
		return nil, err
	}
	if g.err != nil {
		return nil, g.err
	}
	return g.w.clone(), nil
}

// getStore reads the website id with one GET, the shared GET g, and
// keeps what it read (requested when b.seq was seq).
func (b *BulkReader) getStore(ctx context.Context, id int64, seq uint64, g *bulkGet) (*Website, error) {
	w, err := b.c.GetWebsite(ctx, id)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.gets[id] == g {
		delete(b.gets, id)
	}
	if err != nil {
		return nil, err
	}
	b.storeLocked([]Website{*w}, seq, b.now())
	return w.clone(), nil
}

// waitLocked waits, for a read or lookup that nothing cached answers yet,
// for the fetches of list pages that it may cause (see awaitFetchLocked)
// and, with linger, for more reads (see lingerLocked), until done reports
// that what is cached settles it or there is nothing left to wait for. It
// reports whether done did. It unlocks b.mu while waiting.
func (b *BulkReader) waitLocked(ctx context.Context, now, started time.Time, id int64, probe int, linger bool, done func(now time.Time) bool) (bool, error) {
	quiet := false // a linger's timer fired: no read arrived for its time
	for waits := 0; ; waits++ {
		if done(now) {
			return true, nil
		}
		waited, err := b.awaitFetchLocked(ctx, now, id, waits, probe)
		if linger && !quiet && err == nil && !waited && waits < maxFetchWaits {
			if waited, quiet, err = b.lingerLocked(ctx, now, started, probe); waited {
				waits-- // not a fetch
			}
		}
		if err != nil || !waited {
			return false, err
		}
		now = b.now()
	}
}

// countLocked counts a read (or a lookup) toward the next sweep, in the
// current burst of reads.
func (b *BulkReader) countLocked(now time.Time) {
	b.touchLocked(now)
	if !b.sweptFreshLocked(now) {
		b.reads++
		b.arrived = now
		close(b.arrival)
		b.arrival = make(chan struct{})
	}
}

// touchLocked records a read (or lookup) at now in the current burst of
// reads, or begins a new burst.
func (b *BulkReader) touchLocked(now time.Time) {
	if now.Sub(b.lastRead) > b.ttl {
		b.reads = 0 // a new burst of reads
		// What earlier bursts requested, and their failures, they paid
		// for (failedLocked).
		b.attempt, b.failures = 0, 0
		b.burst = now
	}
	b.lastRead = now
}

// lingerLocked waits, for a read that awaitFetchLocked left to be read
// individually, while more reads would pay for the rest of the sweep (the
// first page is known and planLocked only lacks reads), until no read has
// arrived for the linger time (or the read has waited maxBulkLinger since
// started). It reports whether it waited (the caller looks again) and
// whether that wait ended with its timer (the caller lingers no more: the
// timer, not Clock, says the time has passed). It unlocks b.mu while
// waiting.
func (b *BulkReader) lingerLocked(ctx context.Context, now, started time.Time, probe int) (waited, quiet bool, err error) {
	if b.linger < 0 || b.planLocked(now, 0, probe) != fetchWait {
		return false, false, nil
	}
	wait := b.linger - now.Sub(b.arrived)
	left := maxBulkLinger - now.Sub(started)
	if wait <= 0 || left <= 0 {
		return false, false, nil
	}
	if quiet, err = b.lingerWaitLocked(ctx, min(wait, left)); err != nil {
		return false, false, err
	}
	return true, quiet, nil
}

// lingerWaitLocked waits, b.mu unlocked, until a read arrives, d has
// passed on b.after's timer, or ctx ends. It reports whether d passed with
// no read arrived: the timer, not Clock, says so, and a timer that fires
// beside an arrival counts as the arrival.
func (b *BulkReader) lingerWaitLocked(ctx context.Context, d time.Duration) (quiet bool, err error) {
	arrival := b.arrival
	b.mu.Unlock()
	defer b.mu.Lock()
	select {
	case <-arrival:
		return false, nil
	case <-b.after(d):
		select {
		case <-arrival:
			return false, nil
		default:
			return true, nil
		}
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

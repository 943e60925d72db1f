package client

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// shared is the context of a request that several callers wait for (a
// fetch of list pages, a GET). It has the values of the caller that
// started it, and it ends when the last of them gives up. So no caller's
// cancellation or deadline stops it for the others, and an interrupt that
// stops them all stops it.
//
// It reports no deadline of its own (Deadline), so that each attempt of
// its requests keeps its own time limit (Options.Timeout: a child's
// deadline is not set when its parent's is earlier, and this one moves).
// Each wait of the request (a retry's, the rate limit window's) is judged
// for each waiter instead (refuse): one that cannot wait so long, by its
// own deadline or, without one, UntimedWaitLimit, is told so at once with
// its own error, as it would be alone, and the request waits on for the
// others.
type shared struct {
	context.Context // the starter's values; its Done, Err and Deadline are shared's

	mu      sync.Mutex
	waiters map[*waiter]struct{}
	pending *pendingWait // the request's wait that ends last (its pages may wait at once)
	done    chan struct{}
	err     error
}

// waiter is one caller waiting for a shared request.
type waiter struct {
	s       *shared
	dl      time.Time // its deadline, if bounded
	bounded bool
	verdict chan error // its own error, when the request must wait longer than it can
}

// goShared runs op in the background with a shared context that has
// ctx's values and ctx's caller as its first waiter, and returns it with
// that waiter (see join). The other callers that wait for op join it.
func goShared(ctx context.Context, op func(ctx context.Context)) (*shared, *waiter) {
	s := &shared{Context: context.WithoutCancel(ctx), waiters: map[*waiter]struct{}{}, done: make(chan struct{})}
	w, _ := s.join(ctx)
	go op(s)
	return s, w
}

// join adds a caller with ctx that waits for the request. It reports
// false, adding nothing, when every earlier waiter has given up already:
// the request is ending, and serves no one. A caller that joins while the
// request waits longer than it can is told so at once (await).
func (s *shared) join(ctx context.Context) (*waiter, bool) {
	dl, bounded := ctx.Deadline()
	w := &waiter{s: s, dl: dl, bounded: bounded, verdict: make(chan error, 1)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, false
	}
	if p := s.pending; p != nil {
		now := time.Now()
		if limit, untimed := w.limit(now); !p.fits(limit, untimed) {
			w.verdict <- p.told(now, limit, untimed)
			return w, true
		}
	}
	s.waiters[w] = struct{}{}
	return w, true
}

// limit is the time by which a wait that starts at now must end for w:
// its deadline, or untimedLimit(now) without one (untimed).
func (w *waiter) limit(now time.Time) (time.Time, bool) {
	if w.bounded {
		return w.dl, false
	}
	return untimedLimit(now), true
}

// await waits until done is closed (nil), ctx ends (ctx's error: w gives
// up waiting) or the request must wait longer than w can (w's own
// error). A nil w (a request that was ending when the caller came) only
// waits for done or ctx.
func (w *waiter) await(ctx context.Context, done <-chan struct{}) error {
	var verdict chan error
	if w != nil {
		verdict = w.verdict
	}
	select {
	case <-done:
		select {
		case err := <-verdict:
			return err // told before the request ended
		default:
			return nil
		}
	case err := <-verdict:
		return err
	case <-ctx.Done():
		if w != nil {
			w.s.leave(w, ctx.Err())
		}
		return ctx.Err()
	}
}

// leave removes w; when it was the last waiter, the request ends with err.
func (s *shared) leave(w *waiter, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.waiters[w]; !ok {
		return // told already
	}
	delete(s.waiters, w)
	s.endLocked(err)
}

func (s *shared) endLocked(err error) {
	if len(s.waiters) > 0 || s.err != nil {
		return
	}
	s.err = err
	if s.err == nil {
		s.err = context.Canceled
	}
	close(s.done)
}

// pendingWait is a wait that a request must make before its next attempt,
// with what it tells a caller that cannot wait so long.
type pendingWait struct {
	until time.Time
	asked time.Time     // until without the client's jitter (zero: until)
	de    DeadlineError // Attempts, Reason, Last, Status, Limiter, Throttled
	label string        // the request, as "GET /websites/7"; empty when unknown
}

// fits reports whether the wait ends in time for a caller that must be
// done by limit: before its deadline, jitter included; or, for an
// operation without one (untimed, limit untimedLimit), when what the
// server asked for is at most UntimedWaitLimit.
func (p *pendingWait) fits(limit time.Time, untimed bool) bool {
	if !untimed {
		return p.until.Before(limit)
	}
	end := p.asked
	if end.IsZero() {
		end = p.until
	}
	return !end.After(limit)
}

// deadlineError is the error of a caller that must be done by limit
// (untimed: UntimedWaitLimit's) at now.
func (p *pendingWait) deadlineError(now, limit time.Time, untimed bool) *DeadlineError {
	de := p.de
	de.Wait, de.Left, de.Untimed = p.until.Sub(now), limit.Sub(now), untimed
	return &de
}

// told is deadlineError as a waiter of a shared request gets it: naming
// the request, as the client's own errors do.
func (p *pendingWait) told(now, limit time.Time, untimed bool) error {
	de := p.deadlineError(now, limit, untimed)
	if p.label == "" {
		return de
	}
	return fmt.Errorf("%s: %w", p.label, de)
}

// refuseWait decides whether a request under ctx may wait until p.until,
// starting at now: nil when it may, else the *DeadlineError the request
// fails with. For a shared request, each waiter that cannot wait so long
// is told at once (told) and leaves it; the request fails only when none
// is left.
func refuseWait(ctx context.Context, now time.Time, p pendingWait) *DeadlineError {
	if tr := traceFrom(ctx); tr != nil {
		p.label = tr.label
	}
	if _, bounded := ctx.Deadline(); !bounded {
		if s, ok := ctx.Value(sharedKey{}).(*shared); ok {
			return s.refuse(now, &p)
		}
	}
	limit, untimed := waitDeadline(ctx, now)
	if p.fits(limit, untimed) {
		return nil
	}
	return p.deadlineError(now, limit, untimed)
}

func (s *shared) refuse(now time.Time, p *pendingWait) *DeadlineError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil || p.until.After(s.pending.until) {
		s.pending = p // a joiner waits for the wait that ends last
	}
	last := p.deadlineError(now, now, false) // when every waiter gave up before
	for w := range s.waiters {
		limit, untimed := w.limit(now)
		if p.fits(limit, untimed) {
			continue
		}
		w.verdict <- p.told(now, limit, untimed)
		delete(s.waiters, w)
		last = p.deadlineError(now, limit, untimed)
	}
	if len(s.waiters) > 0 {
		return nil
	}
	s.endLocked(context.DeadlineExceeded)
	return last
}

// Deadline reports none: see shared.
func (s *shared) Deadline() (time.Time, bool) { return time.Time{}, false }

// sharedKey is the key under which a shared context returns itself.
type sharedKey struct{}

// Value returns s for sharedKey, else the starter's values.
func (s *shared) Value(key any) any {
	if key == (sharedKey{}) {
		return s
	}
	return s.Context.Value(key)
}

// Done is closed when the last waiter gave up.
func (s *shared) Done() <-chan struct{} { return s.done }

// Err is the error of the last waiter that gave up (context.Canceled or
// context.DeadlineExceeded), nil while one waits.
func (s *shared) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

package client

import (
	"context"
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
// The retry policy and the pacer bound each wait instead by waitDeadline,
// which asks it (waitLimit): the latest of the waiters' deadlines, and for
// a waiter without one, UntimedWaitLimit from the wait's start.
type shared struct {
	context.Context // the starter's values; its Done, Err and Deadline are shared's

	mu        sync.Mutex
	deadlines map[time.Time]int // the waiters' deadlines, counted
	unbounded int               // waiters without a deadline
	waiters   int
	done      chan struct{}
	err       error
}

// goShared runs op in the background with a shared context that has
// ctx's values and ctx's caller as its first waiter, and returns it with
// what that caller calls when it gives up waiting (see join). The other
// callers that wait for op join it.
func goShared(ctx context.Context, op func(ctx context.Context)) (*shared, func()) {
	s := &shared{Context: context.WithoutCancel(ctx), deadlines: map[time.Time]int{}, done: make(chan struct{})}
	leave, _ := s.join(ctx)
	go op(s)
	return s, leave
}

// join adds a caller with ctx that waits for the request, and returns
// what it calls when it gives up waiting (ctx ended) before the request
// did. It reports false, adding nothing, when every earlier waiter has
// given up already: the request is ending, and serves no one.
func (s *shared) join(ctx context.Context) (leave func(), ok bool) {
	dl, bounded := ctx.Deadline()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, false
	}
	s.count(dl, bounded, 1)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.count(dl, bounded, -1)
		if s.waiters == 0 && s.err == nil {
			s.err = ctx.Err()
			if s.err == nil {
				s.err = context.Canceled
			}
			close(s.done)
		}
	}, true
}

func (s *shared) count(dl time.Time, bounded bool, n int) {
	s.waiters += n
	if !bounded {
		s.unbounded += n
		return
	}
	s.deadlines[dl] += n
	if s.deadlines[dl] == 0 {
		delete(s.deadlines, dl)
	}
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

// waitLimit is the time by which a wait that starts at now must end, for
// the waiters there are (see waitDeadline): the latest of their
// deadlines, or later, untimedLimit(now), when one has none; untimed
// reports the latter. Once every waiter gave up, now: no wait.
func (s *shared) waitLimit(now time.Time) (dl time.Time, untimed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiters == 0 {
		return now, false
	}
	for d := range s.deadlines {
		if d.After(dl) {
			dl = d
		}
	}
	if u := untimedLimit(now); s.unbounded > 0 && u.After(dl) {
		return u, true
	}
	return dl, false
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

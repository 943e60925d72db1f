package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// pacerMargin is added to a predicted window end, so that the first request
// of the next window does not arrive a moment too early.
const pacerMargin = 100 * time.Millisecond

// pacer spaces the attempts of every request of one client, so that the
// server's throttle (a fixed window of X-RateLimit-Limit requests per client
// IP) is not exceeded, and applies an optional client-side cap.
//
// The server tells the limit and what is left of the window on every
// answer, but not when the window ends (a 429 does: Retry-After). Answers
// to concurrent requests arrive in any order, so the pacer keeps the lowest
// X-RateLimit-Remaining of the current window (the server's count after the
// latest request it processed among those answered) and subtracts every
// request still in flight, which the server may already have counted: the
// estimate errs low. An answer that reports more than that lowest value for
// a request sent after the lowest value arrived shows that a new window has
// begun. While requests are left, requests go at once. When none are left
// and none are in flight:
//   - if the window's end is known (a 429's Retry-After, or predicted from a
//     window length learned earlier), every request waits for it;
//   - otherwise one request at a time goes as a probe: either the window has
//     ended (the answer shows a fresh budget) or the server answers 429 and
//     says when it ends. The window's length is measured from that answer
//     and the time the window's first request was sent, and learned once
//     two windows measure alike (measureWindow), so later windows are
//     waited out without a refused request.
//
// After any 429 every request waits until the server's Retry-After, then a
// single probe confirms the new window before the others follow.
type pacer struct {
	limiter *rate.Limiter
	rpm     int
	log     Logger
	now     func() time.Time

	mu             sync.Mutex
	changed        chan struct{} // closed and replaced when the state changes
	limit          int           // X-RateLimit-Limit; 0 while unknown
	lowest         int           // lowest X-RateLimit-Remaining of the window
	lowestAnswered bool          // lowest came from an answer, not set by a 429
	sentAtLowest   uint64        // requests sent when lowest was recorded
	sent           uint64        // requests sent
	inflight       int           // requests sent and not answered
	windowSeq      uint64        // the first request of the current window
	windowStart    time.Time     // when that request was sent
	windowLen      time.Duration // learned window length; 0 while unknown
	measured       time.Duration // the latest window measured (measureWindow)
	windowEnd      time.Time     // known or predicted end of the window
	blockedUntil   time.Time     // a 429's Retry-After: nobody sends before
	probe          uint64        // the probe in flight, 0 if none
}

// ticket is one attempt admitted by the pacer.
type ticket struct {
	seq   uint64
	sent  time.Time
	probe bool
}

func newPacer(rpm int, log Logger) *pacer {
	if log == nil {
		log = nopLogger{}
	}
	p := &pacer{rpm: rpm, log: log, now: time.Now, changed: make(chan struct{})}
	if rpm > 0 {
		// A burst of one: never more than rpm requests in any minute.
		p.limiter = rate.NewLimiter(rate.Limit(float64(rpm)/60), 1)
	}
	return p
}

// acquire waits until an attempt may be sent. It fails at once with a
// *DeadlineError when the wait would end past ctx's deadline.
func (p *pacer) acquire(ctx context.Context, method, path string) (ticket, error) {
	if err := p.waitLimiter(ctx); err != nil {
		return ticket{}, err
	}
	logged := false
	for {
		p.mu.Lock()
		now := p.now()
		until, ok, probe := p.gateLocked(now)
		if ok {
			p.sent++
			p.inflight++
			t := ticket{seq: p.sent, sent: now, probe: probe}
			if probe {
				p.probe = t.seq
			}
			p.mu.Unlock()
			return t, nil
		}
		changed := p.changed
		p.mu.Unlock()

		var timer *time.Timer
		var fire <-chan time.Time
		if !until.IsZero() {
			wait := until.Sub(now)
			if de := refuseWait(ctx, now, pendingWait{until: until, de: DeadlineError{Attempts: attemptsFrom(ctx),
				Throttled: true, Reason: "the server's rate limit allows no request before its window ends"}}); de != nil {
				return ticket{}, de
			}
			timer = time.NewTimer(wait)
			fire = timer.C
			if !logged {
				p.log.Debug(ctx, "waiting for the server's rate limit window to end",
					map[string]any{"method": method, "path": path, "wait": wait.String()})
				logged = true
			}
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return ticket{}, ctx.Err()
		case <-changed:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// gateLocked says whether a request may go now, or until when (zero: until
// the state changes) it must wait.
func (p *pacer) gateLocked(now time.Time) (until time.Time, ok, probe bool) {
	switch {
	case now.Before(p.blockedUntil):
		return p.blockedUntil, false, false
	case p.limit <= 0 || p.lowest-p.inflight > 0:
		return time.Time{}, true, false
	case p.inflight > 0:
		return time.Time{}, false, false // their answers will tell more
	case now.Before(p.windowEnd):
		return p.windowEnd, false, false
	case p.probe == 0:
		return time.Time{}, true, true
	}
	return time.Time{}, false, false
}

func (p *pacer) waitLimiter(ctx context.Context) error {
	if p.limiter == nil {
		return nil
	}
	r := p.limiter.Reserve()
	d := r.Delay()
	if d <= 0 {
		return nil
	}
	now := time.Now()
	if de := refuseWait(ctx, now, pendingWait{until: now.Add(d), de: DeadlineError{Attempts: attemptsFrom(ctx),
		Limiter: true, Reason: fmt.Sprintf("requests_per_minute = %d allows no request sooner", p.rpm)}}); de != nil {
		r.Cancel()
		return de
	}
	if err := Sleep(ctx, d); err != nil {
		r.Cancel()
		return err
	}
	return nil
}

// release records the outcome of an attempt (resp is nil when no answer
// came) and wakes the waiting requests.
func (p *pacer) release(t ticket, resp *http.Response) {
	p.mu.Lock()
	defer func() {
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
	}()
	p.inflight--
	if t.probe && p.probe == t.seq {
		p.probe = 0
	}
	if resp == nil {
		return
	}
	h := resp.Header
	limit, limitOK := headerInt(h, "X-RateLimit-Limit")
	remaining, remainingOK := headerInt(h, "X-RateLimit-Remaining")
	if resp.StatusCode == http.StatusTooManyRequests {
		now := p.now()
		wait := RetryAfter(h, serverNow(h))
		if wait <= 0 {
			wait = time.Second
		}
		until := now.Add(wait)
		if until.After(p.blockedUntil) {
			p.blockedUntil = until
		}
		p.windowEnd = until
		if limitOK && limit > 0 {
			p.limit = limit
			// The throttle's own 429 (it carries the limit): the window that
			// began with windowStart ends at until.
			if !p.windowStart.IsZero() {
				p.measureWindow(until.Sub(p.windowStart))
			}
			// That window is over: a later 429 must not measure from its
			// start. (A proxy's 429, without the limit, ends no window.)
			p.windowStart = time.Time{}
		}
		p.lowest, p.sentAtLowest, p.lowestAnswered = 0, p.sent, false
		return
	}
	if !limitOK || !remainingOK || limit <= 0 {
		if resp.StatusCode < 500 {
			// The application answered without throttle headers: it does
			// not throttle (any more). A proxy's 5xx tells nothing.
			p.limit = 0
		}
		return
	}
	p.limit = limit
	if p.windowLen > 0 && !p.windowStart.IsZero() && t.sent.After(p.windowStart.Add(p.windowLen+pacerMargin)) {
		// Sent after the end predicted for the window that began at
		// windowStart: whatever this answer shows, that window is over.
		p.windowStart = time.Time{}
	}
	switch {
	case t.seq > p.sentAtLowest && remaining > p.lowest:
		// Sent after the lowest value arrived, yet more is left: the
		// server started a new window (after a 429, the window after it).
		if p.lowestAnswered {
			// Its first request was another client's (the throttle counts
			// every program of the address) unless this one is (below): the
			// start of an older window would make a later 429 teach a
			// window too long, and every window after it would be waited
			// out that long.
			if p.windowLen > 0 && !p.windowStart.IsZero() && t.sent.Before(p.windowStart.Add(p.windowLen)) {
				// A new window before the end predicted: the length learned
				// is longer than the throttle's now. Learn it again.
				p.windowLen, p.measured = 0, 0
			}
			p.windowStart = time.Time{}
		}
		p.lowest, p.sentAtLowest, p.lowestAnswered = remaining, p.sent, true
	case remaining < p.lowest:
		p.lowest, p.sentAtLowest, p.lowestAnswered = remaining, p.sent, true
	}
	if remaining == limit-1 && t.seq > p.windowSeq {
		// The first request of a window.
		p.windowSeq, p.windowStart = t.seq, t.sent
		p.windowEnd = time.Time{}
		if p.windowLen > 0 {
			p.windowEnd = t.sent.Add(p.windowLen + pacerMargin)
		}
	}
}

// measureWindow records a window's length measured from its first request
// to its 429. The start may be an older window's, when other programs of
// the address took every first request since (their requests count against
// the same throttle): such a measurement is that many windows too long. So
// a length is learned only when two measurements in a row agree (within a
// second and a half), which two windows of the same length do and stale
// starts seldom do.
func (p *pacer) measureWindow(w time.Duration) {
	if w <= 0 || w > time.Hour {
		return
	}
	// Within a second and a half: Retry-After counts whole seconds, so two
	// measurements of one length can differ by a second.
	if d := w - p.measured; p.measured > 0 && d <= 1500*time.Millisecond && d >= -1500*time.Millisecond {
		p.windowLen = min(w, p.measured) // too short costs a 429, too long a stall
	}
	p.measured = w
}

func headerInt(h http.Header, name string) (int, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

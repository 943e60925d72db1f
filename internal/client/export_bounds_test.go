package client

import "time"

// Helpers of the tests of bounded waits.

// FetchWait reports, for the fetch of list pages under way, how
// many callers wait for it and the wait its requests recorded last
// (pending; zero when none). ok is false when no fetch runs.
func FetchWait(b *BulkReader) (waiters int, until time.Time, ok bool) {
	b.mu.Lock()
	f := b.flight
	b.mu.Unlock()
	if f == nil || f.ctx == nil {
		return 0, time.Time{}, false
	}
	f.ctx.mu.Lock()
	defer f.ctx.mu.Unlock()
	if p := f.ctx.pending; p != nil {
		until = p.until
	}
	return len(f.ctx.waiters), until, true
}

// FetchCharge reports the reads the reader counts toward its next
// sweep (negative: owed by a failed fetch) and its failures.
func FetchCharge(b *BulkReader) (reads, failures int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reads, b.failures
}

// Paced reports whether the client's pacer may hold requests now (see
// gateLocked): a Retry-After that has not ended, or a limit it paces by.
func Paced(c *Client) bool {
	rt, ok := c.http.Transport.(*retryTransport)
	if !ok {
		return false
	}
	p := rt.pacer
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	return now.Before(p.blockedUntil) || p.limit > 0
}

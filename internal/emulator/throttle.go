package emulator

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// throttle is Laravel's RateLimiter as used by the ThrottleRequests
// middleware: a fixed window per key (here the client IP) that starts at the
// key's first hit; a refused request does not count as a hit.
type throttle struct {
	mu      sync.Mutex
	limit   int
	window  time.Duration
	buckets map[string]*bucket
}

type bucket struct {
	hits  int
	until time.Time // end of the window
}

// verdict is the outcome of one throttle check.
type verdict struct {
	on         bool // throttling is enabled
	allowed    bool
	limit      int
	remaining  int
	retryAfter int64 // seconds, when refused
	reset      int64 // unix time, when refused
}

func newThrottle(limit int, window time.Duration) *throttle {
	return &throttle{limit: limit, window: window, buckets: map[string]*bucket{}}
}

func (t *throttle) set(limit int, window time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.limit, t.window = limit, window
	t.buckets = map[string]*bucket{}
}

// hit records a request from key at now.
func (t *throttle) hit(key string, now time.Time) verdict {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.limit <= 0 {
		return verdict{allowed: true}
	}
	v := verdict{on: true, limit: t.limit}
	b := t.buckets[key]
	if b != nil && !now.Before(b.until) {
		b = nil // the window (Laravel's ":timer" key) expired
	}
	if b != nil && b.hits >= t.limit {
		left := b.until.Sub(now)
		secs := int64((left + time.Second - 1) / time.Second)
		v.retryAfter = secs
		v.reset = now.Unix() + secs
		return v
	}
	if b == nil {
		if len(t.buckets) >= 4096 {
			t.pruneLocked(now)
		}
		b = &bucket{until: now.Add(t.window)}
		t.buckets[key] = b
	}
	b.hits++
	v.allowed = true
	v.remaining = max(t.limit-b.hits, 0)
	return v
}

func (t *throttle) pruneLocked(now time.Time) {
	for k, b := range t.buckets {
		if !now.Before(b.until) {
			delete(t.buckets, k)
		}
	}
}

// apply sets the X-RateLimit headers (and those of a 429) on h.
func (v verdict) apply(h http.Header) {
	if !v.on {
		return
	}
	h.Set("X-RateLimit-Limit", strconv.Itoa(v.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(v.remaining))
	if !v.allowed {
		h.Set("Retry-After", strconv.FormatInt(v.retryAfter, 10))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(v.reset, 10))
	}
}

// clientIP is Laravel's $request->ip() without trusted proxies: the host of
// RemoteAddr.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// SpendThrottle sends requests (GET /api/v1/account, without a key) from
// this address to the installation at baseURL until its throttle refuses
// one, as another program at the same address would spend its window (the
// throttle counts every request, with or without a key), and returns how
// many it allowed. For tests of what waits for the throttle.
func SpendThrottle(ctx context.Context, baseURL string) (int, error) {
	for n := 0; n <= 1000; n++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+"/api/v1/account", nil)
		if err != nil {
			return n, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return n, err
		}
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			return n, nil
		}
	}
	return 0, errors.New("the throttle never refused a request")
}

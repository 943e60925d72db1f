package client

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzRetryAfter: the wait a 429 or 503 asks for (RetryAfter), from any
// Retry-After and X-RateLimit-Reset values, at any time. No panic; the
// wait is between 0 and MaxRetryAfter (so that the retry loop's jitter
// added to it cannot overflow into a negative wait); a Retry-After of N
// seconds is exactly N seconds (up to the bound), and it reads back the
// same when written again as seconds; an HTTP date, or X-RateLimit-Reset
// when Retry-After is not usable, is the time left until then (0 once
// passed, up to the bound); a later now never asks for a longer wait.
func FuzzRetryAfter(f *testing.F) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).Unix()
	for _, c := range [][2]string{
		{"30", ""}, {"0", ""}, {"-1", "1735787105"}, {"", "1735787165"}, {"Thu, 02 Jan 2025 03:05:05 GMT", ""},
		{"Thu, 02 Jan 2025 03:04:00 GMT", ""}, {"soon", "1735787110"}, {" 7 ", ""}, {"+5", ""}, {"1.5", ""},
		{"9223372037", ""}, {"18446744074", ""}, {"", "9223372036854775807"}, {"", "-9223372036854775808"},
		{"Monday, 02-Jan-06 15:04:05 MST", ""}, {"", " 1735787200 "},
	} {
		f.Add(c[0], c[1], now, int64(5))
	}
	f.Fuzz(func(t *testing.T, retryAfter, reset string, nowUnix, later int64) {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		if reset != "" {
			h.Set("X-RateLimit-Reset", reset)
		}
		at := time.Unix(nowUnix, 0)
		d := RetryAfter(h, at)
		if d < 0 || d > MaxRetryAfter {
			t.Fatalf("Retry-After %q, X-RateLimit-Reset %q: the wait %v is outside [0, %v]", retryAfter, reset, d, MaxRetryAfter)
		}
		if d+min(d/10, time.Hour) < 0 {
			t.Fatalf("Retry-After %q, X-RateLimit-Reset %q: the wait %v overflows with its jitter", retryAfter, reset, d)
		}
		ra := strings.TrimSpace(h.Get("Retry-After"))
		secs, secsErr := strconv.ParseInt(ra, 10, 64)
		date, dateErr := http.ParseTime(ra)
		switch {
		case ra != "" && secsErr == nil && secs >= 0:
			want := MaxRetryAfter
			if secs <= int64(MaxRetryAfter/time.Second) {
				want = time.Duration(secs) * time.Second
			}
			if d != want {
				t.Errorf("Retry-After %q: the wait is %v, want %v", retryAfter, d, want)
			}
			back := RetryAfter(http.Header{"Retry-After": {strconv.FormatInt(int64(d/time.Second), 10)}}, at)
			if back != d {
				t.Errorf("Retry-After %q: the wait %v, written again in seconds, reads as %v", retryAfter, d, back)
			}
		case ra != "" && secsErr != nil && dateErr == nil:
			if want := clampWait(date.Sub(at)); d != want {
				t.Errorf("Retry-After %q at %v: the wait is %v, want %v", retryAfter, at, d, want)
			}
		}
		if later > 0 && later < 1e9 {
			if d2 := RetryAfter(h, at.Add(time.Duration(later)*time.Second)); d2 > d {
				t.Errorf("Retry-After %q, X-RateLimit-Reset %q: %ds later the wait grows from %v to %v", retryAfter, reset, later, d, d2)
			}
		}
	})
}

// clampWait is d within [0, MaxRetryAfter].
func clampWait(d time.Duration) time.Duration {
	return min(max(d, 0), MaxRetryAfter)
}

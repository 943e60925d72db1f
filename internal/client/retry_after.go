package client

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxRetryAfter is the longest wait RetryAfter returns, about 146 years in
// whole seconds: longer than any operation's time limit (which then ends the wait), and
// far enough from the largest time.Duration that the retry loop's jitter
// added to it cannot overflow into a negative wait.
const MaxRetryAfter = time.Duration(math.MaxInt64/2/int64(time.Second)) * time.Second

// RetryAfter returns the wait a 429 (or 503) answer asks for: Retry-After in
// seconds or as an HTTP date, else X-RateLimit-Reset (unix time) minus now.
// It returns zero when neither header is usable, and at most MaxRetryAfter.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs >= 0 {
			if secs > int64(MaxRetryAfter/time.Second) {
				return MaxRetryAfter // seconds beyond what a Duration holds
			}
			return time.Duration(secs) * time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			return min(max(t.Sub(now), 0), MaxRetryAfter)
		}
	}
	if v := strings.TrimSpace(h.Get("X-RateLimit-Reset")); v != "" {
		if unix, err := strconv.ParseInt(v, 10, 64); err == nil {
			if d := time.Unix(unix, 0).Sub(now); d > 0 {
				return min(d, MaxRetryAfter)
			}
		}
	}
	return 0
}

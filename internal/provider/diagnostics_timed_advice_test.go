package provider

// Review rev44ak of ec7a9bc: the advice of a timed operation refused for
// the server's rate limit.

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestTimedThrottleRefusalAdvice: a refresh (timeouts.read = 5m) that the
// throttle asks to wait an hour (429, Retry-After: 3600; the second call
// is held by the window the first one's 429 opened, Throttled) fails at
// once. ec7a9bc's commit says a request held by the rate limit window
// "says it is throttled, so its advice names the throttle and
// -parallelism"; that holds for an operation without a time limit only.
// With a time limit the advice is the generic timeout's: "Check that the
// server is reachable and responsive" (it answered, at once) "or raise
// ... the provider's timeout" (the limit of one request, which plays no
// part), and nothing names the throttle or -parallelism, which the same
// throttle's 429 gets when the retries run out (Rate Limit Exceeded).
// The quoted error also ends "Too Many Attempts.." (the throttle's own
// period and the advice's). Deterministic: sequential calls, immediate
// refusals.
func TestTimedThrottleRefusalAdvice(t *testing.T) {
	t.Parallel()
	for _, calls := range []int{1, 2} {
		c, err := client.New(answering(t, http.StatusTooManyRequests, "3600"), "k", client.Options{
			Retry: &client.RetryOptions{MaxRetries: 4}, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		for range calls - 1 {
			_, _ = c.GetWebsite(ctx, 7)
		}
		_, err = c.GetWebsite(ctx, 7)
		cancel()
		d := refusalDiagnostic(t, err)
		if !strings.Contains(d, "-parallelism") || strings.Contains(d, "reachable") {
			t.Errorf("call %d: a timed refusal for the throttle is advised as a generic timeout:\n%s", calls, d)
		}
		if strings.Contains(d, "..") {
			t.Errorf("call %d: the detail ends the quoted error with two periods (the real throttle's message "+
				"has its own; the untimed advice trims it, the timed one does not):\n%s", calls, d)
		}
	}
}

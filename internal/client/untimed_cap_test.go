package client_test

// Review rev44ai of 646fa8b: the untimed cap's jitter room.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestUntimedRetryAfterPastTheLimitFails: an operation without a
// deadline answered 429, Retry-After: 320 (5m20s). UntimedWaitLimit's doc
// and the guide: it "waits at most 5 minutes at once: a server that asks
// for longer fails it at once". untimedLimit adds UntimedWaitLimit/10
// (30s) of "jitter room", but the jitter serverWait adds is at most
// min(Retry-After/10, WaitMin) (1s here): any Retry-After up to 5m29s is
// waited. Deterministic: the refusal would be immediate; the test waits
// 3s for it, then cancels the call.
func TestUntimedRetryAfterPastTheLimitFails(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "320")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
	}))
	t.Cleanup(srv.Close)
	c := newRetryClient(t, srv.URL, "k", &client.RetryOptions{MaxRetries: 4, WaitMin: time.Second, WaitMax: 30 * time.Second}, nil)
	rctx, cancel := context.WithCancel(context.Background()) // no deadline
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := c.GetWebsite(rctx, 7)
		errc <- err
	}()
	select {
	case err := <-errc:
		var de *client.DeadlineError
		if !errors.As(err, &de) || !de.Untimed {
			t.Fatalf("expected the untimed *DeadlineError, got %v", err)
		}
	case <-time.After(3 * time.Second):
		cancel()
		if err := <-errc; err == nil {
			t.Error("the cancelled call succeeded")
		}
		t.Errorf("an operation without a deadline waits a Retry-After of 5m20s, more than the %s it waits at once",
			client.UntimedWaitLimit)
	}
}

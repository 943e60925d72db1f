package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// cancelOnRetry is a Logger that cancels the operation when the transport
// announces a retry: the cancel then lands in the wait before it, after the
// answer (or failure) that caused it was read.
type cancelOnRetry struct{ cancel context.CancelFunc }

func (cancelOnRetry) Debug(context.Context, string, map[string]any) {}
func (cancelOnRetry) Info(context.Context, string, map[string]any)  {}
func (l cancelOnRetry) Warn(_ context.Context, msg string, _ map[string]any) {
	if msg == "retrying request" {
		l.cancel()
	}
}

// Review rev44e: a create whose only request was refused by the throttle
// (429, which runs before anything is stored) and that is cancelled while
// it waits out the Retry-After (Ctrl-C during a throttle wait, the case the
// fix of a create that sent nothing names) stored nothing. It must not
// report CreateOutcomeUnknownError ("The website may exist on the server"),
// which sends the user to look for a website that cannot exist.
func TestCreateWebsite_rev44eCancelledDuringOwn429WaitIsNotUnknown(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(http.StatusTooManyRequests, `{"message":"Too Many Attempts."}`, "Retry-After", "30"))
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := newRetryClient(t, u, "key", fastRetry(4), cancelOnRetry{cancel})
	_, err := c.CreateWebsite(cx, client.WebsiteInput{Domain: "throttled.example.com"})
	if s.count() != 1 {
		t.Fatalf("%d requests, want the one refused by the throttle", s.count())
	}
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create whose only request got a 429 reports an unknown outcome: %v", err)
	}
	if err == nil {
		t.Errorf("no error")
	}
}

// Review rev44e: likewise a create whose attempt found no server
// (connection refused: nothing can have been stored, the transport repeats
// it) and that is cancelled during the backoff before the next attempt.
func TestCreateWebsite_rev44eCancelledWhileNoConnectionIsNotUnknown(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close() // nothing listens there now
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := newRetryClient(t, u, "key", fastRetry(4), cancelOnRetry{cancel})
	_, err := c.CreateWebsite(cx, client.WebsiteInput{Domain: "refused.example.com"})
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create that never reached the server reports an unknown outcome: %v", err)
	}
	if err == nil {
		t.Errorf("no error")
	}
}

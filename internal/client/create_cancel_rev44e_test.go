package client_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"syscall"
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

// A create whose only request was refused by the throttle
// (429, which runs before anything is stored) and that is cancelled while
// it waits out the Retry-After (Ctrl-C during a throttle wait, the case the
// fix of a create that sent nothing names) stored nothing. It must not
// report CreateOutcomeUnknownError ("The website may exist on the server"),
// which sends the user to look for a website that cannot exist.
func TestCreateWebsite_cancelledDuringOwn429WaitIsNotUnknown(t *testing.T) {
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
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the cancel", err)
	}
}

// Likewise a create whose attempt found no server
// (connection refused: nothing can have been stored, the transport repeats
// it) and that is cancelled during the backoff before the next attempt.
// The dialer refuses every connection itself, so no other process can
// answer in its place.
func TestCreateWebsite_cancelledWhileNoConnectionIsNotUnknown(t *testing.T) {
	t.Parallel()
	var dials atomic.Int32
	tr := client.NewPooledTransport()
	tr.DialContext = func(_ context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.New("http://127.0.0.1:9", "key", client.Options{Transport: tr, Retry: fastRetry(4),
		Logger: cancelOnRetry{cancel}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateWebsite(cx, client.WebsiteInput{Domain: "refused.example.com"})
	if n := dials.Load(); n != 1 {
		t.Fatalf("%d connections tried, want the one refused before the cancel", n)
	}
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create that never reached the server reports an unknown outcome: %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the cancel", err)
	}
}

// The other side of the two above: once an attempt may have reached the
// application (here the POST after the 429, cancelled while the server
// holds it), a cancel leaves the outcome unknown.
func TestCreateWebsite_cancelledWhileStoreInFlightIsUnknown(t *testing.T) {
	t.Parallel()
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	hold := func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices a closed connection
		cancel()
		<-r.Context().Done() // the client gave up on this attempt
	}
	s, u := serve(t, answer(http.StatusTooManyRequests, `{"message":"Too Many Attempts."}`, "Retry-After", "0"), hold)
	c := newRetryClient(t, u, "key", fastRetry(4), nil)
	_, err := c.CreateWebsite(cx, client.WebsiteInput{Domain: "held.example.com"})
	if s.count() != 2 {
		t.Fatalf("%d requests, want the 429 and the held store", s.count())
	}
	var unknown *client.CreateOutcomeUnknownError
	if !errors.As(err, &unknown) {
		t.Errorf("a create cancelled while its store was on the server: %v, want an unknown outcome", err)
	}
}

package provider

// The advice of an operation that the client refuses to hold for a wait
// (a retry's, the rate limit window's) longer than it can make: past its
// deadline or, without one, past client.UntimedWaitLimit.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestUntimedRequestsPerMinuteAdvice: requests_per_minute = 1 and
// eight data sources read at once (Terraform's parallelism is 10): the
// client's own cap queues them a minute apart, and those queued past 5
// minutes fail at once with the untimed *DeadlineError. The diagnostic
// says to "run Terraform again once the server answers": the server
// answered nothing (no request was even sent), and running again queues
// the same way; the cause is the provider's requests_per_minute, which it
// does not name. (Deterministic: the reservations are a minute apart
// whatever the timing; the waiting calls are cancelled.)
func TestUntimedRequestsPerMinuteAdvice(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"id":7,"domain":"example.com"}}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "k", client.Options{Retry: &client.RetryOptions{MaxRetries: 1, RequestsPerMinute: 1},
		Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(context.Background()) // data sources: no deadline
	defer cancel()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := c.GetWebsite(rctx, 7)
			errs <- err
		}()
	}
	var de *client.DeadlineError
	var got error
	for range 8 {
		if err := <-errs; errors.As(err, &de) && de.Untimed {
			got = err
			break
		}
	}
	cancel()
	if got == nil {
		t.Fatal("premise: a call queued past 5 minutes fails with the untimed *DeadlineError")
	}
	var diags diag.Diagnostics
	addAPIError(&diags, "read", "example.com", got)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	detail := diags[0].Detail()
	t.Logf("%s: %s", diags[0].Summary(), detail)
	if strings.Contains(detail, "once the server answers") {
		t.Errorf("a wait the provider's own requests_per_minute imposes (no request was sent) is advised to run "+
			"again once the server answers:\n%s", detail)
	}
}

// answering serves every request with status and Retry-After: retryAfter
// ("": a website, 200).
func answering(t *testing.T, status int, retryAfter string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if retryAfter == "" {
			_, _ = w.Write([]byte(`{"data":{"id":7,"domain":"example.com"}}`))
			return
		}
		message := http.StatusText(status)
		if status == http.StatusTooManyRequests {
			message = "Too Many Attempts." // the real throttle's, with its period
		}
		w.Header().Set("Retry-After", retryAfter)
		w.WriteHeader(status)
		_, _ = w.Write([]byte("{\n    \"message\": \"" + message + "\"\n}"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// refusalDiagnostic is the diagnostic of err, a *DeadlineError's.
func refusalDiagnostic(t *testing.T, err error) string {
	t.Helper()
	var de *client.DeadlineError
	if !errors.As(err, &de) {
		t.Fatalf("premise: a *DeadlineError, got %v", err)
	}
	var diags diag.Diagnostics
	addAPIErrorAbout(&diags, "read", "the website with id 7", err)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	return diags[0].Summary() + ": " + diags[0].Detail()
}

// TestRefusedWaitAdvice: what a read is told when it cannot wait, for
// each cause: the cause is named (the throttle, maintenance, the
// provider's own requests_per_minute), with the request and the remedy
// that applies to an operation with a deadline or without one.
// Deterministic: the calls are sequential; each refusal is immediate.
func TestRefusedWaitAdvice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		status     int
		retryAfter string
		rpm        int
		deadline   time.Duration // 0: none (a data source, an import)
		calls      int           // the last one's error is judged
		want, not  []string
	}{
		{name: "throttled, untimed", status: http.StatusTooManyRequests, retryAfter: "3600", calls: 1,
			want: []string{"/websites/7", "rate limit", "-parallelism", "no time limit of their own"},
			not:  []string{"..", "timeouts block"}},
		{name: "held by the throttle's window, untimed", status: http.StatusTooManyRequests, retryAfter: "3600",
			calls: 2, want: []string{"rate limit", "-parallelism"}},
		{name: "maintenance, untimed", status: http.StatusServiceUnavailable, retryAfter: "3600", calls: 1,
			want: []string{"maintenance"}},
		{name: "throttled, timed", status: http.StatusTooManyRequests, retryAfter: "3600", calls: 1,
			deadline: 5 * time.Minute, want: []string{"/websites/7", "timeouts block"},
			not: []string{"no time limit of their own"}},
		{name: "requests_per_minute, timed", rpm: 1, calls: 2, deadline: 30 * time.Second,
			want: []string{"requests_per_minute"}, not: []string{"server is reachable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := client.New(answering(t, tc.status, tc.retryAfter), "k", client.Options{
				Retry: &client.RetryOptions{MaxRetries: 4, RequestsPerMinute: tc.rpm}, Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.deadline > 0 {
				ctx, cancel = context.WithTimeout(context.Background(), tc.deadline)
			}
			defer cancel()
			for range tc.calls - 1 {
				_, _ = c.GetWebsite(ctx, 7)
			}
			_, err = c.GetWebsite(ctx, 7)
			d := refusalDiagnostic(t, err)
			for _, w := range tc.want {
				if !strings.Contains(d, w) {
					t.Errorf("the diagnostic does not say %q:\n%s", w, d)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(d, n) {
					t.Errorf("the diagnostic says %q:\n%s", n, d)
				}
			}
		})
	}
}

// TestRefreshSharingWithDataSourceAdvice: a refresh (timeouts.read's
// default) that shares its GET with a data source by id (no deadline), as
// in one plan, is told what it would be told alone when the server asks
// for an hour: to raise its timeouts block, not that it has no time limit.
// Deterministic (the server holds the GET until the data source joined).
func TestRefreshSharingWithDataSourceAdvice(t *testing.T) {
	t.Parallel()
	received, joined := make(chan struct{}), make(chan struct{})
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if gets.Add(1) == 1 {
			close(received)
			<-joined
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message": "Too Many Attempts."}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "k", client.Options{Retry: &client.RetryOptions{MaxRetries: 4}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100})
	rctx, cancelR := context.WithTimeout(context.Background(), defaultReadTimeout) // the refresh
	defer cancelR()
	dctx, cancelD := context.WithCancel(context.Background()) // the data source
	defer cancelD()
	rErr, dErr := make(chan error, 1), make(chan error, 1)
	go func() {
		_, err := b.Read(rctx, 7)
		rErr <- err
	}()
	<-received
	go func() {
		_, err := b.Read(dctx, 7)
		dErr <- err
	}()
	for b.Stats().Reads < 2 { // counted and joined under one hold of the reader's lock
		time.Sleep(time.Millisecond)
	}
	close(joined)
	d := refusalDiagnostic(t, <-rErr)
	if dd := refusalDiagnostic(t, <-dErr); !strings.Contains(dd, "no time limit of their own") {
		t.Errorf("the data source is not told it has no time limit:\n%s", dd)
	}
	if strings.Contains(d, "no time limit of their own") || !strings.Contains(d, "timeouts block") {
		t.Errorf("the refresh is told it has no time limit, or not to raise its timeouts block:\n%s", d)
	}
}

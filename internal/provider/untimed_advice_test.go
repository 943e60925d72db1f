package provider

// The advice of an operation without a deadline that would wait longer
// than client.UntimedWaitLimit (review rev44ah of fa70ed3).

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestUntimedDetailEndsOneSentence: the real throttle's 429 says
// "Too Many Attempts." (with its period); an import answered so with
// Retry-After: 3600 reads "...last attempt: HTTP 429: Too Many Attempts..
// Without a time limit of its own ..." (seen in terraform import). The
// limit check's warning trims that period (addWebsiteLimitError); the new
// untimed error does not. Deterministic.
func TestUntimedDetailEndsOneSentence(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte("{\n    \"message\": \"Too Many Attempts.\"\n}"))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "k", client.Options{Retry: &client.RetryOptions{MaxRetries: 4}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetWebsite(context.Background(), 7) // an import: no deadline
	var de *client.DeadlineError
	if !errors.As(err, &de) || !de.Untimed {
		t.Fatalf("premise: the untimed *DeadlineError, got %v", err)
	}
	var diags diag.Diagnostics
	addAPIError(&diags, "import", "imp.example.com", err)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	if d := diags[0].Detail(); strings.Contains(d, "..") {
		t.Errorf("the detail has a doubled period:\n%s", d)
	}
}

// TestUntimedMaintenanceNamesMaintenance: a data source or import
// (no deadline) while the installation is in maintenance mode (php artisan
// down --retry=3600: 503, Retry-After: 3600). The client refuses the hour
// at once: a *DeadlineError with Untimed and Status 503. The diagnostic is
// "Timed Out Talking to the Analytics API ... run Terraform again once the
// server answers": nothing timed out, and the cause the server gave
// (maintenance) is not named, though serverUnavailable exists to name it
// ("that is the cause to name, not the time limit") and a 503 without
// Retry-After gets "Analytics Server Unavailable ... maintenance mode".
// Deterministic.
func TestUntimedMaintenanceNamesMaintenance(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"message": "Service Unavailable"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "k", client.Options{Retry: &client.RetryOptions{MaxRetries: 4}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetWebsite(context.Background(), 7)
	var de *client.DeadlineError
	if !errors.As(err, &de) || !de.Untimed || de.Status != http.StatusServiceUnavailable {
		t.Fatalf("premise: the untimed *DeadlineError of a 503, got %v", err)
	}
	var diags diag.Diagnostics
	addAPIError(&diags, "read", "m.example.com", err)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	if d := diags[0]; !strings.Contains(d.Summary()+d.Detail(), "maintenance") {
		t.Errorf("a 503 maintenance answer asking for an hour is reported without naming maintenance:\n%s: %s",
			d.Summary(), d.Detail())
	}
}

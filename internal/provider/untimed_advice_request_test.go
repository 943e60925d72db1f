package provider

// Review rev44ai of 646fa8b: the advice of the untimed error.

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

// TestUntimedDetailNamesTheRequest: the untimed error's detail no
// longer names the request that was refused. fa70ed3 quoted the whole
// error ("GET /websites/7: Get \"...\": gave up after ..."), as the
// timed path still does; untimedAdvice quotes only the *DeadlineError
// found inside it, dropping what wrapped it: for a data source that
// makes several requests (analytics_website_statistics: a look-up, then
// statistics), which one the server refused. Deterministic.
func TestUntimedDetailNamesTheRequest(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
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
	_, err = c.GetWebsite(context.Background(), 7)
	if !strings.Contains(err.Error(), "/websites/7") {
		t.Fatalf("premise: the client's error names the request: %v", err)
	}
	var diags diag.Diagnostics
	addAPIError(&diags, "read", "n.example.com", err)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	if d := diags[0].Detail(); !strings.Contains(d, "/websites/7") {
		t.Errorf("the detail drops the request the error names (%v):\n%s", err, d)
	}
}

// TestTimedRequestsPerMinuteAdvice: the timed form of
// TestUntimedRequestsPerMinuteAdvice. requests_per_minute = 1 and two
// refreshes with 30 seconds each: the second is refused at once by the
// provider's own cap (*DeadlineError, Limiter set, nothing sent). 646fa8b
// names requests_per_minute for an operation without a time limit only;
// the refresh is told "Check that the server is reachable and responsive,
// or raise the limit in the resource's timeouts block or the provider's
// timeout": the server was not asked, and the provider's timeout (one
// request's bound) changes nothing. Deterministic (sequential calls).
func TestTimedRequestsPerMinuteAdvice(t *testing.T) {
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
	rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.GetWebsite(rctx, 7); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetWebsite(rctx, 7)
	var de *client.DeadlineError
	if !errors.As(err, &de) || !de.Limiter {
		t.Fatalf("premise: the second call is refused by requests_per_minute, got %v", err)
	}
	var diags diag.Diagnostics
	addAPIErrorAbout(&diags, "read", "the website with id 7", err)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	d := diags[0].Detail()
	t.Logf("%s: %s", diags[0].Summary(), d)
	if strings.Contains(d, "server is reachable") {
		t.Errorf("a wait the provider's own requests_per_minute imposes (no request was sent) is advised to check "+
			"the server:\n%s", d)
	}
}

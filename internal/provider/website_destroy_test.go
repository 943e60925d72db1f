package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestStatisticsBudget_reserve(t *testing.T) {
	t.Parallel()
	b := newStatisticsBudget()
	var mu sync.Mutex
	granted := 0
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if b.reserve() {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if granted != maxStatisticsRequests {
		t.Errorf("granted %d requests, want %d", granted, maxStatisticsRequests)
	}
}

// The first website left unchecked reports them all once no other has
// arrived for the quiet time, or when the wait is capped. The clock is
// fake: the test moves it as the report's waits ask, and lets the others
// arrive at their times meanwhile, so the counts are exact.
func TestStatisticsBudget_skipCountsOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		arrivals int
		gap      time.Duration
		maxWait  time.Duration
		want     int // counted by the one report
	}{
		{"one", 1, 0, time.Second, 1},
		{"several in a burst", 7, time.Millisecond, time.Second, 7},
		// Arrivals at 0, 20, ... 100 ms are counted; the wait ends at 100.
		{"the wait is capped", 30, 20 * time.Millisecond, 100 * time.Millisecond, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			start := now
			setNow := func(at time.Time) { mu.Lock(); now = at; mu.Unlock() }
			paused, resume := make(chan time.Duration), make(chan struct{})
			b := &statisticsBudget{limit: 0, quiet: 50 * time.Millisecond, maxWait: tc.maxWait,
				now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
				pause: func(_ context.Context, d time.Duration) error {
					paused <- d
					<-resume
					return nil
				}}
			type report struct {
				ok bool
				n  int
			}
			done := make(chan report, 1)
			go func() {
				ok, n := b.skip(context.Background())
				done <- report{ok, n}
			}()
			next := 1 // the next arrival; the first is the report's
			arrive := func() {
				setNow(start.Add(time.Duration(next) * tc.gap))
				if ok, _ := b.skip(context.Background()); ok {
					t.Errorf("arrival %d reported too", next)
				}
				next++
			}
			var got report
			for waiting := true; waiting; {
				select {
				case got = <-done:
					waiting = false
				case d := <-paused:
					mu.Lock()
					until := now.Add(d)
					mu.Unlock()
					for next < tc.arrivals && !start.Add(time.Duration(next)*tc.gap).After(until) {
						arrive()
					}
					setNow(until)
					resume <- struct{}{}
				}
			}
			for next < tc.arrivals {
				arrive()
			}
			if !got.ok || got.n != tc.want {
				t.Errorf("the first arrival reported %v, counting %d of %d; want %d", got.ok, got.n, tc.arrivals, tc.want)
			}
		})
	}
}

func TestStatisticsDiagnostics(t *testing.T) {
	t.Parallel()
	notFound := &client.APIError{Kind: client.ErrNotFound, Method: "GET", Path: "/stats/3", StatusCode: 404, Message: "Resource not found."}
	throttled := &client.APIError{Kind: client.ErrRateLimited, Method: "GET", Path: "/stats/3", StatusCode: 429,
		Message: "Too Many Attempts.", RetryAfter: time.Minute, Attempts: 5}
	maintenance := &client.APIError{Kind: client.ErrServer, Method: "GET", Path: "/stats/3", StatusCode: 503,
		Message: "Service Unavailable", Attempts: 5}
	serverError := &client.APIError{Kind: client.ErrServer, Method: "GET", Path: "/stats/3", StatusCode: 500,
		Message: "Server Error", Attempts: 5}
	const readTimeout = defaultReadTimeout
	tests := []struct {
		name string
		add  func(*diag.Diagnostics)
		want []string
	}{
		{"loss on destroy", func(d *diag.Diagnostics) {
			addStatisticsLoss(d, path.Empty(), "a.example", "3", "", false, &client.PageviewSummary{Days: 2, First: "2024-01-01", Last: "2024-01-09"})
		}, []string{"Destroying the Website Deletes Its Statistics", `Destroying the website "a.example" (id 3)`,
			"2 days with pageviews, from 2024-01-01 to 2024-01-09", "prevent_destroy",
			"terraform apply -invoke=action.analytics_website_statistics_export.NAME", "events = [before_destroy]"}},
		{"loss on replace, skip_destroy set too late", func(d *diag.Diagnostics) {
			addStatisticsLoss(d, path.Root("domain"), "a.example", "3", "b.example", true, &client.PageviewSummary{Days: 1, First: "2024-01-01", Last: "2024-01-01"})
		}, []string{"Replacing the Website Deletes Its Statistics", `from "a.example" to "b.example"`, "1 day with pageviews, 2024-01-01",
			"does not protect this website yet"}},
		{"last day not read", func(d *diag.Diagnostics) {
			addStatisticsLoss(d, path.Empty(), "a.example", "3", "", false, &client.PageviewSummary{Days: 120, First: "2024-01-01"})
		}, []string{"120 days with pageviews, from 2024-01-01 (the last day was not read"}},
		{"not found", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, notFound)
		}, []string{"Statistics Not Checked", `whether the website "a.example" has statistics`, "404", "another user",
			"deleted outside Terraform"}},
		{"no statistics endpoint", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil,
				fmt.Errorf("%w: GET /stats/3 answered \"not found\" although GET /websites/3 finds the website (%w)",
					client.ErrStatisticsUnsupported, notFound))
		}, []string{"Statistics Not Checked", "the installation has no statistics endpoint", "builds older"}},
		{"maintenance past the retries", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, maintenance)
		}, []string{"Statistics Not Checked", "503 Service Unavailable (maintenance mode", "until the provider gave up",
			"(after 5 attempts)"}},
		{"maintenance past the wait", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, &client.DeadlineError{Attempts: 2,
				Wait: 10 * time.Minute, Left: 4 * time.Minute, Reason: "the server asked to retry after 10m0s (HTTP 503)",
				Last: errors.New("HTTP 503: Service Unavailable"), Status: 503})
		}, []string{"503 Service Unavailable (maintenance mode", "timeouts.read = 5m0s", "asked to retry after 10m0s"}},
		{"throttle past the read timeout", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(10*time.Second), nil, &client.DeadlineError{Attempts: 1,
				Wait: time.Minute, Left: 9 * time.Second, Reason: "the server asked to retry after 1m0s (HTTP 429)",
				Last: errors.New("HTTP 429: Too Many Attempts."), Status: 429})
		}, []string{"server's throttle", "past the website's read timeout (timeouts.read = 10s)", "retry after 1m0s"}},
		{"throttled after the retries and the first request", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Root("domain"), "a.example", "b.example", readBound(readTimeout),
				&client.PageviewSummary{Days: 150, First: "2023-01-01"}, throttled)
		}, []string{"150 days with pageviews, the first on 2023-01-01", "request limit was still reached after the provider's retries",
			"(after 5 attempts)", `new domain "b.example"`}},
		{"budget spent before a retry", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, fmt.Errorf("%w: %w", client.ErrRequestBudget, maintenance))
		}, []string{"budget of 20 statistics requests was used up", "HTTP 503"}},
		{"budget spent before the events", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), &client.PageviewSummary{},
				fmt.Errorf("%w: %w", client.ErrRequestBudget, client.ErrEventsNotChecked))
		}, []string{"budget of 20 statistics requests was used up before the request for the website's custom events"}},
		{"server error after the retries", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, serverError)
		}, []string{"the statistics request failed after the provider's retries", "HTTP 500", "(after 5 attempts)"}},
		{"no answer in time", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, fmt.Errorf("GET /stats/3: %w", context.DeadlineExceeded))
		}, []string{"no answer within the website's read timeout (timeouts.read = 5m0s)"}},
		{"network", func(d *diag.Diagnostics) {
			addStatisticsUnknown(d, path.Empty(), "a.example", "", readBound(readTimeout), nil, errors.New("GET /stats/3: connection refused"))
		}, []string{"could not be reached: GET /stats/3: connection refused"}},
		{"budget", func(d *diag.Diagnostics) { addStatisticsNotChecked(d, 5) }, []string{"5 websites this plan destroys were not checked", "at most 20"}},
		{"kept on replace", func(d *diag.Diagnostics) { addWebsiteKept(d, path.Root("domain"), "a.example", "3", "b.example") },
			[]string{"Website Will Be Kept on the Server", `a new website "b.example" is created`, "website limit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkDiagnostic(t, tc.add, diag.SeverityWarning, tc.want)
		})
	}
}

// checkDiagnostic checks that add gives exactly one diagnostic, of
// severity, whose summary and detail hold every string of want.
func checkDiagnostic(t *testing.T, add func(*diag.Diagnostics), severity diag.Severity, want []string) {
	t.Helper()
	var d diag.Diagnostics
	add(&d)
	if len(d) != 1 || d[0].Severity() != severity {
		t.Fatalf("want one diagnostic of severity %v, got %v", severity, d)
	}
	text := d[0].Summary() + " " + d[0].Detail()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q:\n%s", w, text)
		}
	}
}

// The checks of one command share a bound from the first one's start: a
// check that starts later gets what is left of it when that is shorter than
// its website's read timeout, and none once it has passed.
func TestStatisticsBudget_bound(t *testing.T) {
	t.Parallel()
	b := newStatisticsBudget()
	b.wait = time.Minute
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		read    time.Duration
		at      time.Duration // after t0
		want    time.Duration
		command bool
	}{
		{"the first check: its read timeout, shorter", 30 * time.Second, 0, 30 * time.Second, false},
		{"a later check: what is left of the command's bound", 5 * time.Minute, 20 * time.Second, 40 * time.Second, true},
		{"a short read timeout still binds", 10 * time.Second, 20 * time.Second, 10 * time.Second, false},
		{"past the command's bound: nothing left", 5 * time.Minute, 2 * time.Minute, 0, true},
	} {
		got := b.bound(tc.read, t0.Add(tc.at))
		if got.d != tc.want || (got.command > 0) != tc.command {
			t.Errorf("%s: bound = %+v, want %s (command bound: %v)", tc.name, got, tc.want, tc.command)
		}
	}
	if s := (checkBound{d: 40 * time.Second, command: time.Minute}).String(); !strings.Contains(s, "1m0s in all") ||
		!strings.Contains(s, "40s were left") {
		t.Errorf("command bound described as %q", s)
	}
}

// A plan's statistics check, when another client keeps the throttle's
// window spent, gives up at the command's bound, not at the website's read
// timeout (5 minutes), and says which bound it was.
func TestPlanDestroy_commandBound(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey}}, RateLimit: 5,
		RateWindow: time.Hour})
	c, err := client.New(srv.URL+"/api/v1", emulator.DefaultAPIKey, client.Options{Retry: &client.RetryOptions{MaxRetries: 3}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWebsite(t.Context(), client.WebsiteInput{Domain: "bound.example"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emulator.SpendThrottle(t.Context(), srv.URL); err != nil {
		t.Fatal(err)
	}
	r := &websiteResource{data: newProviderData(c)}
	r.data.statistics.wait = 2 * time.Second
	state := websiteResourceModel{ID: types.StringValue(strconv.FormatInt(w.Website.ID, 10)), Domain: types.StringValue("bound.example")}
	var diags diag.Diagnostics
	start := time.Now()
	r.planDestroy(t.Context(), state, "", false, &diags)
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the check took %s, past the command's bound of 2s", took)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "the plan's bound on its statistics checks (2s in all") {
		t.Fatalf("diagnostics: %v", diags)
	}
}

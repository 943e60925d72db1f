package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

// trackDays records one pageview of page on n consecutive days from first,
// through the tracking endpoint.
func trackDays(t *testing.T, srv *emulator.Server, clock *testclock.Clock, page string, first time.Time, n int) {
	t.Helper()
	for i := range n {
		clock.SetDay(first.AddDate(0, 0, i))
		if got, err := tracking.SendHit(context.Background(), nil, srv.URL, tracking.Hit{Page: page}); err != nil || got != "200" {
			t.Fatalf("tracking %s: %q, %v", page, got, err)
		}
	}
}

// trackEvent records a custom event on page, as the tracking script's
// pa.track does.
func trackEvent(t *testing.T, baseURL, page, name string) {
	t.Helper()
	form := url.Values{"page": {page}, "event[name]": {name}}
	req, err := http.NewRequestWithContext(ctx(t), http.MethodPost, baseURL+"/api/event", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", tracking.DesktopUserAgent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if string(body) != "200" {
		t.Fatalf("tracking the event %q: %q", name, body)
	}
}

func TestSummarizePageviews(t *testing.T) {
	t.Parallel()
	clock := testclock.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	srv, c := newEnv(t, emulator.Options{Clock: clock.Now})
	ids := map[string]int64{}
	for _, d := range []string{"none.example", "few.example", "many.example", "events.example"} {
		res, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: d, ExcludeBots: true, OmitExcludeParams: true})
		if err != nil {
			t.Fatal(err)
		}
		ids[d] = res.Website.ID
	}
	trackDays(t, srv, clock, "https://few.example/", time.Date(2024, 2, 27, 0, 0, 0, 0, time.UTC), 3)
	trackDays(t, srv, clock, "https://www.many.example/x", time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC), 150)
	// Custom events only: the application records them without a pageview.
	trackEvent(t, srv.URL, "https://events.example/", "signup")
	trackEvent(t, srv.URL, "https://events.example/", "download")

	tests := []struct {
		name      string
		domain    string
		again     func() bool
		want      client.PageviewSummary
		wantCalls int
	}{
		{"no statistics: two requests", "none.example", nil, client.PageviewSummary{Requests: 2}, 2},
		{"custom events only: two requests", "events.example", nil, client.PageviewSummary{Events: 2, Requests: 2}, 2},
		{"every day on the first page: one request", "few.example", nil,
			client.PageviewSummary{Days: 3, First: "2024-02-27", Last: "2024-02-29", Requests: 1}, 1},
		{"more days than a page: two requests", "many.example", nil,
			client.PageviewSummary{Days: 150, First: "2023-12-01", Last: "2024-04-28", Requests: 2}, 2},
		{"second request refused", "many.example", func() bool { return false },
			client.PageviewSummary{Days: 150, First: "2023-12-01", Requests: 1}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := srv.Stats().ByRoute["GET /api/v1/stats/{id}"]
			got, err := c.SummarizePageviews(ctx(t), ids[tc.domain], tc.again)
			if err != nil {
				t.Fatal(err)
			}
			if *got != tc.want {
				t.Errorf("got %+v, want %+v", *got, tc.want)
			}
			// Subtests run one after the other: the counter is ours.
			if n := srv.Stats().ByRoute["GET /api/v1/stats/{id}"] - before; n != tc.wantCalls {
				t.Errorf("sent %d statistics requests, want %d", n, tc.wantCalls)
			}
		})
	}
}

// statsFaultEnv is an emulator holding one website (stored before faults
// are switched on), behind handler (if any) and a recorder of the
// statistics requests, and a retrying client of key with short backoffs.
func statsFaultEnv(t *testing.T, opts emulator.Options, handler func(http.Handler) http.Handler, key string,
) (*emulator.Emulator, *statsQueries, *client.Client, int64) {
	t.Helper()
	faults := opts.Faults
	opts.Faults = nil
	e, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	w := e.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "d.example"})
	stats := &statsQueries{}
	var h http.Handler = e
	if handler != nil {
		h = handler(h)
	}
	hs := httptest.NewServer(stats.wrap(h))
	t.Cleanup(hs.Close)
	if err := e.SetFaults(faults); err != nil {
		t.Fatal(err)
	}
	if key == "" {
		key = emulator.DefaultAPIKey
	}
	c, err := client.New(hs.URL, key, client.Options{Retry: &client.RetryOptions{MaxRetries: 3, WaitMin: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return e, stats, c, w.ID
}

// withoutStatsEndpoint answers GET /stats/{id} as an older build does:
// its fallback route's "not found".
func withoutStatsEndpoint(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/stats/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"message":"Resource not found.","status":404}`)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// GetStatistics is sent once, whatever the answer: its callers count the
// requests.
func TestGetStatistics_errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    emulator.Options
		handler func(http.Handler) http.Handler
		key     string
		want    error
	}{
		{"another user's website", emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey}, {Key: otherKey}}}, nil, otherKey, client.ErrNotFound},
		{"older build without the endpoint", emulator.Options{}, withoutStatsEndpoint, "", client.ErrNotFound},
		{"maintenance", emulator.Options{Faults: &emulator.Faults{Maintenance: true}}, nil, "", client.ErrServer},
		{"throttled", emulator.Options{Faults: &emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Minute}}, nil, "", client.ErrRateLimited},
		{"server error", emulator.Options{Faults: &emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}}}, nil, "", client.ErrServer},
		{"truncated body", emulator.Options{Faults: &emulator.Faults{MalformedRate: 1}}, nil, "", client.ErrUndecodable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stats, c, id := statsFaultEnv(t, tc.opts, tc.handler, tc.key)
			// Retries on: the statistics request is still sent once.
			_, err := c.GetStatistics(ctx(t), id, client.StatisticsQuery{Name: client.StatisticPageviews, From: "2000-01-01", To: "2100-12-31"})
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if got := len(stats.reset()); got != 1 {
				t.Errorf("%d statistics requests, want 1 (never retried)", got)
			}
		})
	}
}

// SummarizePageviews retries as reads do, each request after the first
// allowed by its caller's budget, and tells a build without the endpoint
// from another user's website.
func TestSummarizePageviews_errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      emulator.Options
		handler   func(http.Handler) http.Handler
		key       string
		budget    int // requests again allows after the first; -1: no limit (again is nil)
		want      []error
		wantStats int // statistics requests sent
		wantAsked int // requests counted in the summary's or the error's budget
	}{
		{"another user's website", emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey}, {Key: otherKey}}}, nil, otherKey,
			-1, []error{client.ErrNotFound}, 1, 2},
		{"older build without the endpoint", emulator.Options{}, withoutStatsEndpoint, "", -1,
			[]error{client.ErrStatisticsUnsupported, client.ErrNotFound}, 1, 2},
		{"not found, no budget for the look-up", emulator.Options{}, withoutStatsEndpoint, "", 0,
			[]error{client.ErrRequestBudget, client.ErrNotFound}, 1, 1},
		{"maintenance, retried", emulator.Options{Faults: &emulator.Faults{Maintenance: true}}, nil, "", -1,
			[]error{client.ErrServer}, 4, 4},
		{"maintenance, the budget stops the retries", emulator.Options{Faults: &emulator.Faults{Maintenance: true}}, nil, "", 1,
			[]error{client.ErrRequestBudget, client.ErrServer}, 2, 2},
		{"server error, retried", emulator.Options{Faults: &emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}}}, nil, "", -1,
			[]error{client.ErrServer}, 4, 4},
		{"throttled past the deadline", emulator.Options{Faults: &emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Minute}}, nil, "", -1,
			[]error{context.DeadlineExceeded}, 1, 1},
		{"truncated body, retried", emulator.Options{Faults: &emulator.Faults{MalformedRate: 1}}, nil, "", -1,
			[]error{client.ErrUndecodable}, 4, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stats, c, id := statsFaultEnv(t, tc.opts, tc.handler, tc.key)
			var again func() bool
			asked := 1
			if tc.budget >= 0 {
				left := tc.budget
				again = func() bool {
					if left == 0 {
						return false
					}
					left--
					asked++
					return true
				}
			}
			// 30 s: less than the minute the throttle asks for.
			cx, cancel := context.WithTimeout(ctx(t), 30*time.Second)
			defer cancel()
			sum, err := c.SummarizePageviews(cx, id, again)
			for _, want := range tc.want {
				if !errors.Is(err, want) {
					t.Errorf("error %v, want %v", err, want)
				}
			}
			if sum != nil {
				t.Errorf("a summary %+v beside the error", *sum)
			}
			if got := len(stats.reset()); got != tc.wantStats {
				t.Errorf("%d statistics requests, want %d", got, tc.wantStats)
			}
			if tc.budget >= 0 && asked != tc.wantAsked {
				t.Errorf("%d requests taken from the budget, want %d", asked, tc.wantAsked)
			}
		})
	}
}

// A website without pageviews whose events request the budget refuses:
// the error says the events were not checked (no request failed), beside
// what the first request learnt.
func TestSummarizePageviews_eventsRefused(t *testing.T) {
	t.Parallel()
	_, stats, c, id := statsFaultEnv(t, emulator.Options{}, nil, "")
	sum, err := c.SummarizePageviews(ctx(t), id, func() bool { return false })
	if !errors.Is(err, client.ErrRequestBudget) || !errors.Is(err, client.ErrEventsNotChecked) {
		t.Errorf("error %v, want ErrRequestBudget and ErrEventsNotChecked", err)
	}
	if sum == nil || sum.Days != 0 || sum.Requests != 1 {
		t.Errorf("summary %+v, want no days after one request", sum)
	}
	if got := len(stats.reset()); got != 1 {
		t.Errorf("%d statistics requests, want 1", got)
	}
}

// spendWindow spends what is left of the throttle's window of the
// installation at baseURL, as another program at the same address would.
func spendWindow(t *testing.T, baseURL string) {
	t.Helper()
	if _, err := emulator.SpendThrottle(ctx(t), baseURL); err != nil {
		t.Fatal(err)
	}
}

// Under a spent throttle, SummarizePageviews waits for the window's end as
// the server asks and answers; the second request is not spent on a 429.
// The window here is 2 s; the acceptance test
// TestAccWebsiteStatistics_destroyWaitsForThrottle has the real minute.
func TestSummarizePageviews_waitsForThrottle(t *testing.T) {
	t.Parallel()
	const window = 2 * time.Second
	clock := testclock.Running(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	srv, c := newEnv(t, emulator.Options{Clock: clock.Now})
	res, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "busy.example", ExcludeBots: true, OmitExcludeParams: true})
	if err != nil {
		t.Fatal(err)
	}
	trackDays(t, srv, clock, "https://busy.example/", time.Date(2024, 2, 27, 0, 0, 0, 0, time.UTC), 3)

	srv.SetRateLimit(5, window)
	spendWindow(t, srv.URL)
	srv.ResetStats()
	paced, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: &client.RetryOptions{MaxRetries: client.DefaultMaxRetries}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sum, err := paced.SummarizePageviews(ctx(t), res.Website.ID, func() bool { return true })
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("after %s: %v", elapsed, err)
	}
	if want := (client.PageviewSummary{Days: 3, First: "2024-02-27", Last: "2024-02-29", Requests: 2}); *sum != want {
		t.Errorf("got %+v, want %+v", *sum, want)
	}
	if elapsed < window/2 || elapsed > window+2*time.Second {
		t.Errorf("answered after %s, want the rest of the %s window (and at most one more second of jitter)", elapsed, window)
	}
	st := srv.Stats()
	if st.Throttled != 1 || st.ByRoute["GET /api/v1/stats/{id}"] != 2 {
		t.Errorf("%d statistics requests, %d refused; want 2, the first refused", st.ByRoute["GET /api/v1/stats/{id}"], st.Throttled)
	}

	// With less time left than the window asks for, it gives up at once.
	spendWindow(t, srv.URL)
	short, cancel := context.WithTimeout(context.Background(), window/4)
	defer cancel()
	start = time.Now()
	if _, err := paced.SummarizePageviews(short, res.Website.ID, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want one past the deadline", err)
	}
	if elapsed := time.Since(start); elapsed > window/4+time.Second {
		t.Errorf("gave up after %s, want at once", elapsed)
	}
}

func TestGetStatistics_tolerantDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       *client.StatisticsPage
		wantErr    bool
	}{
		{"string counts", `{"current_page":1,"data":[{"value":"2025-01-01","count":"120"}],"last_page":1,"total":1,"status":200}`,
			&client.StatisticsPage{Rows: []client.StatisticsRow{{Value: "2025-01-01", Count: 120}}, Total: 1, CurrentPage: 1, LastPage: 1}, false},
		{"number counts and string total", `{"current_page":"2","data":[{"value":"2025-01-01","count":7}],"last_page":3,"total":"21"}`,
			&client.StatisticsPage{Rows: []client.StatisticsRow{{Value: "2025-01-01", Count: 7}}, Total: 21, CurrentPage: 2, LastPage: 3}, false},
		{"empty", `{"current_page":1,"data":[],"total":0}`, &client.StatisticsPage{Total: 0, CurrentPage: 1, LastPage: 1}, false},
		{"the websites' envelope", `{"data":{"id":1},"status":200}`, nil, true},
		{"no total", `{"data":[]}`, nil, true},
		{"count not a number", `{"data":[{"value":"2025-01-01","count":"many"}],"total":1}`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tc.body)
			}))
			t.Cleanup(hs.Close)
			c := newClient(t, hs.URL, emulator.DefaultAPIKey)
			got, err := c.GetStatistics(ctx(t), 5, client.StatisticsQuery{Name: client.StatisticPageviews, From: "2000-01-01", To: "2100-12-31"})
			if tc.wantErr {
				if !errors.Is(err, client.ErrUndecodable) {
					t.Fatalf("error %v, want ErrUndecodable", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(*got) != fmt.Sprint(*tc.want) {
				t.Errorf("got %+v, want %+v", *got, *tc.want)
			}
		})
	}
}

func TestStatisticsQuery_invalid(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://example.invalid", emulator.DefaultAPIKey)
	for _, q := range []client.StatisticsQuery{
		{Name: "pageviews", SortBy: "date"},
		{Name: "pageviews", Sort: "up"},
		{Name: "pageviews", PerPage: 7},
	} {
		if _, err := c.GetStatistics(ctx(t), 1, q); err == nil || errors.Is(err, client.ErrServer) {
			t.Errorf("%+v: error %v, want a refusal before any request", q, err)
		}
	}
}

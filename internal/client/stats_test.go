package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

// trackDays records one pageview of page on n consecutive days from first,
// through the tracking endpoint.
func trackDays(t *testing.T, srv *emulator.Server, clock *testclock.Clock, page string, first time.Time, n int) {
	t.Helper()
	for i := range n {
		clock.SetDay(first.AddDate(0, 0, i))
		if got, err := emulator.SendHit(context.Background(), nil, srv.URL, emulator.Hit{Page: page}); err != nil || got != "200" {
			t.Fatalf("tracking %s: %q, %v", page, got, err)
		}
	}
}

func TestSummarizePageviews(t *testing.T) {
	t.Parallel()
	clock := testclock.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	srv, c := newEnv(t, emulator.Options{Clock: clock.Now})
	ids := map[string]int64{}
	for _, d := range []string{"none.example", "few.example", "many.example"} {
		res, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: d, ExcludeBots: true, OmitExcludeParams: true})
		if err != nil {
			t.Fatal(err)
		}
		ids[d] = res.Website.ID
	}
	trackDays(t, srv, clock, "https://few.example/", time.Date(2024, 2, 27, 0, 0, 0, 0, time.UTC), 3)
	trackDays(t, srv, clock, "https://www.many.example/x", time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC), 150)

	tests := []struct {
		name      string
		domain    string
		again     func() bool
		want      client.PageviewSummary
		wantCalls int
	}{
		{"no statistics: one request", "none.example", nil, client.PageviewSummary{Requests: 1}, 1},
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

func TestGetStatistics_errors(t *testing.T) {
	t.Parallel()
	other := strings.Repeat("o", 64)
	tests := []struct {
		name    string
		opts    emulator.Options
		handler func(http.Handler) http.Handler
		key     string
		want    error
	}{
		{"another user's website", emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey}, {Key: other}}}, nil, other, client.ErrNotFound},
		{"older build without the endpoint", emulator.Options{}, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.URL.Path, "/stats/") {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusNotFound)
					fmt.Fprint(w, `{"message":"Resource not found.","status":404}`)
					return
				}
				h.ServeHTTP(w, r)
			})
		}, "", client.ErrNotFound},
		{"maintenance", emulator.Options{Faults: &emulator.Faults{Maintenance: true}}, nil, "", client.ErrServer},
		{"throttled", emulator.Options{Faults: &emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Minute}}, nil, "", client.ErrRateLimited},
		{"server error", emulator.Options{Faults: &emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}}}, nil, "", client.ErrServer},
		{"truncated body", emulator.Options{Faults: &emulator.Faults{MalformedRate: 1}}, nil, "", client.ErrUndecodable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The website is stored before the faults are switched on.
			faults := tc.opts.Faults
			tc.opts.Faults = nil
			e, err := emulator.New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			w := e.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "d.example"})
			var stats statsQueries
			var h http.Handler = e
			if tc.handler != nil {
				h = tc.handler(h)
			}
			hs := httptest.NewServer(stats.wrap(h))
			t.Cleanup(hs.Close)
			if err := e.SetFaults(faults); err != nil {
				t.Fatal(err)
			}
			key := tc.key
			if key == "" {
				key = emulator.DefaultAPIKey
			}
			// Retries on: the statistics request is still sent once.
			c, err := client.New(hs.URL, key, client.Options{Retry: &client.RetryOptions{MaxRetries: 3, WaitMin: time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.SummarizePageviews(ctx(t), w.ID, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if got := len(stats.reset()); got != 1 {
				t.Errorf("%d statistics requests, want 1 (never retried)", got)
			}
		})
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

package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

// statsQueries records the query of every request that reaches h under
// /api/v1/stats/, and calls before (if set) with the query first.
type statsQueries struct {
	mu     sync.Mutex
	q      []url.Values
	before func(url.Values)
}

func (s *statsQueries) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/api/v1/stats/") {
			s.mu.Lock()
			s.q = append(s.q, r.URL.Query())
			before := s.before
			s.mu.Unlock()
			if before != nil {
				before(r.URL.Query())
			}
		}
		h.ServeHTTP(w, r)
	})
}

func (s *statsQueries) reset() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.q
	s.q = nil
	return q
}

// statsEnv is an emulator with a clock of the test's own, behind a
// recorder of the statistics requests, and a client of the default user
// (retrying, with short waits).
type statsEnv struct {
	emu     *emulator.Emulator
	url     string
	clock   *testclock.Clock
	queries *statsQueries
	c       *client.Client
}

func newStatsEnv(t *testing.T, opts emulator.Options) *statsEnv {
	t.Helper()
	clock := testclock.New(time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC))
	opts.Clock = clock.Now
	e, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	q := &statsQueries{}
	hs := httptest.NewServer(q.wrap(e))
	t.Cleanup(hs.Close)
	c, err := client.New(hs.URL, emulator.DefaultAPIKey, client.Options{Retry: &client.RetryOptions{MaxRetries: 3, WaitMin: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return &statsEnv{emu: e, url: hs.URL, clock: clock, queries: q, c: c}
}

// track records one pageview of page on each of n consecutive days from
// first, through the tracking endpoint.
func (s *statsEnv) track(t *testing.T, page string, first time.Time, n int) {
	t.Helper()
	for i := range n {
		s.clock.SetDay(first.AddDate(0, 0, i))
		if got, err := tracking.SendHit(context.Background(), nil, s.url, tracking.Hit{Page: page}); err != nil || got != "200" {
			t.Fatalf("tracking %s: %q, %v", page, got, err)
		}
	}
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// Every row of a name is read at 100 rows a request, sorted by day, and no
// request more: 0 and 1 rows cost one request, 100 one, 101 two, 365 four.
func TestReadStatistics_requestsPer100Rows(t *testing.T) {
	t.Parallel()
	s := newStatsEnv(t, emulator.Options{})
	first := day("2023-01-01")
	ids := map[int]int64{}
	for _, n := range []int{0, 1, 100, 101, 365} {
		domain := fmt.Sprintf("d%d.example", n)
		ids[n] = s.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: domain}).ID
		s.track(t, "https://"+domain+"/", first, n)
	}
	for _, tc := range []struct{ days, requests int }{{0, 1}, {1, 1}, {100, 1}, {101, 2}, {365, 4}} {
		t.Run(fmt.Sprintf("%d days", tc.days), func(t *testing.T) {
			// Subtests run one after the other: the recorder is ours.
			s.queries.reset()
			pages := 0
			res, err := s.c.ReadStatistics(ctx(t), ids[tc.days], client.StatisticsRead{
				Name: client.StatisticPageviews, From: "2022-12-01", To: "2024-12-31",
				OnPage: func(rows, requests int) { pages = requests },
			})
			if err != nil {
				t.Fatal(err)
			}
			sent := s.queries.reset()
			if len(sent) != tc.requests || res.Requests != tc.requests || pages != tc.requests {
				t.Errorf("%d requests sent, %d counted, %d pages seen; want %d", len(sent), res.Requests, pages, tc.requests)
			}
			for i, q := range sent {
				page := q.Get("page")
				if page == "" {
					page = "1" // the server's default, not sent
				}
				if q.Get("per_page") != "100" || page != fmt.Sprint(i+1) || q.Get("sort_by") != "value" ||
					q.Get("sort") != "asc" || q.Get("name") != "pageviews" || q.Get("from") != "2022-12-01" || q.Get("to") != "2024-12-31" {
					t.Errorf("request %d: %v", i+1, q)
				}
			}
			if res.Total != tc.days || len(res.Rows) != tc.days {
				t.Fatalf("total %d, %d rows; want %d", res.Total, len(res.Rows), tc.days)
			}
			for i, r := range res.Rows {
				if want := first.AddDate(0, 0, i).Format(time.DateOnly); r.Value != want || r.Count != 1 {
					t.Fatalf("row %d: %+v, want {%s 1}", i, r, want)
				}
			}
		})
	}

	// A range holds only its days.
	res, err := s.c.ReadStatistics(ctx(t), ids[365], client.StatisticsRead{Name: client.StatisticPageviews, From: "2023-02-01", To: "2023-02-28"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 28 || res.Rows[0].Value != "2023-02-01" || res.Rows[27].Value != "2023-02-28" || res.Requests != 1 {
		t.Errorf("February: %d rows from %v, %d requests", len(res.Rows), res.Rows[0], res.Requests)
	}
}

// The top values are read in one request of the smallest page size that
// holds them, by count (highest first).
func TestReadStatistics_top(t *testing.T) {
	t.Parallel()
	s := newStatsEnv(t, emulator.Options{})
	id := s.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "d.example"}).ID
	// Page /p<i> gets i pageviews: /p150 the most.
	s.clock.SetDay(day("2024-03-01"))
	for i := 1; i <= 150; i++ {
		for range i % 7 {
			if got, err := tracking.SendHit(context.Background(), nil, s.url, tracking.Hit{Page: fmt.Sprintf("https://d.example/p%03d", i)}); err != nil || got != "200" {
				t.Fatalf("tracking: %q, %v", got, err)
			}
		}
	}
	for _, tc := range []struct{ limit, perPage int }{{1, 10}, {10, 10}, {11, 25}, {26, 50}, {100, 100}} {
		t.Run(fmt.Sprint(tc.limit), func(t *testing.T) {
			s.queries.reset()
			res, err := s.c.ReadStatistics(ctx(t), id, client.StatisticsRead{Name: "page", From: "2024-03-01", To: "2024-03-01", Limit: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			sent := s.queries.reset()
			if len(sent) != 1 || res.Requests != 1 {
				t.Fatalf("%d requests sent, %d counted; want 1", len(sent), res.Requests)
			}
			if q := sent[0]; q.Get("per_page") != fmt.Sprint(tc.perPage) || q.Get("sort_by") != "count" || q.Get("sort") != "desc" || q.Has("page") {
				t.Errorf("query %v, want per_page=%d sort_by=count sort=desc, the first page", q, tc.perPage)
			}
			if len(res.Rows) != tc.limit || res.Total != 150-150/7 {
				t.Fatalf("%d rows, total %d; want %d, %d", len(res.Rows), res.Total, tc.limit, 150-150/7)
			}
			// Counts 6 first (the pages i%7 == 6, by value), then 5...
			if res.Rows[0] != (client.StatisticsRow{Value: "/p006", Count: 6}) {
				t.Errorf("first row %+v, want {/p006 6}", res.Rows[0])
			}
			if !slices.IsSortedFunc(res.Rows, func(a, b client.StatisticsRow) int { return int(b.Count - a.Count) }) {
				t.Errorf("rows not by count: %v", res.Rows)
			}
		})
	}
	for _, limit := range []int{-1, 101} {
		s.queries.reset()
		if _, err := s.c.ReadStatistics(ctx(t), id, client.StatisticsRead{Name: "page", From: "2024-03-01", To: "2024-03-01", Limit: limit}); err == nil {
			t.Errorf("limit %d accepted", limit)
		}
		if n := len(s.queries.reset()); n != 0 {
			t.Errorf("limit %d: %d requests sent, want none", limit, n)
		}
	}
}

// A 429 is waited out and the page asked again, unlike GetStatistics.
func TestReadStatistics_retries429(t *testing.T) {
	t.Parallel()
	s := newStatsEnv(t, emulator.Options{})
	id := s.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "d.example"}).ID
	s.track(t, "https://d.example/", day("2024-01-01"), 150)
	if err := s.emu.SetFaults(&emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Millisecond, MaxFaults: 1, Methods: []string{"GET"}}); err != nil {
		t.Fatal(err)
	}
	// The emulator's clock stands still unless moved: each request moves it
	// a day on, past the burst of 429 answers.
	var requests atomic.Int32
	s.queries.before = func(url.Values) {
		s.clock.SetDay(day("2025-01-01").AddDate(0, 0, int(requests.Add(1))))
	}
	res, err := s.c.ReadStatistics(ctx(t), id, client.StatisticsRead{Name: client.StatisticPageviews, From: "2024-01-01", To: "2024-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 150 || res.Requests != 2 {
		t.Errorf("%d rows in %d pages, want 150 in 2", len(res.Rows), res.Requests)
	}
	if n := len(s.queries.reset()); n != 3 {
		t.Errorf("%d requests sent, want 3 (the first one again after its 429, then page 2)", n)
	}
}

// "Not found" is an unknown website, another user's, or a build without
// the endpoint; one read of the website tells which.
func TestReadStatistics_notFound(t *testing.T) {
	t.Parallel()
	other := strings.Repeat("o", 64)
	tests := []struct {
		name       string
		opts       emulator.Options
		key        string
		unknownID  bool
		want       error
		wantDetail string
	}{
		{"unknown id", emulator.Options{}, "", true, client.ErrNotFound, "Resource not found."},
		{"another user's website", emulator.Options{}, other, false, client.ErrNotFound, "Resource not found."},
		{"build without the endpoint", emulator.Options{NoStatisticsEndpoint: true}, "", false, client.ErrStatisticsUnsupported,
			"GET /websites/%d finds the website"},
		{"build without the endpoint, unknown id", emulator.Options{NoStatisticsEndpoint: true}, "", true, client.ErrNotFound, "Resource not found."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.opts.Users = []emulator.User{{Key: emulator.DefaultAPIKey}, {Key: other}}
			e, err := emulator.New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			id := e.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "d.example"}).ID
			if tc.unknownID {
				id += 100
			}
			hs := httptest.NewServer(e)
			t.Cleanup(hs.Close)
			key := tc.key
			if key == "" {
				key = emulator.DefaultAPIKey
			}
			c, err := client.New(hs.URL, key, client.Options{Retry: &client.RetryOptions{MaxRetries: 3, WaitMin: time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.ReadStatistics(ctx(t), id, client.StatisticsRead{Name: client.StatisticPageviews, From: "2024-01-01", To: "2024-12-31"})
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if tc.want == client.ErrNotFound && errors.Is(err, client.ErrStatisticsUnsupported) { //nolint:errorlint // the table's sentinel
				t.Errorf("error %v is also ErrStatisticsUnsupported", err)
			}
			detail := tc.wantDetail
			if strings.Contains(detail, "%d") {
				detail = fmt.Sprintf(detail, id)
			}
			if !strings.Contains(err.Error(), detail) {
				t.Errorf("error %q does not say %q", err, detail)
			}
			st := e.Stats().ByRoute
			if st["GET /api/v1/stats/{id}"] != 1 || st["GET /api/v1/websites/{id}"] != 1 || res.Requests != 1 {
				t.Errorf("requests %v (%d counted), want one statistics request and one read of the website", st, res.Requests)
			}
		})
	}
}

// A day recorded between two pages, before the last day read, moves every
// later row one place: the row at the end of page 1 is on page 2 too, and
// is kept once.
func TestReadStatistics_rowMovesBetweenPages(t *testing.T) {
	t.Parallel()
	s := newStatsEnv(t, emulator.Options{})
	id := s.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "d.example"}).ID
	first := day("2024-01-01")
	s.track(t, "https://d.example/", first, 200)
	var inserted atomic.Bool
	s.queries.before = func(q url.Values) {
		if q.Get("page") == "2" && !inserted.Swap(true) {
			s.track(t, "https://d.example/", day("2023-06-01"), 1)
		}
	}
	res, err := s.c.ReadStatistics(ctx(t), id, client.StatisticsRead{Name: client.StatisticPageviews, From: "2023-01-01", To: "2024-12-31"})
	if err != nil {
		t.Fatal(err)
	}
	if !inserted.Load() {
		t.Fatal("no second page was read")
	}
	seen := map[string]bool{}
	for _, r := range res.Rows {
		if seen[r.Value] {
			t.Errorf("%s read twice", r.Value)
		}
		seen[r.Value] = true
	}
	for i := range 200 {
		if d := first.AddDate(0, 0, i).Format(time.DateOnly); !seen[d] {
			t.Errorf("%s missing", d)
		}
	}
	if res.Requests != 3 || res.Total != 201 {
		t.Errorf("%d requests, total %d; want 3 (201 rows after the insert), 201", res.Requests, res.Total)
	}
}

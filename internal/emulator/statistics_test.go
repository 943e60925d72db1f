package emulator

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"testing"
)

type statsPage struct {
	CurrentPage int `json:"current_page"`
	Data        []struct {
		Value string `json:"value"`
		Count string `json:"count"`
	} `json:"data"`
	FirstPageURL string `json:"first_page_url"`
	NextPageURL  any    `json:"next_page_url"`
	LastPage     int    `json:"last_page"`
	PerPage      int    `json:"per_page"`
	Total        int    `json:"total"`
	Status       int    `json:"status"`
}

func statsPath(id int64, q string) string {
	return "/api/v1/stats/" + strconv.FormatInt(id, 10) + "?" + q
}

func TestStatistics_show(t *testing.T) {
	t.Parallel()
	s, clock := newTestServer(t, Options{})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}})
	empty := create(t, s, keyA, url.Values{"domain": {"empty.example"}})
	clockDays(t, s, clock, "https://d.example/", map[string]int{"2024-01-05": 3, "2024-01-01": 1, "2024-02-10": 2, "2023-12-31": 5})

	const all = "name=pageviews&from=2000-01-01&to=2100-12-31"
	tests := []struct {
		name       string
		id         int64
		query      string
		wantValues []string
		wantCounts []string
		wantTotal  int
	}{
		{"default: count desc", id, all, []string{"2023-12-31", "2024-01-05", "2024-02-10", "2024-01-01"}, []string{"5", "3", "2", "1"}, 4},
		{"value asc", id, all + "&sort_by=value&sort=asc", []string{"2023-12-31", "2024-01-01", "2024-01-05", "2024-02-10"}, nil, 4},
		{"value desc", id, all + "&sort_by=value&sort=desc&per_page=10", []string{"2024-02-10", "2024-01-05", "2024-01-01", "2023-12-31"}, nil, 4},
		{"date range", id, "name=pageviews&from=2024-01-01&to=2024-01-31&sort_by=value&sort=asc", []string{"2024-01-01", "2024-01-05"}, []string{"1", "3"}, 2},
		{"search", id, all + "&search=2024-0", []string{"2024-01-05", "2024-02-10", "2024-01-01"}, nil, 3},
		{"other name", id, "name=page&from=2000-01-01&to=2100-12-31", []string{"/"}, []string{"11"}, 1},
		{"invalid sort falls back", id, all + "&sort_by=nope&sort=up&per_page=7", []string{"2023-12-31", "2024-01-05", "2024-02-10", "2024-01-01"}, nil, 4},
		{"no statistics", empty, all, nil, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, s, call{path: statsPath(tc.id, tc.query), key: keyA})
			if r.status != http.StatusOK {
				t.Fatalf("%d %s", r.status, r.body)
			}
			var p statsPage
			decode(t, r, &p)
			var values, counts []string
			for _, d := range p.Data {
				values, counts = append(values, d.Value), append(counts, d.Count)
			}
			if p.Total != tc.wantTotal || !equalStrings(values, tc.wantValues) || (tc.wantCounts != nil && !equalStrings(counts, tc.wantCounts)) {
				t.Errorf("got total %d values %v counts %v, want %d %v %v", p.Total, values, counts, tc.wantTotal, tc.wantValues, tc.wantCounts)
			}
			if p.Status != 200 || p.CurrentPage != 1 || p.PerPage != 10 {
				t.Errorf("paginator: %+v", p)
			}
		})
	}
}

func TestStatistics_pagesAndShape(t *testing.T) {
	t.Parallel()
	s, clock := newTestServer(t, Options{})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}})
	days := map[string]int{}
	for d := 1; d <= 12; d++ {
		days["2024-03-"+twoDigits(d)] = 1
	}
	clockDays(t, s, clock, "https://d.example/", days)
	r := do(t, s, call{path: statsPath(id, "name=pageviews&from=2024-03-01&to=2024-03-31&sort_by=value&sort=asc&per_page=10&page=2"), key: keyA})
	var p statsPage
	decode(t, r, &p)
	if p.Total != 12 || p.LastPage != 2 || len(p.Data) != 2 || p.Data[0].Value != "2024-03-11" || p.NextPageURL != nil {
		t.Errorf("page 2: %s", r.body)
	}
	want := s.URL + "/api/v1/stats/" + strconv.FormatInt(id, 10) +
		"?name=pageviews&from=2024-03-01&to=2024-03-31&search_by=value&sort_by=value&sort=asc&per_page=10&page=1"
	if p.FirstPageURL != want {
		t.Errorf("first_page_url = %s\nwant %s", p.FirstPageURL, want)
	}
}

func TestStatistics_errors(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{Users: []User{{Key: keyA}, {Key: keyB}, {Key: "c" + keyA[1:], NoAPIAccess: true}}})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}})
	const all = "name=pageviews&from=2000-01-01&to=2100-12-31"
	tests := []struct {
		name, path, key string
		status          int
		body            string
	}{
		{"missing name, from and to", statsPath(id, ""), keyA, 422,
			`{"message":{"name":["The name field is required."],"from":["The from field is required."],"to":["The to field is required."]},"status":422}`},
		{"bad name and date", statsPath(id, "name=nope&from=2024-1-1&to=2100-12-31"), keyA, 422,
			`{"message":{"name":["The selected name is invalid."],"from":["The from field must match the format Y-m-d."]},"status":422}`},
		{"another user's website", statsPath(id, all), keyB, 404, `{"message":"Resource not found.","status":404}`},
		{"unknown id", statsPath(id+100, all), keyA, 404, `{"message":"Resource not found.","status":404}`},
		{"no index route", "/api/v1/stats?" + all, keyA, 404, `{"message":"Resource not found.","status":404}`},
		{"no key", statsPath(id, all), "", 401, `{"message":"Unauthenticated."}`},
		{"no API access", statsPath(id, all), "c" + keyA[1:], 403, `{"message":"You don't have access to this feature.","status":403}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, do(t, s, call{path: tc.path, key: tc.key}), tc.status, tc.body)
		})
	}
	s.ResetStats()
	do(t, s, call{path: statsPath(id, all), key: keyA})
	if n := s.Stats().ByRoute["GET "+routeStatistics]; n != 1 {
		t.Errorf("counted %d statistics requests, want 1: %v", n, s.Stats().ByRoute)
	}
}

// An older build without the endpoint answers its fallback 404 for every
// id, its own websites' too.
func TestStatistics_noEndpoint(t *testing.T) {
	t.Parallel()
	s, clock := newTestServer(t, Options{NoStatisticsEndpoint: true})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}})
	clockDays(t, s, clock, "https://d.example/", map[string]int{"2024-01-01": 1})
	for _, p := range []string{statsPath(id, "name=pageviews&from=2000-01-01&to=2100-12-31"), statsPath(id+1, ""), statsPath(id, "")} {
		expect(t, do(t, s, call{path: p, key: keyA}), 404, `{"message":"Resource not found.","status":404}`)
	}
	expect(t, do(t, s, call{path: "/api/v1/stats/" + strconv.FormatInt(id, 10), key: ""}), 401, `{"message":"Unauthenticated."}`)
}

func TestStatistics_deletedWithWebsite(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	s, clock := newTestServer(t, Options{StateFile: state})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}})
	keep := create(t, s, keyA, url.Values{"domain": {"keep.example"}})
	clockDays(t, s, clock, "https://d.example/", map[string]int{"2024-01-01": 1})
	clockDays(t, s, clock, "https://keep.example/", map[string]int{"2024-01-02": 2})

	// Persisted and loaded again.
	e2, err := New(Options{StateFile: state, Users: []User{{Key: keyA}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := e2.Statistics(keep); len(got) == 0 {
		t.Error("statistics not reloaded from the state file")
	}

	expect(t, do(t, s, call{method: "DELETE", path: "/api/v1/websites/" + strconv.FormatInt(id, 10), key: keyA}), 200,
		`{"id":`+strconv.FormatInt(id, 10)+`,"object":"website","deleted":true,"status":200}`)
	if got := s.Statistics(id); len(got) != 0 {
		t.Errorf("statistics left after the delete: %+v", got)
	}
	if got := s.Statistics(keep); len(got) == 0 {
		t.Error("the other website's statistics went too")
	}
	s.DeleteWebsite(keep)
	if got := s.Statistics(keep); len(got) != 0 {
		t.Errorf("DeleteWebsite left statistics: %+v", got)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func TestStatistics_throttled(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{RateLimit: 2})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}}) // the first request of the window
	path := statsPath(id, "name=pageviews&from=2000-01-01&to=2100-12-31")
	if r := do(t, s, call{path: path, key: keyA}); r.status != http.StatusOK || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("second request: %d, remaining %q", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
	r := do(t, s, call{path: path, key: keyA})
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Errorf("third request: %d %s, want 429 with Retry-After", r.status, r.body)
	}
}

package bench

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestThrottleWait(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int, status int) loggedRequest {
		return loggedRequest{at: t0.Add(time.Duration(ms) * time.Millisecond), status: status}
	}
	end := t0.Add(10 * time.Second)
	for _, tc := range []struct {
		name string
		reqs []loggedRequest
		want time.Duration
	}{
		{"no throttle", []loggedRequest{at(0, 200), at(10, 201), at(20, 404)}, 0},
		{"one wait", []loggedRequest{at(0, 200), at(100, 429), at(150, 429), at(2100, 200)}, 2000 * time.Millisecond},
		{
			"two waits, out of order, a 4xx lets through",
			[]loggedRequest{at(5000, 429), at(0, 200), at(1000, 429), at(6500, 422), at(3000, 201), at(1200, 429)},
			2000*time.Millisecond + 1500*time.Millisecond,
		},
		{"refused to the end", []loggedRequest{at(0, 200), at(9000, 429)}, time.Second},
		{"refused from the start", []loggedRequest{at(0, 429), at(500, 200)}, 500 * time.Millisecond},
		{"empty", nil, 0},
	} {
		if got := throttleWait(tc.reqs, end); got != tc.want {
			t.Errorf("%s: throttleWait = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	log := &requestLog{}
	h := log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/limited":
			w.WriteHeader(http.StatusTooManyRequests)
		case "/api/v1/websites":
			if r.Method == http.MethodPost {
				w.WriteHeader(http.StatusCreated)
			}
			_, _ = w.Write([]byte("{}"))
		}
	}))
	for _, req := range []struct{ method, target string }{
		{http.MethodGet, "/api/v1/websites?search=a.example.com&search_by=domain"},
		{http.MethodGet, "/analytics/api/v1/websites/?search=b.example.com"},
		{http.MethodGet, "/api/v1/websites?search=&per_page=100"},
		{http.MethodGet, "/api/v1/websites?page=2"},
		{http.MethodPost, "/api/v1/websites?search=x"},
		{http.MethodGet, "/api/v1/limited"},
		{http.MethodGet, "/__emulator/stats"},
	} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(req.method, req.target, nil))
	}
	reqs := log.snapshot()
	if len(reqs) != 6 {
		t.Fatalf("%d requests logged, want 6 (not the control endpoint)", len(reqs))
	}
	if got := log.searches(); got != 2 {
		t.Errorf("searches = %d, want 2", got)
	}
	for i, want := range []int{200, 200, 200, 200, 201, 429} {
		if reqs[i].status != want {
			t.Errorf("request %d: status %d, want %d", i, reqs[i].status, want)
		}
	}
	if log.throttleWait(reqs[5].at) != 0 {
		t.Error("a wait before any time passed")
	}
	log.reset()
	if len(log.snapshot()) != 0 {
		t.Error("reset kept requests")
	}
}

func TestSummaryLine(t *testing.T) {
	t.Parallel()
	out := "analytics_website.site[\"a\"]: Importing...\n\nPlan: 2 to import, 0 to add, 0 to change, 0 to destroy.\n\n" +
		"Note: You didn't use the -out option\n"
	if got := summaryLine(out); got != "Plan: 2 to import, 0 to add, 0 to change, 0 to destroy." {
		t.Errorf("summaryLine = %q", got)
	}
	out = "Plan: 1 to add\nApply complete! Resources: 5 imported, 2 added, 0 changed, 0 destroyed.\n"
	if got := summaryLine(out); got != "Apply complete! Resources: 5 imported, 2 added, 0 changed, 0 destroyed." {
		t.Errorf("summaryLine = %q (want the last)", got)
	}
	if got := summaryLine("Error: nothing\n"); got != "" {
		t.Errorf("summaryLine = %q, want none", got)
	}
}

func TestParseSummary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want Summary
		ok   bool
	}{
		{"Plan: 500 to import, 0 to add, 0 to change, 0 to destroy.", Summary{Import: 500}, true},
		{"Plan: 2 to add, 0 to change, 2 to destroy.", Summary{Add: 2, Destroy: 2}, true},
		{"Apply complete! Resources: 500 imported, 1 added, 2 changed, 3 destroyed.", Summary{Import: 500, Add: 1, Change: 2, Destroy: 3}, true},
		{"Apply complete! Resources: 0 added, 10 changed, 0 destroyed.", Summary{Change: 10}, true},
		{"Destroy complete! Resources: 7 destroyed.", Summary{Destroy: 7}, true},
		{"No changes. Your infrastructure matches the configuration.", Summary{}, true},
		{"Plan: nothing", Summary{}, false},
		{"", Summary{}, false},
		{"Error: 5 to import", Summary{}, false},
	} {
		got, ok := ParseSummary(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseSummary(%q) = %+v, %t; want %+v, %t", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

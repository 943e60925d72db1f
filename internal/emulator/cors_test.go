package emulator

// CORS (package tracking) on the emulator's api/* paths: preflights before
// maintenance, the throttle and injected faults, the headers on every other
// answer.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

const (
	pageOrigin = "http://www.shop.test:8080"
	// absent is a header that must not be there, for checkHeaders.
	absent = "(absent)"
)

// checkHeaders fails t unless h has every header of want once with exactly
// that value, or not at all for absent.
func checkHeaders(t *testing.T, what string, h http.Header, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := h.Values(k); v == absent && len(got) > 0 || v != absent && (len(got) != 1 || got[0] != v) {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
}

// A browser's preflight before the tracking script's JSON POST, and before
// an API call from a page, on both api/* paths, below a path prefix: 204
// with the allow headers, answered before the throttle (used up here) and
// before maintenance mode, counted in Stats.Preflights only.
func TestCORS_preflight(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{RateLimit: 1, PathPrefix: "/analytics"})
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status != http.StatusOK {
		t.Fatalf("first request: %d", r.status)
	}
	s.ResetStats()
	preflight := func(path, method, headers string) result {
		h := map[string]string{"Origin": pageOrigin, "Access-Control-Request-Method": method}
		if headers != "" {
			h["Access-Control-Request-Headers"] = headers
		}
		return do(t, s, call{method: http.MethodOptions, path: path, accept: "-", header: h})
	}
	for _, tc := range []struct{ path, method, headers string }{
		{"/api/event", "POST", "content-type"},
		{"/api/event/", "post", ""},
		{"/api/v1/websites/12", "DELETE", "authorization,accept"},
		{"/api/nothing-here", "GET", "x-custom"},
	} {
		r := preflight(tc.path, tc.method, tc.headers)
		if r.status != http.StatusNoContent || r.body != "" {
			t.Errorf("preflight %s: %d %q, want 204 and no body", tc.path, r.status, r.body)
		}
		checkHeaders(t, "preflight "+tc.path, r.header, map[string]string{
			"Access-Control-Allow-Origin":      pageOrigin,
			"Access-Control-Allow-Credentials": "true",
			"Access-Control-Allow-Methods":     strings.ToUpper(tc.method),
			"Access-Control-Allow-Headers":     tc.headers,
			"Access-Control-Max-Age":           "0",
			"Vary":                             "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
			"X-RateLimit-Limit":                absent,
			"X-RateLimit-Remaining":            absent,
			"Retry-After":                      absent,
		})
	}
	s.SetMaintenance(true)
	if r := preflight("/api/event", "POST", "content-type"); r.status != http.StatusNoContent {
		t.Errorf("preflight in maintenance mode: %d, want 204 (HandleCors comes first)", r.status)
	}
	r := do(t, s, call{method: "POST", path: "/api/event", form: url.Values{"page": {"https://shop.test/"}},
		header: map[string]string{"Origin": pageOrigin, "User-Agent": browserUA}})
	if r.status != http.StatusServiceUnavailable {
		t.Errorf("POST in maintenance mode: %d, want 503", r.status)
	}
	checkHeaders(t, "503", r.header, map[string]string{"Access-Control-Allow-Origin": pageOrigin, "Vary": "Origin"})
	s.SetMaintenance(false)

	st := s.Stats()
	if st.Total != 0 || st.Throttled != 0 {
		t.Errorf("preflights counted as requests: %+v", st)
	}
	want := map[string]int{"POST /api/event": 3, "DELETE /api/v1/websites/{id}": 1, "GET (unknown)": 1}
	if len(st.Preflights) != len(want) {
		t.Errorf("Preflights = %v, want %v", st.Preflights, want)
	}
	for k, n := range want {
		if st.Preflights[k] != n {
			t.Errorf("Preflights[%q] = %d, want %d (all: %v)", k, st.Preflights[k], n, st.Preflights)
		}
	}
	// The API is still throttled: the preflights took nothing from it.
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status != http.StatusTooManyRequests {
		t.Errorf("API after the preflights: %d, want 429", r.status)
	}
}

// A preflight without Origin allows nothing; an OPTIONS without
// Access-Control-Request-Method is no preflight and goes to the router; a
// preflight outside api/* is no business of the CORS middleware.
func TestCORS_notPreflights(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	r := do(t, s, call{method: http.MethodOptions, path: "/api/event", accept: "-",
		header: map[string]string{"Access-Control-Request-Method": "POST"}})
	if r.status != http.StatusNoContent {
		t.Errorf("preflight without Origin: %d, want 204", r.status)
	}
	checkHeaders(t, "without Origin", r.header, map[string]string{
		"Access-Control-Allow-Origin": absent, "Access-Control-Allow-Methods": absent, "Access-Control-Allow-Credentials": absent,
		"Vary": "Origin, Access-Control-Request-Method",
	})
	r = do(t, s, call{method: http.MethodOptions, path: "/api/event", accept: "-", header: map[string]string{"Origin": pageOrigin}})
	if r.status != http.StatusOK || r.header.Get("Allow") != "POST" {
		t.Errorf("OPTIONS without Access-Control-Request-Method: %d, Allow %q; want the router's 200", r.status, r.header.Get("Allow"))
	}
	checkHeaders(t, "plain OPTIONS", r.header, map[string]string{
		"Access-Control-Allow-Origin": pageOrigin, "Access-Control-Allow-Credentials": "true",
		"Vary": "Access-Control-Request-Method, Origin", "Access-Control-Allow-Methods": absent,
	})
	r = do(t, s, call{method: http.MethodOptions, path: tracking.ScriptPath, accept: "-",
		header: map[string]string{"Origin": pageOrigin, "Access-Control-Request-Method": "GET"}})
	checkHeaders(t, "script", r.header, map[string]string{"Access-Control-Allow-Origin": absent, "Vary": absent})
	r = do(t, s, call{method: http.MethodOptions, path: "/apiary", accept: "-",
		header: map[string]string{"Origin": pageOrigin, "Access-Control-Request-Method": "GET"}})
	if r.status != http.StatusNotFound {
		t.Errorf("OPTIONS /apiary: %d, want the route 404", r.status)
	}
	checkHeaders(t, "/apiary", r.header, map[string]string{"Access-Control-Allow-Origin": absent, "Vary": absent})
	if st := s.Stats(); len(st.Preflights) != 1 || st.Preflights["POST /api/event"] != 1 {
		t.Errorf("Preflights = %v, want the one without Origin", st.Preflights)
	}
}

// Actual requests: with an Origin, every answer on api/* allows it, with
// credentials, whatever its status (recorded, 401, 404, 429); without one,
// it only varies on Origin.
func TestCORS_actualRequests(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{RateLimit: 4})
	create(t, s, keyA, url.Values{"domain": {"shop.test"}})
	withOrigin := map[string]string{"Origin": pageOrigin, "User-Agent": browserUA}
	allowed := map[string]string{"Access-Control-Allow-Origin": pageOrigin, "Access-Control-Allow-Credentials": "true",
		"Vary": "Origin", "Access-Control-Allow-Methods": absent, "Access-Control-Max-Age": absent}
	for _, tc := range []struct {
		name   string
		c      call
		status int
	}{
		{"tracked", call{method: "POST", path: "/api/event", ctype: "application/json; charset=utf-8",
			body: `{"page":"https://shop.test/","referrer":""}`, accept: "-", header: withOrigin}, 200},
		{"no key", call{path: "/api/v1/websites", header: withOrigin}, 401},
		{"no route", call{path: "/api/v1/nothing", key: keyA, header: withOrigin}, 404},
		{"throttled", call{path: "/api/v1/websites", key: keyA, header: withOrigin}, 429},
	} {
		r := do(t, s, tc.c)
		if r.status != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, r.status, r.body, tc.status)
		}
		checkHeaders(t, tc.name, r.header, allowed)
	}
	s.SetRateLimit(0, 0)
	r := do(t, s, call{path: "/api/v1/websites", key: keyA})
	checkHeaders(t, "without Origin", r.header, map[string]string{"Access-Control-Allow-Origin": absent,
		"Access-Control-Allow-Credentials": absent, "Vary": "Origin"})
	r = do(t, s, call{path: "/somewhere", key: keyA, header: withOrigin})
	checkHeaders(t, "outside api/*", r.header, map[string]string{"Access-Control-Allow-Origin": absent, "Vary": absent})
}

// The tracking script's requests, JSON bodies: a pageview is recorded as a
// form's is, and a custom event from its nested "event" object.
func TestTrack_jsonBodies(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	id := create(t, s, keyA, url.Values{"domain": {"shop.test"}, "exclude_params": {"utm_source"}})
	post := func(body string) result {
		return do(t, s, call{method: "POST", path: "/api/event", ctype: "application/json; charset=utf-8", body: body,
			accept: "-", header: map[string]string{"Origin": pageOrigin, "User-Agent": browserUA}})
	}
	expect(t, post(`{"referrer":"https://search.example/?q=shop","page":"http://www.shop.test:8080/landing?utm_source=x&keep=1","screen_resolution":"1280x720"}`), 200, "200")
	expect(t, post(`{"referrer":"http://www.shop.test:8080/landing?utm_source=x&keep=1","page":"http://www.shop.test:8080/next","screen_resolution":"1280x720"}`), 200, "200")
	expect(t, post(`{"event":{"name":"sign:up","value":2.5,"unit":"EUR"},"page":"http://www.shop.test:8080/next"}`), 200, "200")
	expect(t, post(`{"event":{"name":" newsletter ","value":"3"},"page":"http://www.shop.test:8080/next"}`), 200, "200")
	expect(t, post(`{"event":{"name":"ignored value","value":-1,"unit":null},"page":"http://www.shop.test:8080/next"}`), 200, "200")
	expect(t, post(`{"event":{"value":1},"page":"http://www.shop.test:8080/next"}`), 200, "")
	expect(t, post(`{"event":["a"],"page":"http://www.shop.test:8080/next"}`), 200, "")
	expect(t, post(`{"page":"http://www.other.test/"}`), 200, "404")

	got := map[string]int{}
	for _, st := range s.Statistics(id) {
		got[st.Name+" "+st.Value] = st.Count
	}
	for k, n := range map[string]int{
		"pageviews 2024-10-13": 2, "visitors 2024-10-13": 1, "page /landing?keep=1": 1, "page /next": 1,
		"landing_page /landing?keep=1": 1, "referrer search.example": 1, "resolution 1280x720": 1,
		"event sign up:2.5:EUR": 1, "event newsletter:3:": 1, "event ignored value::": 1,
	} {
		if got[k] != n {
			t.Errorf("%s: %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
}

// Injected faults on /api/v1 are answers of the application (a 429 burst of
// its throttle, a JSON exception) or of the gateway in front of it (nginx's
// HTML 502): the application's carry the CORS headers, as every other
// answer there does, the gateway's do not; and a preflight during a burst is
// still answered by HandleCors, before the throttle.
func TestCORS_injectedFaults(t *testing.T) {
	t.Parallel()
	withOrigin := map[string]string{"Origin": pageOrigin}
	allowed := map[string]string{"Access-Control-Allow-Origin": pageOrigin, "Access-Control-Allow-Credentials": "true",
		"Vary": "Origin"}
	s, _ := newTestServer(t, Options{Faults: &Faults{ThrottleRate: 1, ThrottleFor: time.Hour}})
	r := do(t, s, call{path: "/api/v1/websites", key: keyA, header: withOrigin})
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Fatalf("injected burst: %d %v, want 429 with Retry-After", r.status, r.header)
	}
	checkHeaders(t, "injected 429", r.header, allowed)
	r = do(t, s, call{method: http.MethodOptions, path: "/api/v1/websites/1", accept: "-",
		header: map[string]string{"Origin": pageOrigin, "Access-Control-Request-Method": "PUT"}})
	if r.status != http.StatusNoContent {
		t.Errorf("preflight during the burst: %d %q, want 204", r.status, r.body)
	}
	checkHeaders(t, "preflight during the burst", r.header, map[string]string{
		"Access-Control-Allow-Origin": pageOrigin, "Access-Control-Allow-Methods": "PUT"})

	for _, tc := range []struct {
		status int
		want   map[string]string
	}{
		{http.StatusInternalServerError, allowed},
		{http.StatusServiceUnavailable, allowed},
		{http.StatusBadGateway, map[string]string{"Access-Control-Allow-Origin": absent, "Vary": absent}},
	} {
		s, _ := newTestServer(t, Options{Faults: &Faults{ErrorRate: 1, ErrorStatuses: []int{tc.status}}})
		r := do(t, s, call{path: "/api/v1/websites", key: keyA, header: withOrigin})
		if r.status != tc.status {
			t.Errorf("injected %d: got %d", tc.status, r.status)
		}
		checkHeaders(t, fmt.Sprintf("injected %d", tc.status), r.header, tc.want)
	}
}

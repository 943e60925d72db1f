package emulator

// The tracking endpoint (package tracking) as the installation answers it:
// through the emulator's router, throttle, input middleware and state.
// Package tracking's own tests run its Record on a Store in memory.

import (
	"context"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

const (
	browserUA   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

// asBrowser is the header of a browser's request: Go's own user agent is
// a bot's (Go-http-client).
var asBrowser = map[string]string{"User-Agent": browserUA}

// trackFrom sends one tracking request from remote (host:port) through
// Respond, which is how a test sets the client's address.
func trackFrom(t *testing.T, s *Server, remote string, form url.Values, ua string) *Response {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, s.URL+"/api/event", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("User-Agent", ua)
	r.RemoteAddr = remote
	return s.Respond(r)
}

func TestTrack_answersAndExclusions(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	create(t, s, keyA, url.Values{"domain": {"example.com"}, "exclude_ips": {"10.0.0.0/8\r\n192.0.2.7\n2001:db8::/32\n 198.51.100.1"}})
	create(t, s, keyA, url.Values{"domain": {"nobots.example"}})
	create(t, s, keyA, url.Values{"domain": {"bots.example"}, "exclude_bots": {"0"}})

	tests := []struct {
		name, remote, page, ua string
		want                   string
	}{
		{"recorded", "203.0.113.5:1234", "https://example.com/", browserUA, "200"},
		{"www. is not part of the domain", "203.0.113.5:1234", "https://www.example.com/a", browserUA, "200"},
		{"host case is ignored", "203.0.113.5:1234", "https://Example.COM/a", browserUA, "200"},
		{"unknown domain", "203.0.113.5:1234", "https://other.example/", browserUA, "404"},
		{"no host", "203.0.113.5:1234", "/relative", browserUA, "404"},
		{"CIDR v4", "10.1.2.3:1", "https://example.com/", browserUA, "403"},
		{"address v4", "192.0.2.7:1", "https://example.com/", browserUA, "403"},
		{"other address", "192.0.2.8:1", "https://example.com/", browserUA, "200"},
		{"CIDR v6", "[2001:db8::1]:1", "https://example.com/", browserUA, "403"},
		{"other v6", "[2001:db9::1]:1", "https://example.com/", browserUA, "200"},
		{"entry with spaces never matches", "198.51.100.1:1", "https://example.com/", browserUA, "200"},
		{"bot excluded by default", "203.0.113.5:1", "https://nobots.example/", googlebotUA, "403"},
		{"bingbot", "203.0.113.5:1", "https://nobots.example/", "Mozilla/5.0 (compatible; bingbot/2.0)", "403"},
		{"curl is a bot", "203.0.113.5:1", "https://nobots.example/", "curl/8.5.0", "403"},
		{"bots recorded when not excluded", "203.0.113.5:1", "https://bots.example/", googlebotUA, "200"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := trackFrom(t, s, tc.remote, url.Values{"page": {tc.page}}, tc.ua)
			if resp.Status != http.StatusOK || string(resp.Body) != tc.want {
				t.Errorf("got %d %q, want 200 %q", resp.Status, resp.Body, tc.want)
			}
		})
	}
}

// The tracking endpoint looks the page's host up literally. A browser
// sends the host in ASCII (punycode) and without a trailing dot, so a
// website stored in Unicode or with a trailing dot records no pageview from
// a browser: only a page URL written as the domain is stored matches.
func TestTrack_unicodeAndTrailingDotDomains(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	create(t, s, keyA, url.Values{"domain": {"bücher.example"}})
	create(t, s, keyA, url.Values{"domain": {"shop.example.com."}})
	for page, want := range map[string]string{
		"http://xn--bcher-kva.example/": "404", // what a browser sends
		"http://bücher.example/":        "200",
		"https://shop.example.com/":     "404", // what a browser sends
		"https://shop.example.com./":    "200",
	} {
		resp := trackFrom(t, s, "203.0.113.5:1", url.Values{"page": {page}}, browserUA)
		if resp.Status != http.StatusOK || string(resp.Body) != want {
			t.Errorf("%s: got %d %q, want 200 %q", page, resp.Status, resp.Body, want)
		}
	}
}

func TestTrack_records(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		excludeParams string
		page          string
		referrer      string
		wantPage      string
		wantVisitor   bool
	}{
		{"path and query kept", "", "https://d.example/landing?utm_source=x&keep=1", "", "/landing?utm_source=x&keep=1", true},
		{"excluded parameter removed", "utm_source", "https://d.example/landing?utm_source=x&keep=1", "", "/landing?keep=1", true},
		{"several, CRLF separated", "utm_source\r\nfbclid", "https://d.example/p?fbclid=1&utm_source=2&a=b+c", "", "/p?a=b+c", true},
		{"& removes every parameter", "&", "https://d.example/landing?utm_source=x&keep=1", "", "/landing", true},
		{"no path", "", "https://d.example", "", "/", true},
		{"internal referrer is no new visitor", "", "https://d.example/b", "https://www.d.example/a", "/b", false},
		{"external referrer", "", "https://d.example/b", "https://search.example/?q=d", "/b", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			id := create(t, s, keyA, url.Values{"domain": {"d.example"}, "exclude_params": {tc.excludeParams}})
			got, err := tracking.SendHit(context.Background(), nil, s.URL, tracking.Hit{Page: tc.page, Referrer: tc.referrer, UserAgent: browserUA})
			if err != nil || got != "200" {
				t.Fatalf("SendHit: %q, %v", got, err)
			}
			rows := map[string]Statistic{}
			for _, st := range s.Statistics(id) {
				rows[st.Name] = st
			}
			if p := rows["page"]; p.Value != tc.wantPage || p.Count != 1 {
				t.Errorf("page = %+v, want %q", p, tc.wantPage)
			}
			if pv := rows["pageviews"]; pv.Value != "2024-10-13" || pv.Date != "2024-10-13" || pv.Count != 1 {
				t.Errorf("pageviews = %+v", pv)
			}
			if _, ok := rows["visitors"]; ok != tc.wantVisitor {
				t.Errorf("visitors recorded: %v, want %v (%v)", ok, tc.wantVisitor, rows)
			}
			if lp := rows["landing_page"]; tc.wantVisitor && lp.Value != tc.wantPage {
				t.Errorf("landing_page = %+v, want %q", lp, tc.wantPage)
			}
		})
	}
}

// A pageview as the tracking script sends it from a page of another origin:
// navigator.sendBeacon with URLSearchParams, whose Content-Type carries a
// charset, with an Origin header and without Accept.
func TestTrack_beaconFromBrowser(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	id := create(t, s, keyA, url.Values{"domain": {"shop.test"}, "exclude_params": {"utm_source"}})
	body := "page=http%3A%2F%2Fwww.shop.test%3A8080%2Flanding%3Futm_source%3Dx%26keep%3D1&referrer=&screen_resolution=1280x720"
	r := do(t, s, call{method: http.MethodPost, path: "/api/event", body: body, accept: "-",
		ctype:  "application/x-www-form-urlencoded;charset=UTF-8",
		header: map[string]string{"Origin": "http://www.shop.test:8080", "User-Agent": browserUA}})
	expect(t, r, 200, "200")
	rows := map[string]Statistic{}
	for _, st := range s.Statistics(id) {
		rows[st.Name] = st
	}
	if rows["page"].Value != "/landing?keep=1" || rows["resolution"].Value != "1280x720" || rows["pageviews"].Count != 1 {
		t.Errorf("recorded %+v", rows)
	}
}

func TestTrack_routeThrottleAndCounters(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{RateLimit: 3}) // the store, then three requests
	create(t, s, keyA, url.Values{"domain": {"d.example"}})
	s.ResetStats()
	form := url.Values{"page": {"https://d.example/"}}
	expect(t, do(t, s, call{method: "POST", path: "/api/event", form: form, header: asBrowser}), 200, "200")
	r := do(t, s, call{method: "GET", path: "/api/event"})
	if r.status != http.StatusMethodNotAllowed || !strings.Contains(r.body, "Supported methods: POST.") {
		t.Errorf("GET /api/event: %d %s", r.status, r.body)
	}
	if r := do(t, s, call{method: "POST", path: "/api/event", form: form, header: asBrowser}); r.status != http.StatusTooManyRequests {
		t.Errorf("third request in the window: %d %s, want 429", r.status, r.body)
	}
	st := s.Stats()
	if st.ByRoute["POST /api/event"] != 2 || st.ByRoute["GET /api/event"] != 1 || st.Throttled != 1 {
		t.Errorf("counters: %+v", st.ByRoute)
	}
}

func TestTrack_eventAndAccountOverLimit(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{Users: []User{{Key: keyA}, {Key: keyB, OverPageviewLimit: true}}})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	create(t, s, keyB, url.Values{"domain": {"b.example"}})
	ev := url.Values{"page": {"https://a.example/"}, "event[name]": {"sign:up"}, "event[value]": {"3"}}
	expect(t, do(t, s, call{method: "POST", path: "/api/event", form: ev, header: asBrowser}), 200, "200")
	expect(t, do(t, s, call{method: "POST", path: "/api/event", form: url.Values{"page": {"https://a.example/"}, "event[value]": {"1"}}, header: asBrowser}), 200, "")
	got := s.Statistics(a)
	if len(got) != 1 || got[0].Name != "event" || got[0].Value != "sign up:3:" {
		t.Errorf("event rows: %+v", got)
	}
	expect(t, do(t, s, call{method: "POST", path: "/api/event", form: url.Values{"page": {"https://b.example/"}}, header: asBrowser}), 200, "403")
}

// clockDays tracks n pageviews of page on each of the given days, moving
// the fake clock.
func clockDays(t *testing.T, s *Server, clock *testclock.Clock, page string, days map[string]int) {
	t.Helper()
	for day, n := range days {
		d, err := time.Parse(time.DateOnly, day)
		if err != nil {
			t.Fatal(err)
		}
		clock.SetDay(d)
		for range n {
			if got, err := tracking.SendHit(context.Background(), nil, s.URL, tracking.Hit{Page: page, UserAgent: browserUA}); err != nil || got != "200" {
				t.Fatalf("SendHit: %q, %v", got, err)
			}
		}
	}
}

// A custom event's fields pass TrimStrings as every input does
// (internal/laravel), sent as a form or as JSON alike.
func TestTrack_eventTrimmedAsTheMiddlewareDoes(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	name := "\ufeffsign:up\u200b\u0085"
	expect(t, do(t, s, call{method: "POST", path: "/api/event", header: asBrowser,
		form: url.Values{"page": {"https://a.example/"}, "event[name]": {name}, "event[unit]": {"EUR\u180e"}}}), 200, "200")
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: "application/json", accept: "-", header: asBrowser,
		body: `{"event":{"name":"\ufeffsign:up\u200b\u0085","unit":"EUR\u180e"},"page":"https://a.example/"}`}), 200, "200")
	got := s.Statistics(a)
	if len(got) != 1 || got[0].Value != "sign up::EUR" || got[0].Count != 2 {
		t.Errorf("event rows: %+v, want one row \"sign up::EUR\" counted twice (form and JSON)", got)
	}
}

// With NoTrimStrings, a custom event's fields keep their ends, as every
// other input does (form and JSON alike).
func TestTrack_eventUntrimmedWithNoTrimStrings(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{NoTrimStrings: true})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	expect(t, do(t, s, call{method: "POST", path: "/api/event", header: asBrowser,
		form: url.Values{"page": {"https://a.example/"}, "event[name]": {" sign\u200b"}, "event[unit]": {"EUR "}}}), 200, "200")
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: "application/json", accept: "-", header: asBrowser,
		body: `{"event":{"name":" sign\u200b","unit":"EUR "},"page":"https://a.example/"}`}), 200, "200")
	got := s.Statistics(a)
	if len(got) != 1 || got[0].Value != " sign\u200b::EUR " || got[0].Count != 2 {
		t.Errorf("event rows: %+v, want one row %q counted twice (form and JSON)", got, " sign\u200b::EUR ")
	}
}

// A custom event's fields come from where $request->input('event') finds
// "event": the body's event replaces the query's whole (Laravel's input()
// is the body's fields + the query's), and an event only in the query is
// read there, under a JSON body too.
func TestTrack_eventFromOneSource(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	expect(t, do(t, s, call{method: "POST", path: "/api/event?event%5Bunit%5D=EUR", header: asBrowser,
		form: url.Values{"page": {"https://a.example/"}, "event[name]": {"form"}}}), 200, "200")
	expect(t, do(t, s, call{method: "POST", path: "/api/event?event%5Bname%5D=query", ctype: "application/json", accept: "-",
		header: asBrowser, body: `{"page":"https://a.example/"}`}), 200, "200")
	got := map[string]int{}
	for _, row := range s.Statistics(a) {
		got[row.Value] += row.Count
	}
	if want := map[string]int{"form::": 1, "query::": 1}; !maps.Equal(got, want) {
		t.Errorf("event rows: %v, want %v", got, want)
	}
}

// A custom event sent as multipart/form-data is read as PHP fills $_POST
// from it (curl -F 'event[name]=...').
func TestTrack_eventMultipart(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	var body strings.Builder
	mw := multipart.NewWriter(&body)
	for _, f := range [][2]string{{"page", "https://a.example/"}, {"event[name]", " sign:up "}, {"event[unit]", "EUR"}} {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: mw.FormDataContentType(), accept: "-",
		header: asBrowser, body: body.String()}), 200, "200")
	if got := s.Statistics(a); len(got) != 1 || got[0].Value != "sign up::EUR" {
		t.Errorf("event rows: %+v, want one row \"sign up::EUR\"", got)
	}
}

// PHP drops the spaces that begin a field's name ("+event[name]" is
// event[name]), for the event's fields as for every other field.
func TestTrack_eventNameLeadingSpace(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: "application/x-www-form-urlencoded", accept: "-",
		header: asBrowser, body: "page=https%3A%2F%2Fa.example%2F&+event%5Bname%5D=sign&%20event%5Bunit%5D=EUR"}), 200, "200")
	if got := s.Statistics(a); len(got) != 1 || got[0].Value != "sign::EUR" {
		t.Errorf("event rows: %+v, want one row \"sign::EUR\"", got)
	}
}

// A JSON body that is not valid UTF-8 gives no input, as PHP's json_decode
// fails on it (Malformed UTF-8 characters): no page, so no website.
func TestTrack_jsonInvalidUTF8(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: "application/json", accept: "-", header: asBrowser,
		body: "{\"page\":\"https://a.example/\xff\"}"}), 200, "404")
	if got := s.Statistics(a); len(got) != 0 {
		t.Errorf("rows: %+v, want none", got)
	}
}

// An event's value is kept when PHP's is_numeric takes it (php.Numeric), not
// Go's ParseFloat: "Infinity", "NaN" and "0x1p4" are no numbers to PHP.
func TestTrack_eventValueIsNumericAsPHP(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	for _, v := range []string{"Infinity", "inf", "0x1p4", "1e3", ".5"} {
		expect(t, do(t, s, call{method: "POST", path: "/api/event", header: asBrowser,
			form: url.Values{"page": {"https://a.example/"}, "event[name]": {"n"}, "event[value]": {v}}}), 200, "200")
	}
	got := map[string]int{}
	for _, row := range s.Statistics(a) {
		got[row.Value] += row.Count
	}
	if want := map[string]int{"n::": 3, "n:1e3:": 1, "n:.5:": 1}; !maps.Equal(got, want) {
		t.Errorf("event rows: %v, want %v", got, want)
	}
}

// PHP drops the spaces that begin a multipart field's name too.
func TestTrack_multipartNameLeadingSpace(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	create(t, s, keyA, url.Values{"domain": {"a.example"}})
	var body strings.Builder
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField(" page", "https://a.example/"); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: mw.FormDataContentType(), accept: "-",
		header: asBrowser, body: body.String()}), 200, "200")
}

// The event is the JSON key "event" exactly (PHP's arrays are case
// sensitive; Go's struct decoding is not).
func TestTrack_eventJSONKeyExact(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	a := create(t, s, keyA, url.Values{"domain": {"a.example"}})
	expect(t, do(t, s, call{method: "POST", path: "/api/event", ctype: "application/json", accept: "-", header: asBrowser,
		body: `{"event":{"name":"lower"},"Event":{"name":"upper"},"page":"https://a.example/"}`}), 200, "200")
	if got := s.Statistics(a); len(got) != 1 || got[0].Value != "lower::" {
		t.Errorf("event rows: %+v, want one row \"lower::\"", got)
	}
}

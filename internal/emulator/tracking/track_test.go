package tracking

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// The endpoint's tests through the emulator, with its routing, throttle,
// input middleware and state, are the emulator's (internal/emulator's
// track_test.go, cors_test.go, tracking_script_test.go). These run Record
// on a Store in memory.

// memStore is a Store of a few websites in memory, with the rows recorded.
type memStore struct {
	sites []Site
	rows  map[int64]map[Row]int
}

func (m *memStore) Site(domain string) (Site, bool) {
	for _, s := range m.sites {
		if strings.EqualFold(s.Domain, domain) {
			return s, true
		}
	}
	return Site{}, false
}

func (m *memStore) Record(id int64, _ string, rows []Row) error {
	if m.rows == nil {
		m.rows = map[int64]map[Row]int{}
	}
	if m.rows[id] == nil {
		m.rows[id] = map[Row]int{}
	}
	for _, r := range rows {
		m.rows[id][r]++
	}
	return nil
}

// pageview is a pageview of page, referred by referrer, from a browser
// that sends userAgent, as a urlencoded form.
func pageview(page, referrer, userAgent string) Request {
	form := url.Values{"page": {page}, "referrer": {referrer}}
	body := form.Encode()
	r := httptest.NewRequest(http.MethodPost, "http://analytics.test"+Path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("User-Agent", userAgent)
	return Request{
		HTTP: r, Body: []byte(body), ClientIP: "203.0.113.5", Trim: true,
		Now: time.Date(2024, 10, 13, 13, 9, 15, 0, time.UTC),
		Input: func(k string) any {
			if v := form.Get(k); v != "" {
				return v
			}
			return nil // ConvertEmptyStringsToNull
		},
		InBody: form.Has,
	}
}

// record is Record's answer to req, failing t on an error.
func record(t *testing.T, store Store, req Request) string {
	t.Helper()
	got, err := Record(store, req)
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	return got
}

// Every row of botCases: "403" for a bot when the website excludes bots
// (the default), "200" otherwise, and always "200" when it does not
// exclude them.
func TestRecord_botsAsTheApplicationDecides(t *testing.T) {
	t.Parallel()
	store := &memStore{sites: []Site{
		{ID: 1, Domain: "nobots.example", ExcludeBots: true},
		{ID: 2, Domain: "bots.example"},
	}}
	for _, tc := range botCases {
		want := "200"
		if tc.bot {
			want = "403"
		}
		if got := record(t, store, pageview("https://nobots.example/", "", tc.ua)); got != want {
			t.Errorf("exclude_bots on, %q: %q, want %q", tc.ua, got, want)
		}
		if got := record(t, store, pageview("https://bots.example/", "", tc.ua)); got != "200" {
			t.Errorf("exclude_bots off, %q: %q, want 200", tc.ua, got)
		}
	}
}

// A visit records its browser, OS and device under those names, counted
// once per visitor (not for a visit referred by the website itself).
func TestRecord_browserOSAndDevice(t *testing.T) {
	t.Parallel()
	store := &memStore{sites: []Site{{ID: 1, Domain: "d.example", ExcludeBots: true}}}
	want := map[Row]int{}
	for _, tc := range currentBrowsers {
		if tc.device == "bot" {
			continue // exclude_bots is on by default
		}
		if got := record(t, store, pageview("https://d.example/", "", tc.userAgent)); got != "200" {
			t.Fatalf("%s: %q, want 200", tc.name, got)
		}
		want[Row{"browser", tc.browser}]++
		want[Row{"os", tc.os}]++
		want[Row{"device", tc.device}]++
		// The same visitor going on to another page of the website: no
		// new visitor, nothing recorded under these names.
		if got := record(t, store, pageview("https://d.example/next", "https://d.example/", tc.userAgent)); got != "200" {
			t.Fatalf("%s (internal referrer): %q, want 200", tc.name, got)
		}
	}
	got := map[Row]int{}
	for r, n := range store.rows[1] {
		switch r.Name {
		case "browser", "os", "device":
			got[r] += n
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s %q: count %d, want %d", k.Name, k.Value, got[k], n)
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %q: count %d, want none", k.Name, k.Value, n)
		}
	}
}

// A JSON number of an event reads as PHP turns a float into a string
// (precision 14, an exponent from 1.0E+15 and below 0.0001): the value
// 0.30000000000000004 (JavaScript's 0.1 + 0.2) is "0.3", kept; 1e15 is
// "1.0E+15", kept (7 characters); 0.00001 is "1.0E-5"; an integer stays as
// written. Each expected string is PHP 8.2's, e.g.
// php -r 'echo "" . json_decode("0.30000000000000004");'.
func TestTrack_eventJSONNumberAsPHPString(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"0.30000000000000004": "0.3", "1e15": "1.0E+15", "1e14": "1.0E+14", "0.00001": "1.0E-5", "0.0001": "0.0001",
		"123456789012345": "123456789012345", "1234567.5": "1234567.5", "100.0": "100", "2.5e3": "2500",
		"12345678901234.5": "12345678901234", "1.5e-7": "1.5E-7", "123456789012345.0": "1.2345678901234E+14",
		"384315159453505.0": "3.8431515945350E+14", "-1.5e-7": "-1.5E-7", "1e400": "INF", "true": "1", "false": "",
	} {
		if got := jsonEvent([]byte(`{"event":{"value":`+raw+`}}`), func(s string) string { return s })["value"]; got != want {
			t.Errorf("value %s reads as %q, PHP reads %q", raw, got, want)
		}
	}
}

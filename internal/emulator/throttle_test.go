package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

func TestThrottleFakeClock(t *testing.T) {
	t.Parallel()
	s, clock := newTestServer(t, Options{RateLimit: 3, RateWindow: 2 * time.Second})
	steps := []struct {
		key       string
		path      string
		status    int
		remaining string
	}{
		{keyA, "/api/v1/websites", 200, "2"},
		{"bad-key", "/api/v1/websites", 401, "1"}, // bad keys count: throttle runs first
		{keyB, "/api/v1/nowhere", 404, "0"},       // every key from the IP shares the bucket
	}
	for i, st := range steps {
		r := do(t, s, call{path: st.path, key: st.key})
		if r.status != st.status || r.header.Get("X-RateLimit-Limit") != "3" || r.header.Get("X-RateLimit-Remaining") != st.remaining {
			t.Fatalf("step %d: %d limit %q remaining %q", i, r.status, r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"))
		}
		if r.header.Get("Retry-After") != "" {
			t.Fatalf("step %d: Retry-After on an allowed request", i)
		}
	}
	clock.Advance(500 * time.Millisecond)
	r := do(t, s, call{path: "/api/v1/websites", key: keyA})
	expect(t, r, 429, tooMany)
	wantReset := strconv.FormatInt(clock.Now().Unix()+2, 10)
	if r.header.Get("Retry-After") != "2" || r.header.Get("X-RateLimit-Reset") != wantReset ||
		r.header.Get("X-RateLimit-Remaining") != "0" || r.header.Get("X-RateLimit-Limit") != "3" {
		t.Errorf("429 headers: %v (want reset %s)", r.header, wantReset)
	}
	// Refused requests do not extend the window; a new one starts after it.
	clock.Advance(1499 * time.Millisecond)
	expect(t, do(t, s, call{path: "/api/v1/websites/1", key: keyA}), 429, tooMany)
	clock.Advance(time.Millisecond)
	r = do(t, s, call{path: "/api/v1/websites/1", key: keyA})
	expect(t, r, 404, notFound)
	if r.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("new window remaining %q", r.header.Get("X-RateLimit-Remaining"))
	}
	st := s.Stats()
	if st.Throttled != 2 || st.ByStatus["429"] != 2 || st.Total != 6 {
		t.Errorf("stats %+v", st)
	}
	// Turned off at run time: no headers at all.
	s.SetRateLimit(0, 0)
	r = do(t, s, call{path: "/api/v1/websites", key: keyA})
	if r.status != 200 || r.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("off: %d %v", r.status, r.header)
	}
}

func TestThrottleRealTimeShortWindow(t *testing.T) {
	t.Parallel()
	s := NewServer(t, Options{RateLimit: 2, RateWindow: time.Second})
	get := func() result { return do(t, s, call{path: "/api/v1/websites", key: DefaultAPIKey}) }
	start := time.Now()
	get()
	get()
	r := get()
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("third request: %d", r.status)
	}
	if time.Since(start) < 900*time.Millisecond && r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	reset, err := strconv.ParseInt(r.header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset < start.Unix() || reset > time.Now().Unix()+1 {
		t.Errorf("X-RateLimit-Reset %q", r.header.Get("X-RateLimit-Reset"))
	}
	// The window began before the third request was answered: sleeping a
	// window from now is always enough, however slow the requests were.
	time.Sleep(time.Second)
	if r := get(); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "1" {
		t.Errorf("after the window: %d remaining %q", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
	// SetRateLimit at run time starts afresh. Retry-After counts whole
	// seconds left: 60, less one per second the two requests took.
	s.SetRateLimit(1, time.Minute)
	before := time.Now()
	get()
	r = get()
	took := int64((time.Since(before) + time.Second - 1) / time.Second)
	if ra, err := strconv.ParseInt(r.header.Get("Retry-After"), 10, 64); r.status != 429 || err != nil || ra > 60 || ra < 60-took {
		t.Errorf("after SetRateLimit: %d Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
}

func TestKeyOutsideHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       call
		status  int
		outside int
	}{
		{"bearer", call{path: "/api/v1/websites", key: keyA}, 200, 0},
		{"query api_token", call{path: "/api/v1/websites?api_token=" + keyA}, 200, 1},
		{"query beats bearer", call{path: "/api/v1/websites?api_token=wrong", key: keyA}, 401, 1},
		{"form api_token", call{method: "POST", path: "/api/v1/websites", form: url.Values{"api_token": {keyA}, "domain": {"f.com"}}}, 201, 1},
		{"basic password", call{path: "/api/v1/websites", header: map[string]string{"Authorization": "Basic " + basic("u", keyA)}}, 200, 1},
		{"wrong key in query", call{path: "/api/v1/websites?api_token=nope"}, 401, 1},
		{"empty query token falls back to bearer", call{path: "/api/v1/websites?api_token=", key: keyA}, 200, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			r := do(t, s, tc.c)
			if r.status != tc.status {
				t.Fatalf("status %d %s", r.status, r.body)
			}
			if got := s.Stats().KeyOutsideHeader; got != tc.outside {
				t.Errorf("key_outside_header %d, want %d", got, tc.outside)
			}
		})
	}
}

func basic(user, pw string) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(user, pw)
	return req.Header.Get("Authorization")[len("Basic "):]
}

func TestStatsEndpoints(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	create(t, s, keyA, url.Values{"domain": {"x.com"}})
	do(t, s, call{path: "/api/v1/websites/1", key: keyA})
	do(t, s, call{path: "/api/v1/websites/1", key: keyA})
	do(t, s, call{method: "PATCH", path: "/api/v1/websites/1", key: keyA, form: url.Values{"email": {"1"}}})
	do(t, s, call{path: "/api/v1/websites?api_token=" + keyA})
	do(t, s, call{path: "/api/v1/bogus", key: keyA})
	do(t, s, call{path: "/elsewhere", key: keyA}) // not counted

	r := do(t, s, call{path: "/__emulator/stats"})
	want := `{"total":6,"by_method":{"GET":4,"PATCH":1,"POST":1},` +
		`"by_route":{"GET (unknown)":1,"GET /api/v1/websites":1,"GET /api/v1/websites/{id}":2,"PATCH /api/v1/websites/{id}":1,"POST /api/v1/websites":1},` +
		`"by_status":{"200":4,"201":1,"404":1},"throttled":0,"key_outside_header":1,"preflights":{}}` + "\n"
	expect(t, r, 200, want)
	var st Stats
	decode(t, r, &st)
	if got, _ := json.Marshal(s.Stats()); string(got)+"\n" != want {
		t.Errorf("Stats() = %s", got)
	}
	expect(t, do(t, s, call{method: "POST", path: "/__emulator/reset-stats"}), 204, "")
	if got := fmt.Sprintf("%+v", s.Stats()); got != "{Total:0 ByMethod:map[] ByRoute:map[] ByStatus:map[] Throttled:0 KeyOutsideHeader:0 Preflights:map[]}" {
		t.Errorf("after reset: %s", got)
	}
	if r := do(t, s, call{method: "GET", path: "/__emulator/reset-stats"}); r.status != 405 {
		t.Errorf("GET reset-stats: %d", r.status)
	}
	// The control endpoints are neither throttled nor counted.
	s.SetRateLimit(1, time.Minute)
	for range 3 {
		if r := do(t, s, call{path: "/__emulator/stats"}); r.status != 200 {
			t.Fatalf("stats throttled: %d", r.status)
		}
	}
	if s.Stats().Total != 0 {
		t.Errorf("control requests counted")
	}
}

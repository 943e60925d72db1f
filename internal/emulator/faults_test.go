package emulator

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawResult is one answer, or the transport error that replaced it.
type rawResult struct {
	status  int
	header  http.Header
	body    string
	err     error // from sending or from reading the body
	elapsed time.Duration
}

// rawDo sends one request without any retry (a fresh connection each time,
// so a reset connection is never reused) and reports transport errors.
func rawDo(t *testing.T, s *Server, method, path string, form url.Values) rawResult {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, s.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+keyA)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return rawResult{err: err, elapsed: time.Since(start)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return rawResult{status: resp.StatusCode, header: resp.Header, body: string(raw), err: err, elapsed: time.Since(start)}
}

func storeForm(domain string) url.Values {
	return url.Values{"domain": {domain}, "privacy": {"0"}, "email": {"0"}, "exclude_bots": {"1"}}
}

func TestFaultsEachKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults Faults
		method string
		// committed is whether the POST's website must exist afterwards.
		committed bool
		check     func(t *testing.T, r rawResult)
	}{
		{
			name: "error 502", faults: Faults{ErrorRate: 1, ErrorStatuses: []int{502}}, method: "POST",
			check: func(t *testing.T, r rawResult) {
				if r.err != nil || r.status != 502 || !strings.Contains(r.body, "502 Bad Gateway") {
					t.Errorf("got %d %q %v", r.status, r.body, r.err)
				}
			},
		},
		{
			name: "error 500", faults: Faults{ErrorRate: 1, ErrorStatuses: []int{500}}, method: "POST",
			check: func(t *testing.T, r rawResult) {
				if r.status != 500 || r.body != serverErr {
					t.Errorf("got %d %q %v", r.status, r.body, r.err)
				}
			},
		},
		{
			name: "error 503", faults: Faults{ErrorRate: 1, ErrorStatuses: []int{503}}, method: "POST",
			check: func(t *testing.T, r rawResult) {
				if r.status != 503 || r.body != laravelJSON("Service Unavailable") {
					t.Errorf("got %d %q %v", r.status, r.body, r.err)
				}
			},
		},
		{
			name: "reset before routing", faults: Faults{ResetBeforeRate: 1}, method: "POST",
			check: func(t *testing.T, r rawResult) {
				if r.err == nil {
					t.Errorf("got an answer %d %q, want a reset connection", r.status, r.body)
				}
			},
		},
		{
			name: "reset after commit", faults: Faults{ResetAfterRate: 1}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.err == nil {
					t.Errorf("got an answer %d %q, want a reset connection", r.status, r.body)
				}
			},
		},
		{
			name: "error after commit", faults: Faults{ErrorAfterCommitRate: 1}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.status != 502 {
					t.Errorf("got %d %q %v", r.status, r.body, r.err)
				}
			},
		},
		{
			name: "truncated", faults: Faults{TruncateRate: 1}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.status != 201 || !errors.Is(r.err, io.ErrUnexpectedEOF) {
					t.Errorf("got %d %q %v, want 201 and an unexpected EOF", r.status, r.body, r.err)
				}
				if n, _ := strconv.Atoi(r.header.Get("Content-Length")); n <= len(r.body) {
					t.Errorf("Content-Length %d, body %d bytes", n, len(r.body))
				}
			},
		},
		{
			name: "malformed", faults: Faults{MalformedRate: 1}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.err != nil || r.status != 201 || json.Valid([]byte(r.body)) || !strings.HasPrefix(r.body, `{"data":{"id":1,`) {
					t.Errorf("got %d %q %v, want 201 and malformed JSON", r.status, r.body, r.err)
				}
			},
		},
		{
			name: "slow body", faults: Faults{SlowBodyRate: 1, SlowBodyDelay: 30 * time.Millisecond, SlowBodyChunks: 3}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.err != nil || r.status != 201 || !json.Valid([]byte(r.body)) {
					t.Errorf("got %d %q %v", r.status, r.body, r.err)
				}
				if r.elapsed < 60*time.Millisecond {
					t.Errorf("answered in %s, want at least 2 delays of 30ms", r.elapsed)
				}
			},
		},
		{
			name: "latency", faults: Faults{Latency: 50 * time.Millisecond, LatencyJitter: 10 * time.Millisecond}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.err != nil || r.status != 201 || r.elapsed < 50*time.Millisecond {
					t.Errorf("got %d %v in %s", r.status, r.err, r.elapsed)
				}
			},
		},
		{
			name: "methods filter", faults: Faults{ErrorRate: 1, Methods: []string{"put", "DELETE"}}, method: "POST", committed: true,
			check: func(t *testing.T, r rawResult) {
				if r.status != 201 {
					t.Errorf("got %d %q %v, want the POST untouched", r.status, r.body, r.err)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := tc.faults
			s := NewServer(t, Options{Users: []User{{Key: keyA}}, Faults: &f})
			tc.check(t, rawDo(t, s, tc.method, "/api/v1/websites", storeForm("example.com")))
			if got := len(s.Websites()); got != map[bool]int{false: 0, true: 1}[tc.committed] {
				t.Errorf("%d websites stored, want committed = %v", got, tc.committed)
			}
			counts := s.FaultCounts()
			kinds := 0
			for k, n := range counts {
				if k != FaultLatency {
					kinds += n
				}
			}
			if want := map[bool]int{false: 1, true: 0}[tc.name == "latency" || tc.name == "methods filter"]; kinds != want {
				t.Errorf("FaultCounts() = %v", counts)
			}
			// Turned off: the next request is answered normally.
			if err := s.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			if r := rawDo(t, s, "GET", "/api/v1/websites", nil); r.err != nil || r.status != 200 {
				t.Errorf("after SetFaults(nil): %d %v", r.status, r.err)
			}
		})
	}
}

func TestFaultsMalformedOnlySpoilsSuccess(t *testing.T) {
	t.Parallel()
	s := NewServer(t, Options{Users: []User{{Key: keyA}}, Faults: &Faults{MalformedRate: 1}})
	r := rawDo(t, s, "GET", "/api/v1/websites/99", nil)
	if r.status != 404 || r.body != notFound {
		t.Errorf("got %d %q", r.status, r.body)
	}
}

func TestFaultsThrottleBurst(t *testing.T) {
	t.Parallel()
	clock := newClock()
	s := NewServer(t, Options{Users: []User{{Key: keyA}}, Clock: clock.Now,
		Faults: &Faults{ThrottleRate: 1, ThrottleFor: 1500 * time.Millisecond, Methods: []string{"POST"}}})
	r := rawDo(t, s, "POST", "/api/v1/websites", storeForm("example.com"))
	if r.status != 429 || r.body != tooMany || r.header.Get("Retry-After") != "2" ||
		r.header.Get("X-RateLimit-Reset") != strconv.FormatInt(t0.Unix()+2, 10) {
		t.Fatalf("got %d %q %v", r.status, r.body, r.header)
	}
	if got := r.header.Get("Date"); got != t0.Format(http.TimeFormat) {
		t.Errorf("Date %q, want the emulator's clock", got)
	}
	// The burst refuses every method while it lasts.
	clock.Advance(time.Second)
	if r := rawDo(t, s, "GET", "/api/v1/websites", nil); r.status != 429 || r.header.Get("Retry-After") != "1" {
		t.Errorf("during the burst: %d %v", r.status, r.header)
	}
	clock.Advance(500 * time.Millisecond)
	if r := rawDo(t, s, "GET", "/api/v1/websites", nil); r.status != 200 {
		t.Errorf("after the burst: %d %q", r.status, r.body)
	}
	if len(s.Websites()) != 0 {
		t.Error("a throttled POST was committed")
	}
	if c := s.FaultCounts(); c[FaultThrottle] != 2 {
		t.Errorf("FaultCounts() = %v", c)
	}
	if c := s.FaultCountsByMethod(); c["throttle POST"] != 1 || c["throttle GET"] != 1 || len(c) != 2 {
		t.Errorf("FaultCountsByMethod() = %v", c)
	}
	// Faults do not reach the throttle or the stats.
	if st := s.Stats(); st.Total != 1 {
		t.Errorf("Stats().Total = %d, want only the answered request", st.Total)
	}
}

func TestFaultsMaxFaults(t *testing.T) {
	t.Parallel()
	s := NewServer(t, Options{Users: []User{{Key: keyA}}, Faults: &Faults{ErrorRate: 1, MaxFaults: 2, Methods: []string{"GET"}}})
	var got []int
	for range 4 {
		got = append(got, rawDo(t, s, "GET", "/api/v1/websites", nil).status)
	}
	if len(got) != 4 || got[0] < 500 || got[1] < 500 || got[2] != 200 || got[3] != 200 {
		t.Errorf("statuses %v, want two faults then answers", got)
	}
}

func TestFaultsDeterministic(t *testing.T) {
	t.Parallel()
	run := func() []string {
		f := Faults{Seed: 42, ErrorRate: 0.3, ErrorStatuses: []int{500, 503}, MalformedRate: 0.3}
		s := NewServer(t, Options{Users: []User{{Key: keyA}}, Faults: &f})
		var out []string
		for range 30 {
			r := rawDo(t, s, "GET", "/api/v1/websites", nil)
			out = append(out, strconv.Itoa(r.status)+strconv.FormatBool(json.Valid([]byte(r.body))))
		}
		return out
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different faults:\n%v\n%v", a, b)
	}
	kinds := map[string]bool{}
	for _, o := range a {
		kinds[o] = true
	}
	if len(kinds) < 3 {
		t.Errorf("30 draws gave only %v", kinds)
	}
}

func TestParseFaults(t *testing.T) {
	t.Parallel()
	f, err := ParseFaults("seed=7, latency=5ms,jitter=1ms,methods=post+PUT,error=0.1,error-statuses=500+503," +
		"throttle=0.01,throttle-for=2s,reset-before=0.02,reset-after=0.03,error-after-commit=0.04," +
		"truncate=0.05,malformed=0.06,slow-body=0.07,slow-delay=3ms,slow-chunks=5,max=9," +
		"maintenance=true,slow-commit=300ms,slow-commits=2")
	if err != nil {
		t.Fatal(err)
	}
	want := &Faults{Seed: 7, Latency: 5 * time.Millisecond, LatencyJitter: time.Millisecond, Methods: []string{"post", "PUT"},
		ErrorRate: 0.1, ErrorStatuses: []int{500, 503}, ThrottleRate: 0.01, ThrottleFor: 2 * time.Second,
		ResetBeforeRate: 0.02, ResetAfterRate: 0.03, ErrorAfterCommitRate: 0.04, TruncateRate: 0.05,
		MalformedRate: 0.06, SlowBodyRate: 0.07, SlowBodyDelay: 3 * time.Millisecond, SlowBodyChunks: 5, MaxFaults: 9,
		Maintenance: true, SlowCommit: 300 * time.Millisecond, SlowCommitCount: 2}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("ParseFaults = %+v\nwant %+v", f, want)
	}
	if f, err := ParseFaults("  "); f != nil || err != nil {
		t.Errorf("empty spec: %v %v", f, err)
	}
	for _, bad := range []string{"error", "nope=1", "error=x", "error=1.5", "error=0.6,reset-after=0.6", "latency=-1s", "error-statuses=404",
		"maintenance=maybe", "slow-commit=-1s", "slow-commit=5", "slow-commits=-1"} {
		if _, err := ParseFaults(bad); err == nil {
			t.Errorf("ParseFaults(%q) accepted", bad)
		}
	}
	if _, err := New(Options{Faults: &Faults{ErrorRate: 2}}); err == nil {
		t.Error("New accepted a rate of 2")
	}
}

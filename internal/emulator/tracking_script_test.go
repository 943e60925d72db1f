package emulator

// The tracking script (package tracking) as the emulator serves it: below
// the path prefix, beside the throttle, maintenance mode and faults.

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

// The tracking script is a static file: served without a key, with a
// JavaScript content type and a cache header, never throttled or counted,
// even when the throttle is used up.
func TestTrackingScript_servedAsStaticFile(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{RateLimit: 1})
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status != http.StatusOK {
		t.Fatalf("first API request: %d %s", r.status, r.body)
	}
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status != http.StatusTooManyRequests {
		t.Fatalf("second API request: %d %s, want 429 (the throttle used up)", r.status, r.body)
	}
	before := s.Stats()

	for range 3 {
		r := do(t, s, call{path: tracking.ScriptPath, accept: "-"})
		if r.status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", tracking.ScriptPath, r.status, r.body)
		}
		if ct := r.header.Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
			t.Errorf("Content-Type %q, want text/javascript; charset=utf-8", ct)
		}
		if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "max-age=") {
			t.Errorf("Cache-Control %q, want a max-age", cc)
		}
		if r.header.Get("ETag") == "" {
			t.Error("no ETag")
		}
		for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After"} {
			if v := r.header.Get(h); v != "" {
				t.Errorf("%s: %q, want none (the throttle does not see static files)", h, v)
			}
		}
		for _, want := range []string{`getElementById("` + tracking.ScriptID + `")`, `"data-host"`, `"data-dnt"`,
			`"/api/event"`, "page:", "referrer:", "screen_resolution:", "navigator.doNotTrack", "XMLHttpRequest",
			`"application/json; charset=utf-8"`, "history.pushState", `"popstate"`, "pa.track"} {
			if !strings.Contains(r.body, want) {
				t.Errorf("the script does not contain %s", want)
			}
		}
	}
	if after := s.Stats(); after.Total != before.Total || after.Throttled != before.Throttled {
		t.Errorf("the script was counted: before %+v, after %+v", before, after)
	}
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status != http.StatusTooManyRequests {
		t.Errorf("the API after the script: %d, want still 429", r.status)
	}
}

// It is served below the installation's path prefix, answers HEAD,
// conditional requests and wrong methods as a web server does, and stays
// up in maintenance mode and under injected faults (the web server serves
// it without the application).
func TestTrackingScript_prefixMethodsMaintenanceAndFaults(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{PathPrefix: "/analytics"})
	script, err := os.ReadFile("tracking/tracking_script.js") // the file package tracking embeds
	if err != nil {
		t.Fatal(err)
	}
	get := do(t, s, call{path: tracking.ScriptPath, accept: "-"})
	if get.status != http.StatusOK || get.body != string(script) {
		t.Fatalf("GET /analytics%s: %d, %d bytes", tracking.ScriptPath, get.status, len(get.body))
	}
	if r := do(t, s, call{path: tracking.ScriptPath, root: true, accept: "-"}); r.status != http.StatusNotFound {
		t.Errorf("GET %s outside the prefix: %d, want 404", tracking.ScriptPath, r.status)
	}
	head := do(t, s, call{method: http.MethodHead, path: tracking.ScriptPath, accept: "-"})
	if head.status != http.StatusOK || head.body != "" || head.header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("HEAD: %d %q %v", head.status, head.body, head.header)
	}
	cond := do(t, s, call{path: tracking.ScriptPath, accept: "-", header: map[string]string{"If-None-Match": get.header.Get("ETag")}})
	if cond.status != http.StatusNotModified {
		t.Errorf("GET with If-None-Match: %d, want 304", cond.status)
	}
	post := do(t, s, call{method: http.MethodPost, path: tracking.ScriptPath, form: url.Values{"a": {"b"}}})
	if post.status != http.StatusMethodNotAllowed || post.header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q; want 405, GET, HEAD", post.status, post.header.Get("Allow"))
	}

	s.SetMaintenance(true)
	if r := do(t, s, call{path: tracking.ScriptPath, accept: "-"}); r.status != http.StatusOK {
		t.Errorf("GET in maintenance mode: %d, want 200", r.status)
	}
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status != http.StatusServiceUnavailable {
		t.Errorf("the API in maintenance mode: %d, want 503", r.status)
	}
	s.SetMaintenance(false)

	// Injected faults are the API's: the web server still serves the file.
	if err := s.SetFaults(&Faults{ErrorRate: 1}); err != nil {
		t.Fatal(err)
	}
	if r := do(t, s, call{path: tracking.ScriptPath, accept: "-"}); r.status != http.StatusOK {
		t.Errorf("GET with faults: %d, want 200", r.status)
	}
	if r := do(t, s, call{path: "/api/v1/websites", key: keyA}); r.status < 500 {
		t.Errorf("the API with faults: %d, want a 5xx", r.status)
	}
	if st := s.Stats(); st.Total != 0 {
		t.Errorf("counted: %+v", st)
	}
}

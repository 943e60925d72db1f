package emulator

import (
	"net/http"
	"net/url"
	"testing"
)

// maintenancePage is Laravel's HTML 503 page, as the emulator renders it.
const maintenancePage = `<!DOCTYPE html>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        <title>Service Unavailable</title>
    </head>
    <body class="antialiased">
        <div class="flex items-center">503 | Service Unavailable</div>
    </body>
</html>
`

// In maintenance mode every request answers 503 before the throttle, the
// router and authentication: nothing is committed, throttled or counted.
func TestMaintenance(t *testing.T) {
	t.Parallel()
	unavailable := laravelJSON("Service Unavailable")
	calls := []struct {
		name   string
		c      call
		status int
		body   string
	}{
		{"list", call{path: "/api/v1/websites", key: keyA}, 503, unavailable},
		{"store", call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"m.example"}}}, 503, unavailable},
		{"update", call{method: "PATCH", path: "/api/v1/websites/1", key: keyA, form: url.Values{"privacy": {"1"}}}, 503, unavailable},
		{"delete", call{method: "DELETE", path: "/api/v1/websites/1", key: keyA}, 503, unavailable},
		{"account", call{path: "/api/v1/account", key: keyA}, 503, unavailable},
		{"wrong key", call{path: "/api/v1/websites", key: "wrong"}, 503, unavailable},
		{"unknown API path", call{path: "/api/v1/nothing", key: keyA}, 503, unavailable},
		{"outside the API", call{path: "/elsewhere"}, 503, unavailable},
		{"outside the prefix", call{path: "/api/v1/websites", root: true, key: keyA}, 503, unavailable},
		{"without Accept", call{path: "/api/v1/websites", key: keyA, accept: "-"}, 503, maintenancePage},
	}
	for _, how := range []string{"SetMaintenance", "Faults.Maintenance"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			opts := Options{RateLimit: 1, PathPrefix: "/analytics"}
			if how == "Faults.Maintenance" {
				opts.Faults = &Faults{Maintenance: true}
			}
			s, _ := newTestServer(t, opts)
			s.Seed(keyA, Website{Domain: "kept.example"})
			if how == "SetMaintenance" {
				s.SetMaintenance(true)
			}
			if !s.InMaintenance() {
				t.Fatal("InMaintenance() = false")
			}
			for _, tc := range calls {
				r := do(t, s, tc.c)
				if r.status != tc.status || r.body != tc.body {
					t.Errorf("%s: got %d %q\nwant %d %q", tc.name, r.status, r.body, tc.status, tc.body)
				}
				if r.header.Get("X-RateLimit-Limit") != "" || r.header.Get("Retry-After") != "" {
					t.Errorf("%s: throttle headers %v", tc.name, r.header)
				}
			}
			if ws := s.Websites(); len(ws) != 1 || ws[0].Domain != "kept.example" || ws[0].Privacy != nil {
				t.Errorf("changed during maintenance: %+v", ws)
			}
			if st := s.Stats(); st.Total != 0 {
				t.Errorf("counted in Stats: %+v", st)
			}
			// The emulator's own endpoints still answer.
			if r := do(t, s, call{path: "/__emulator/stats", root: true}); r.status != 200 {
				t.Errorf("stats endpoint: %d %s", r.status, r.body)
			}
			wantCount := 0
			if how == "Faults.Maintenance" {
				wantCount = len(calls)
			}
			if got := s.FaultCounts()[FaultMaintenance]; got != wantCount {
				t.Errorf("FaultCounts[maintenance] = %d, want %d", got, wantCount)
			}

			// php artisan up: back to normal, with the throttle untouched.
			if how == "SetMaintenance" {
				s.SetMaintenance(false)
			} else if err := s.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			if s.InMaintenance() {
				t.Fatal("InMaintenance() = true")
			}
			r := do(t, s, call{path: "/api/v1/websites/1", key: keyA})
			if r.status != http.StatusOK || r.header.Get("X-RateLimit-Remaining") != "0" {
				t.Errorf("after maintenance: %d %v %s", r.status, r.header, r.body)
			}
		})
	}
}

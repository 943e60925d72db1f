package emulator

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

// Stats counts the requests the emulator received under /api/v1 and at the
// tracking endpoint (route "/api/event"). These are request counters, not
// the websites' statistics (see Statistics).
type Stats struct {
	// Total is the number of requests.
	Total int `json:"total"`
	// ByMethod counts requests per (effective) HTTP method.
	ByMethod map[string]int `json:"by_method"`
	// ByRoute counts requests per "METHOD /api/v1/websites",
	// "METHOD /api/v1/websites/{id}", "GET /api/v1/stats/{id}",
	// "POST /api/event" and so on; requests to no route count as
	// "METHOD (unknown)".
	ByRoute map[string]int `json:"by_route"`
	// ByStatus counts responses per status code ("200", "422", ...).
	ByStatus map[string]int `json:"by_status"`
	// Throttled is the number of 429 answers.
	Throttled int `json:"throttled"`
	// KeyOutsideHeader is the number of requests that carried the API key
	// somewhere else than the Authorization Bearer header (api_token query
	// parameter or form field, or a Basic authorization password).
	KeyOutsideHeader int `json:"key_outside_header"`
	// Preflights counts the CORS preflights answered (package tracking), per
	// requested method and route: "POST /api/event" is a browser asking
	// whether the tracking script may post its JSON. They are not requests
	// to the API (the throttle never sees them) and not in Total or the
	// other counters.
	Preflights map[string]int `json:"preflights"`
}

func (s Stats) clone() Stats {
	c := s
	c.ByMethod = cloneCounts(s.ByMethod)
	c.ByRoute = cloneCounts(s.ByRoute)
	c.ByStatus = cloneCounts(s.ByStatus)
	c.Preflights = cloneCounts(s.Preflights)
	return c
}

func cloneCounts(m map[string]int) map[string]int {
	c := make(map[string]int, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// statsRecorder guards a Stats.
type statsRecorder struct {
	mu sync.Mutex
	s  Stats
}

func (r *statsRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s = Stats{ByMethod: map[string]int{}, ByRoute: map[string]int{}, ByStatus: map[string]int{}, Preflights: map[string]int{}}
}

func (r *statsRecorder) record(method, route string, status int, keyOutside bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s.Total++
	r.s.ByMethod[method]++
	r.s.ByRoute[method+" "+route]++
	r.s.ByStatus[strconv.Itoa(status)]++
	if status == http.StatusTooManyRequests {
		r.s.Throttled++
	}
	if keyOutside {
		r.s.KeyOutsideHeader++
	}
}

func (r *statsRecorder) recordPreflight(method, route string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s.Preflights[method+" "+route]++
}

func (r *statsRecorder) snapshot() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.s.clone()
}

// Stats returns a copy of the request counters.
func (e *Emulator) Stats() Stats { return e.stats.snapshot() }

// ResetStats sets every request counter back to zero.
func (e *Emulator) ResetStats() { e.stats.reset() }

// serveControl serves the emulator's own endpoints (not counted, not
// throttled, no authentication). It reports whether r was one of them.
func (e *Emulator) serveControl(w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Path {
	case "/__emulator/stats":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return true
		}
		raw, err := json.Marshal(e.Stats())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return true
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(raw, '\n'))
		return true
	case "/__emulator/reset-stats":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return true
		}
		e.ResetStats()
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	return false
}

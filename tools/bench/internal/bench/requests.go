package bench

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/felixge/httpsnoop"
)

// requestLog records the arrival and the answer of every request the
// emulator serves.
type requestLog struct {
	mu   sync.Mutex
	reqs []loggedRequest
}

// loggedRequest is one request: when it arrived, whether it searched
// websites (GET /websites?search=...) and the status of its answer.
type loggedRequest struct {
	at     time.Time
	search bool
	status int
}

// wrap returns h, recording every request under /api/.
func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Path, "/api/") {
			h.ServeHTTP(w, r)
			return
		}
		at := time.Now()
		search := r.Method == http.MethodGet && strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/websites") &&
			r.URL.Query().Get("search") != ""
		status := httpsnoop.CaptureMetrics(h, w, r).Code
		l.mu.Lock()
		l.reqs = append(l.reqs, loggedRequest{at: at, search: search, status: status})
		l.mu.Unlock()
	})
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = nil
}

func (l *requestLog) snapshot() []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.reqs)
}

// searches returns the number of searches (look-ups by domain).
func (l *requestLog) searches() int {
	n := 0
	for _, r := range l.snapshot() {
		if r.search {
			n++
		}
	}
	return n
}

// throttleWait returns how long the throttle held the client back: see
// throttleWait.
func (l *requestLog) throttleWait(end time.Time) time.Duration {
	return throttleWait(l.snapshot(), end)
}

// throttleWait sums, over the requests in order of arrival, the time from
// each 429 answer that follows a request let through (or starts the log)
// to the next request let through (any answer but 429), or to end if none
// came. Once a window's limit is reached the throttle refuses every request
// until the window ends, so this is the time the client spent waiting for
// the throttle (Retry-After, rounded up to whole seconds, included), as the
// server sees it.
func throttleWait(reqs []loggedRequest, end time.Time) time.Duration {
	reqs = slices.Clone(reqs)
	slices.SortStableFunc(reqs, func(a, b loggedRequest) int { return a.at.Compare(b.at) })
	var wait time.Duration
	var since time.Time
	blocked := false
	for _, r := range reqs {
		switch {
		case r.status == http.StatusTooManyRequests && !blocked:
			blocked, since = true, r.at
		case r.status != http.StatusTooManyRequests && blocked:
			wait += r.at.Sub(since)
			blocked = false
		}
	}
	if blocked && end.After(since) {
		wait += end.Sub(since)
	}
	return wait
}

// summaryRE matches Terraform's summary lines.
var summaryRE = regexp.MustCompile(`(?m)^(Plan: .*|No changes\..*|Apply complete! Resources: .*|Destroy complete! Resources: .*)$`)

// summaryLine returns the last summary line of Terraform's output, or "".
func summaryLine(stdout string) string {
	m := summaryRE.FindAllString(stdout, -1)
	if len(m) == 0 {
		return ""
	}
	return strings.TrimSpace(m[len(m)-1])
}

// Summary is what a plan or an apply says it does (or did).
type Summary struct {
	Import, Add, Change, Destroy int
}

var summaryCountRE = regexp.MustCompile(`(\d+) (?:to )?(import|add|change|destroy)(?:ed|d)?\b`)

// ParseSummary reads a summary line: "Plan: 500 to import, 0 to add, 0 to
// change, 0 to destroy.", "Apply complete! Resources: 500 imported, 0
// added, 0 changed, 0 destroyed.", "Destroy complete! Resources: 3
// destroyed." or "No changes. ...". It reports false for anything else.
func ParseSummary(line string) (Summary, bool) {
	var s Summary
	if strings.HasPrefix(line, "No changes.") {
		return s, true
	}
	m := summaryCountRE.FindAllStringSubmatch(line, -1)
	if !summaryRE.MatchString(line) || len(m) == 0 {
		return s, false
	}
	counts := map[string]*int{"import": &s.Import, "add": &s.Add, "change": &s.Change, "destroy": &s.Destroy}
	for _, g := range m {
		n, err := strconv.Atoi(g[1])
		if err != nil {
			return s, false
		}
		*counts[g[2]] = n
	}
	return s, true
}

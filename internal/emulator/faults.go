package emulator

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults configures fault injection: the failures of a real deployment
// (restarts, proxies, overload, flaky networks) that a client must survive.
// The zero value injects nothing.
//
// Rates are probabilities per API request, between 0 and 1. At most one
// fault kind is drawn per request, in the order of the fields below (their
// rates should add up to at most 1); latency comes on top. The draws come
// from one random source seeded with Seed, so a run that sends the same
// requests in the same order meets the same faults.
//
// Faults apply only to requests under /api/v1 (not to the emulator's own
// /__emulator endpoints). Kinds that fail "before routing" never reach the
// throttle or the controllers: nothing is committed and Stats does not count
// them. Kinds that fail "after routing" answer (and commit) as usual, then
// lose or spoil the answer on its way back. FaultCounts counts what was
// injected.
type Faults struct {
	// Seed seeds the random draws.
	Seed uint64
	// Latency delays every API answer; LatencyJitter adds a random extra
	// delay up to its value.
	Latency       time.Duration
	LatencyJitter time.Duration
	// Methods restricts the fault kinds below (not latency) to these HTTP
	// methods, e.g. {"POST"}. Empty means every method.
	Methods []string
	// MaxFaults stops injecting faults (other than latency and a 429 burst
	// under way) after this many. 0 means no limit; 1 with a rate of 1
	// fails exactly the first matching request.
	MaxFaults int

	// ErrorRate answers, before routing, with one of ErrorStatuses (default
	// 500, 502 and 503, drawn evenly): 500 {"message":"Server Error"}, 502
	// a proxy's HTML page, 503 {"message":"Service Unavailable"}.
	ErrorRate     float64
	ErrorStatuses []int
	// ThrottleRate starts a 429 burst before routing: for ThrottleFor
	// (default 1s) every API request is answered 429 "Too Many Attempts."
	// with Retry-After (whole seconds, rounded up) and X-RateLimit-Reset, as
	// when other clients behind the same IP use up the throttle.
	ThrottleRate float64
	ThrottleFor  time.Duration
	// ResetBeforeRate resets the TCP connection before routing (nothing
	// committed, no answer).
	ResetBeforeRate float64
	// ResetAfterRate routes the request (committing any change), then
	// resets the connection instead of answering.
	ResetAfterRate float64
	// ErrorAfterCommitRate routes the request (committing any change), then
	// answers 502 Bad Gateway instead, as a proxy whose upstream answered too
	// late.
	ErrorAfterCommitRate float64
	// TruncateRate routes the request, then sends the status line, the
	// headers (with the full Content-Length) and half of the body, and
	// closes the connection.
	TruncateRate float64
	// MalformedRate routes the request, then replaces the body of a
	// successful (2xx) answer by malformed JSON (its first half followed by
	// a PHP warning), with a matching Content-Length. Other answers are sent
	// unchanged.
	MalformedRate float64
	// SlowBodyRate routes the request, then sends the body in SlowBodyChunks
	// pieces (default 4) with SlowBodyDelay (default 20ms) between them.
	SlowBodyRate   float64
	SlowBodyDelay  time.Duration
	SlowBodyChunks int

	// Maintenance answers every request (API or not) 503
	// {"message": "Service Unavailable"}, as `php artisan down` does during
	// an upgrade. Nothing is committed, and nothing is counted in Stats.
	Maintenance bool
	// SlowCommit delays the insert of a store by this long AFTER its
	// validation, without holding the lock: the uniqueness of the domain is
	// only a validation rule on the real server (no unique index), so a
	// second store of the same domain that arrives meanwhile passes it too,
	// and both are stored. SlowCommitCount limits it to the first N stores
	// (0: every store). It applies whatever Methods says.
	SlowCommit      time.Duration
	SlowCommitCount int
}

// Fault kinds, as counted by FaultCounts and named in ParseFaults.
const (
	FaultError            = "error"
	FaultThrottle         = "throttle"
	FaultResetBefore      = "reset-before"
	FaultResetAfter       = "reset-after"
	FaultErrorAfterCommit = "error-after-commit"
	FaultTruncate         = "truncate"
	FaultMalformed        = "malformed"
	FaultSlowBody         = "slow-body"
	FaultLatency          = "latency"
	FaultMaintenance      = "maintenance"
	FaultSlowCommit       = "slow-commit"
)

// validate checks the rates and fills in defaults.
func (f Faults) normalized() (Faults, error) {
	total := 0.0
	for _, r := range []struct {
		name string
		v    float64
	}{
		{FaultError, f.ErrorRate}, {FaultThrottle, f.ThrottleRate}, {FaultResetBefore, f.ResetBeforeRate},
		{FaultResetAfter, f.ResetAfterRate}, {FaultErrorAfterCommit, f.ErrorAfterCommitRate},
		{FaultTruncate, f.TruncateRate}, {FaultMalformed, f.MalformedRate}, {FaultSlowBody, f.SlowBodyRate},
	} {
		if r.v < 0 || r.v > 1 {
			return f, fmt.Errorf("emulator: fault rate %s = %v is not between 0 and 1", r.name, r.v)
		}
		total += r.v
	}
	if total > 1+1e-9 {
		return f, fmt.Errorf("emulator: fault rates add up to %v, more than 1", total)
	}
	if f.Latency < 0 || f.LatencyJitter < 0 || f.ThrottleFor < 0 || f.SlowBodyDelay < 0 || f.SlowBodyChunks < 0 || f.MaxFaults < 0 ||
		f.SlowCommit < 0 || f.SlowCommitCount < 0 {
		return f, fmt.Errorf("emulator: negative fault duration or count")
	}
	if len(f.ErrorStatuses) == 0 {
		f.ErrorStatuses = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}
	}
	for _, s := range f.ErrorStatuses {
		if s < 500 || s > 599 {
			return f, fmt.Errorf("emulator: fault error status %d is not a 5xx", s)
		}
	}
	f.ErrorStatuses = slices.Clone(f.ErrorStatuses)
	if f.ThrottleFor == 0 {
		f.ThrottleFor = time.Second
	}
	if f.SlowBodyDelay == 0 {
		f.SlowBodyDelay = 20 * time.Millisecond
	}
	if f.SlowBodyChunks == 0 {
		f.SlowBodyChunks = 4
	}
	methods := make([]string, len(f.Methods))
	for i, m := range f.Methods {
		methods[i] = strings.ToUpper(strings.TrimSpace(m))
	}
	f.Methods = methods
	return f, nil
}

// faultInjector is the live state of a Faults configuration.
type faultInjector struct {
	cfg Faults

	mu             sync.Mutex // guards the fields below
	rng            *rand.Rand
	throttledUntil time.Time
	injected       int // faults drawn, for MaxFaults
	slowCommits    int // stores slowed so far
	counts         map[string]int
	byMethod       map[string]int // "KIND METHOD"
}

// faultPlan is what happens to one request.
type faultPlan struct {
	kind    string // "" for none
	latency time.Duration
	status  int           // FaultError
	until   time.Time     // FaultThrottle: end of the burst
	left    time.Duration // FaultThrottle: time left in the burst
}

func newFaultInjector(f Faults) *faultInjector {
	return &faultInjector{
		cfg:      f,
		rng:      rand.New(rand.NewPCG(f.Seed, f.Seed^0x9e3779b97f4a7c15)), //nolint:gosec // deterministic test faults, not security
		counts:   map[string]int{},
		byMethod: map[string]int{},
	}
}

// draw decides the fault of one request at now.
func (fi *faultInjector) draw(method string, now time.Time) faultPlan {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	f := fi.cfg
	var p faultPlan
	p.latency = f.Latency
	if f.LatencyJitter > 0 {
		p.latency += time.Duration(fi.rng.Int64N(int64(f.LatencyJitter) + 1))
	}
	if p.latency > 0 {
		fi.counts[FaultLatency]++
	}
	// A 429 burst refuses every request while it lasts, whatever its method.
	if now.Before(fi.throttledUntil) {
		p.kind, p.until, p.left = FaultThrottle, fi.throttledUntil, fi.throttledUntil.Sub(now)
		fi.counts[FaultThrottle]++
		fi.byMethod[FaultThrottle+" "+method]++
		return p
	}
	if len(f.Methods) > 0 && !slices.Contains(f.Methods, method) {
		return p
	}
	if f.MaxFaults > 0 && fi.injected >= f.MaxFaults {
		return p
	}
	x := fi.rng.Float64()
	for _, k := range []struct {
		kind string
		rate float64
	}{
		{FaultError, f.ErrorRate}, {FaultThrottle, f.ThrottleRate}, {FaultResetBefore, f.ResetBeforeRate},
		{FaultResetAfter, f.ResetAfterRate}, {FaultErrorAfterCommit, f.ErrorAfterCommitRate},
		{FaultTruncate, f.TruncateRate}, {FaultMalformed, f.MalformedRate}, {FaultSlowBody, f.SlowBodyRate},
	} {
		if x < k.rate {
			p.kind = k.kind
			break
		}
		x -= k.rate
	}
	switch p.kind {
	case FaultError:
		p.status = f.ErrorStatuses[fi.rng.IntN(len(f.ErrorStatuses))]
	case FaultThrottle:
		fi.throttledUntil = now.Add(f.ThrottleFor)
		p.until, p.left = fi.throttledUntil, f.ThrottleFor
	}
	if p.kind != "" {
		fi.counts[p.kind]++
		fi.byMethod[p.kind+" "+method]++
		fi.injected++
	}
	return p
}

// slowCommit returns how long to delay the insert of the store being
// handled (0: not at all).
func (fi *faultInjector) slowCommit() time.Duration {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if fi.cfg.SlowCommit <= 0 || (fi.cfg.SlowCommitCount > 0 && fi.slowCommits >= fi.cfg.SlowCommitCount) {
		return 0
	}
	fi.slowCommits++
	fi.counts[FaultSlowCommit]++
	fi.byMethod[FaultSlowCommit+" POST"]++
	return fi.cfg.SlowCommit
}

// slowCommit is faultInjector.slowCommit of the current faults.
func (e *Emulator) slowCommit() time.Duration {
	if fi := e.faults.Load(); fi != nil {
		return fi.slowCommit()
	}
	return 0
}

// SetFaults turns fault injection on with f, or off with nil. It replaces
// any earlier configuration (and its random source and counts).
func (e *Emulator) SetFaults(f *Faults) error {
	var fi *faultInjector
	if f != nil {
		n, err := f.normalized()
		if err != nil {
			return err
		}
		fi = newFaultInjector(n)
	}
	e.faults.Store(fi)
	return nil
}

// FaultCounts returns how many faults of each kind (FaultError, ...,
// FaultLatency) were injected since the last SetFaults.
func (e *Emulator) FaultCounts() map[string]int {
	fi := e.faults.Load()
	if fi == nil {
		return map[string]int{}
	}
	fi.mu.Lock()
	defer fi.mu.Unlock()
	return cloneCounts(fi.counts)
}

// FaultCountsByMethod is FaultCounts per kind and HTTP method, keyed
// "KIND METHOD" (e.g. "reset-after POST"); latency is not counted.
func (e *Emulator) FaultCountsByMethod() map[string]int {
	fi := e.faults.Load()
	if fi == nil {
		return map[string]int{}
	}
	fi.mu.Lock()
	defer fi.mu.Unlock()
	return cloneCounts(fi.byMethod)
}

// serveAPI answers an API request, injecting the configured faults.
func (e *Emulator) serveAPI(w http.ResponseWriter, r *http.Request) {
	fi := e.faults.Load()
	if fi == nil {
		e.send(w, e.Respond(r))
		return
	}
	if fi.cfg.Maintenance {
		fi.mu.Lock()
		fi.counts[FaultMaintenance]++
		fi.byMethod[FaultMaintenance+" "+r.Method]++
		fi.mu.Unlock()
		e.send(w, injectedError(http.StatusServiceUnavailable))
		return
	}
	if _, ok := e.apiPath(r.URL.Path); !ok {
		e.send(w, e.Respond(r))
		return
	}
	p := fi.draw(r.Method, e.opts.Clock())
	if p.latency > 0 {
		t := time.NewTimer(p.latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch p.kind {
	case FaultError:
		e.send(w, injectedError(p.status))
	case FaultThrottle:
		e.send(w, injectedThrottle(p, e.opts.Clock()))
	case FaultResetBefore:
		resetConnection(w)
	case FaultResetAfter:
		_ = e.Respond(r)
		resetConnection(w)
	case FaultErrorAfterCommit:
		_ = e.Respond(r)
		e.send(w, injectedError(http.StatusBadGateway))
	case FaultTruncate:
		e.sendTruncated(w, e.Respond(r))
	case FaultMalformed:
		resp := e.Respond(r)
		if resp.Status >= 200 && resp.Status < 300 {
			resp.Body = malformed(resp.Body)
		}
		e.send(w, resp)
	case FaultSlowBody:
		e.sendSlowly(w, r, e.Respond(r), fi.cfg.SlowBodyChunks, fi.cfg.SlowBodyDelay)
	default:
		e.send(w, e.Respond(r))
	}
}

// send writes resp with a Date header from the emulator's clock (a real
// server's Date comes from the same clock as its timestamps).
func (e *Emulator) send(w http.ResponseWriter, resp *Response) {
	e.stampDate(resp)
	resp.Send(w)
}

func (e *Emulator) stampDate(resp *Response) {
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	if resp.Header.Get("Date") == "" {
		resp.Header.Set("Date", e.opts.Clock().UTC().Format(http.TimeFormat))
	}
}

func injectedError(status int) *Response {
	switch status {
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		text := http.StatusText(status)
		body := fmt.Sprintf("<html>\r\n<head><title>%[1]d %[2]s</title></head>\r\n<body>\r\n<center><h1>%[1]d %[2]s</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n", status, text)
		resp := &Response{Status: status, Header: http.Header{}, Body: []byte(body)}
		resp.Header.Set("Content-Type", "text/html")
		return resp
	case http.StatusServiceUnavailable:
		return jsonResponse(status, object{{"message", "Service Unavailable"}})
	default:
		return jsonResponse(status, object{{"message", "Server Error"}})
	}
}

func injectedThrottle(p faultPlan, now time.Time) *Response {
	resp := jsonResponse(http.StatusTooManyRequests, object{{"message", "Too Many Attempts."}})
	secs := int64((p.left + time.Second - 1) / time.Second)
	resp.Header.Set("Retry-After", strconv.FormatInt(secs, 10))
	resp.Header.Set("X-RateLimit-Reset", strconv.FormatInt(now.Unix()+secs, 10))
	return resp
}

// malformed turns a JSON body into the kind of answer a PHP error produces
// halfway through rendering.
func malformed(body []byte) []byte {
	out := append([]byte(nil), body[:len(body)/2]...)
	return append(out, "<br />\n<b>Warning</b>:  Undefined array key in <b>/var/www/app/Http/Resources/WebsiteResource.php</b> on line <b>42</b><br />\n"...)
}

// hijack takes the connection over from the HTTP server.
func hijack(w http.ResponseWriter) (net.Conn, *bufio.ReadWriter, bool) {
	h, ok := w.(http.Hijacker)
	if !ok {
		return nil, nil, false
	}
	conn, rw, err := h.Hijack()
	if err != nil {
		return nil, nil, false
	}
	return conn, rw, true
}

// resetConnection closes the connection with a TCP reset (SO_LINGER 0), so
// the client sees "connection reset by peer" and no answer.
func resetConnection(w http.ResponseWriter) {
	conn, _, ok := hijack(w)
	if !ok {
		panic(http.ErrAbortHandler) // the server closes the connection
	}
	if l, ok := conn.(interface{ SetLinger(int) error }); ok {
		_ = l.SetLinger(0)
	}
	_ = conn.Close()
}

// sendTruncated writes the status line, the headers (announcing the whole
// body) and half of the body, then closes the connection.
func (e *Emulator) sendTruncated(w http.ResponseWriter, resp *Response) {
	e.stampDate(resp)
	conn, rw, ok := hijack(w)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	h := resp.Header.Clone()
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	h.Set("Connection", "close")
	fmt.Fprintf(rw, "HTTP/1.1 %d %s\r\n", resp.Status, http.StatusText(resp.Status))
	_ = h.Write(rw)
	_, _ = rw.WriteString("\r\n")
	_, _ = rw.Write(resp.Body[:len(resp.Body)/2])
	_ = rw.Flush()
}

// sendSlowly writes resp's body in chunks with a delay between them.
func (e *Emulator) sendSlowly(w http.ResponseWriter, r *http.Request, resp *Response, chunks int, delay time.Duration) {
	e.stampDate(resp)
	h := w.Header()
	for k, vs := range resp.Header {
		h[k] = append([]string(nil), vs...)
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	rc := http.NewResponseController(w)
	size := (len(resp.Body) + chunks - 1) / max(chunks, 1)
	for body := resp.Body; len(body) > 0; {
		n := min(size, len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		_ = rc.Flush()
		body = body[n:]
		if len(body) == 0 {
			break
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
}

// ParseFaults parses a fault specification: comma-separated key=value
// pairs, as the analytics-emulator command's -faults flag takes them.
//
//	seed=N latency=DUR jitter=DUR methods=POST+PUT max=N
//	error=RATE error-statuses=500+503 throttle=RATE throttle-for=DUR
//	reset-before=RATE reset-after=RATE error-after-commit=RATE
//	truncate=RATE malformed=RATE slow-body=RATE slow-delay=DUR slow-chunks=N
//	maintenance=true slow-commit=DUR slow-commits=N
//
// For example "seed=7,latency=5ms,error=0.05,reset-after=0.02". An empty
// spec returns nil (no faults).
func ParseFaults(spec string) (*Faults, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	f := &Faults{}
	rates := map[string]*float64{
		FaultError: &f.ErrorRate, FaultThrottle: &f.ThrottleRate, FaultResetBefore: &f.ResetBeforeRate,
		FaultResetAfter: &f.ResetAfterRate, FaultErrorAfterCommit: &f.ErrorAfterCommitRate,
		FaultTruncate: &f.TruncateRate, FaultMalformed: &f.MalformedRate, FaultSlowBody: &f.SlowBodyRate,
	}
	durations := map[string]*time.Duration{
		"latency": &f.Latency, "jitter": &f.LatencyJitter, "throttle-for": &f.ThrottleFor, "slow-delay": &f.SlowBodyDelay,
	}
	for part := range strings.SplitSeq(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("fault %q: want key=value", part)
		}
		var err error
		switch {
		case rates[k] != nil:
			*rates[k], err = strconv.ParseFloat(v, 64)
		case durations[k] != nil:
			*durations[k], err = time.ParseDuration(v)
		case k == "seed":
			f.Seed, err = strconv.ParseUint(v, 10, 64)
		case k == "slow-chunks":
			f.SlowBodyChunks, err = strconv.Atoi(v)
		case k == FaultSlowCommit:
			f.SlowCommit, err = time.ParseDuration(v)
		case k == "slow-commits":
			f.SlowCommitCount, err = strconv.Atoi(v)
		case k == FaultMaintenance:
			f.Maintenance, err = strconv.ParseBool(v)
		case k == "max":
			f.MaxFaults, err = strconv.Atoi(v)
		case k == "methods":
			f.Methods = strings.Split(v, "+")
		case k == "error-statuses":
			for s := range strings.SplitSeq(v, "+") {
				n, perr := strconv.Atoi(s)
				if perr != nil {
					err = perr
					break
				}
				f.ErrorStatuses = append(f.ErrorStatuses, n)
			}
		default:
			keys := []string{"seed", "latency", "jitter", "methods", "max", "error-statuses", "throttle-for", "slow-delay", "slow-chunks",
				FaultMaintenance, FaultSlowCommit, "slow-commits"}
			for r := range rates {
				keys = append(keys, r)
			}
			sort.Strings(keys)
			return nil, fmt.Errorf("unknown fault %q (known: %s)", k, strings.Join(keys, ", "))
		}
		if err != nil {
			return nil, fmt.Errorf("fault %s=%q: %w", k, v, err)
		}
	}
	if _, err := f.normalized(); err != nil {
		return nil, err
	}
	return f, nil
}

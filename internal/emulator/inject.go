package emulator

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

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

// count records one injected fault of kind on a request with method.
func (fi *faultInjector) count(kind, method string) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	fi.counts[kind]++
	fi.byMethod[kind+" "+method]++
}

// slowCommit returns how to delay the insert of the store being handled:
// nil when not at all, else a call that returns when the insert may go on
// (Faults.SlowCommitHold, or a sleep of Faults.SlowCommit).
func (fi *faultInjector) slowCommit() func() {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if (fi.cfg.SlowCommit <= 0 && fi.cfg.SlowCommitHold == nil) ||
		(fi.cfg.SlowCommitCount > 0 && fi.slowCommits >= fi.cfg.SlowCommitCount) {
		return nil
	}
	fi.slowCommits++
	fi.counts[FaultSlowCommit]++
	fi.byMethod[FaultSlowCommit+" POST"]++
	if hold := fi.cfg.SlowCommitHold; hold != nil {
		return hold
	}
	d := fi.cfg.SlowCommit
	return func() { time.Sleep(d) }
}

// slowCommit is faultInjector.slowCommit of the current faults.
func (e *Emulator) slowCommit() func() {
	if fi := e.faults.Load(); fi != nil {
		return fi.slowCommit()
	}
	return nil
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
	// Faults are injected on /api/v1 only, and never into a CORS preflight:
	// the application's HandleCors answers it before the throttle, as it
	// would during a 429 burst.
	if _, ok := e.apiPath(r.URL.Path); !ok || tracking.IsPreflight(r) {
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
		e.send(w, e.laravelCORS(r, injectedError(p.status)))
	case FaultThrottle:
		e.send(w, e.withCORS(r, injectedThrottle(p, e.opts.Clock())))
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

// laravelCORS adds the CORS headers to an injected answer that the
// application renders itself (a JSON exception goes through HandleCors like
// any other answer), and leaves a gateway's HTML page (502, 504 from the
// server in front of it) without them.
func (e *Emulator) laravelCORS(r *http.Request, resp *Response) *Response {
	if resp.Header.Get("Content-Type") != "application/json" {
		return resp
	}
	return e.withCORS(r, resp)
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
		return exceptionResponse(status, "Service Unavailable")
	default:
		return exceptionResponse(status, "Server Error")
	}
}

func injectedThrottle(p faultPlan, now time.Time) *Response {
	resp := exceptionResponse(http.StatusTooManyRequests, "Too Many Attempts.")
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

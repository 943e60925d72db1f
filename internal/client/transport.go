package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"
)

// attemptTransport sends one attempt: it waits for the pacer, bounds the
// attempt by the per-request timeout and reads the whole body within it, so
// that a truncated or slow body fails the attempt (and can be retried)
// rather than the caller's decoding.
type attemptTransport struct {
	next    http.RoundTripper
	pacer   *pacer
	timeout time.Duration
}

func (a *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	tk, err := a.pacer.acquire(ctx, req.Method, req.URL.Path)
	if err != nil {
		return nil, err
	}
	fs, _ := ctx.Value(firstSendKey{}).(*firstSend)
	if fs != nil {
		fs.mark(tk.sent)
	}
	actx, cancel := ctx, context.CancelFunc(func() {})
	if a.timeout > 0 {
		actx, cancel = context.WithTimeout(ctx, a.timeout)
	}
	defer cancel()
	// An attempt that asked for a connection and got none (the dial or
	// the TLS handshake did not end) sent nothing: a cancel then reached
	// no one. With a connection (dialled or reused), or with a transport
	// that reports nothing to httptrace, it may have.
	var asked, got atomic.Bool
	if fs != nil {
		actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
			GetConn: func(string) { asked.Store(true) },
			GotConn: func(httptrace.GotConnInfo) { got.Store(true) },
		})
	}
	resp, err := a.next.RoundTrip(req.WithContext(actx))
	if fs != nil && (got.Load() || !asked.Load()) && mayHaveReachedApp(resp, err) {
		fs.reach()
	}
	if err != nil {
		a.pacer.release(tk, nil)
		return nil, a.timeoutErr(ctx, actx, err)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	_ = resp.Body.Close()
	a.pacer.release(tk, resp)
	if err != nil {
		return nil, &bodyError{Status: resp.StatusCode, Err: a.timeoutErr(ctx, actx, err)}
	}
	resp.Body = &bufferedBody{Reader: bytes.NewReader(data), data: data}
	resp.ContentLength = int64(len(data))
	return resp, nil
}

// timeoutErr says so when the attempt's own time limit (not the
// operation's) ended it.
func (a *attemptTransport) timeoutErr(ctx, actx context.Context, err error) error {
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no complete answer within %s, the time limit of one request: %w", a.timeout, err)
	}
	return err
}

// bufferedBody is a response body the attempt transport read completely.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (*bufferedBody) Close() error { return nil }

func malformedBody(resp *http.Response) bool {
	b, ok := resp.Body.(*bufferedBody)
	return ok && !json.Valid(b.data)
}

// bodyError reports that the status line and headers of an answer arrived
// but its body did not (a broken connection, or the attempt's time limit).
type bodyError struct {
	Status int
	Err    error
}

func (e *bodyError) Error() string {
	return fmt.Sprintf("reading the response body (HTTP %d): %v", e.Status, e.Err)
}

func (e *bodyError) Unwrap() error { return e.Err }

// describeResponse names an answer for errors and logs: "HTTP 503" plus the
// server's JSON message, if any.
func describeResponse(resp *http.Response) string {
	s := fmt.Sprintf("HTTP %d", resp.StatusCode)
	b, ok := resp.Body.(*bufferedBody)
	if !ok {
		return s
	}
	var body struct {
		Message any `json:"message"`
	}
	if json.Unmarshal(b.data, &body) == nil {
		if msg, ok := body.Message.(string); ok && msg != "" {
			return s + ": " + snippet([]byte(msg), 120)
		}
	}
	if !json.Valid(b.data) && resp.StatusCode < 300 {
		return s + " with a body that is not JSON"
	}
	return s
}

// expectedShape says what JSON a call expected, for ErrUndecodable errors.
func expectedShape(out any) string {
	switch out.(type) {
	case *dataEnvelope:
		return `expected a JSON object {"data": {website record}, "status": 200}`
	case *listEnvelope:
		return `expected a JSON object {"data": [website records], "links": {...}, "meta": {...}}`
	default:
		return "expected a JSON object"
	}
}

// callTrace collects what the transport did for one call of Client.do.
type callTrace struct {
	label    string       // the call, as "GET /websites/7"
	attempts atomic.Int32 // the attempts made so far
}

type traceKey struct{}

func withTrace(ctx context.Context, method, path string) (context.Context, *callTrace) {
	tr := &callTrace{label: method + " " + path}
	return context.WithValue(ctx, traceKey{}, tr), tr
}

func traceFrom(ctx context.Context) *callTrace {
	tr, _ := ctx.Value(traceKey{}).(*callTrace)
	return tr
}

// attemptsFrom is the number of attempts the call under ctx has made.
func attemptsFrom(ctx context.Context) int {
	if tr := traceFrom(ctx); tr != nil {
		return int(tr.attempts.Load())
	}
	return 0
}

// withAttempts records on an *APIError how many attempts the transport
// made for the call.
func withAttempts(err error, tr *callTrace) error {
	if e, ok := err.(*APIError); ok && tr != nil { //nolint:errorlint // errorFor and undecodable return *APIError itself
		e.Attempts = int(tr.attempts.Load())
	}
	return err
}

// firstSend records when the first attempt of a series of calls actually
// left (after any pacing wait), and whether any attempt could have reached
// the application (see mayHaveReachedApp); CreateWebsite uses it.
type firstSend struct {
	once    sync.Once
	at      atomic.Pointer[time.Time]
	reached atomic.Bool
}

type firstSendKey struct{}

func withFirstSend(ctx context.Context) (context.Context, *firstSend) {
	fs := &firstSend{}
	return context.WithValue(ctx, firstSendKey{}, fs), fs
}

func (fs *firstSend) mark(t time.Time) {
	fs.once.Do(func() { fs.at.Store(&t) })
}

func (fs *firstSend) reach() { fs.reached.Store(true) }

// reachedApp reports whether an attempt could have reached the
// application. When none could, nothing can have been stored, whatever
// ended the calls (a cancel during a Retry-After wait, say).
func (fs *firstSend) reachedApp() bool { return fs.reached.Load() }

// time returns the recorded time, or def if no attempt was sent.
func (fs *firstSend) time(def time.Time) time.Time {
	if t := fs.at.Load(); t != nil {
		return *t
	}
	return def
}

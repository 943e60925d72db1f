package client

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// Defaults of RetryOptions, as the provider applies them.
const (
	// DefaultMaxRetries is the number of retries after a failed attempt.
	DefaultMaxRetries = 4
	// DefaultRetryWaitMin is the first backoff (before jitter).
	DefaultRetryWaitMin = time.Second
	// DefaultRetryWaitMax caps the exponential backoff. It does not cap a
	// wait the server asks for with Retry-After or X-RateLimit-Reset.
	DefaultRetryWaitMax = 30 * time.Second
)

// RetryOptions configures retries and pacing (Options.Retry).
//
// Which failures are retried depends on whether repeating the request is
// safe:
//   - network errors (refused or reset connections, timeouts of one attempt,
//     truncated bodies), 429, 502, 503 and 504 are retried for GET, HEAD, PUT
//     and DELETE, and a 2xx answer whose body is not JSON for GET, PUT and
//     DELETE (a HEAD answer has no body to spoil);
//   - 500 is retried for GET, HEAD and DELETE but not for PUT, because the
//     real server answers an update of an unknown id with 500 (see
//     UpdateWebsite);
//   - POST is retried by the transport only when nothing can have been
//     stored: after a 429 (the throttle runs before anything else) or when
//     the connection could not even be made. Every other failed create is
//     left to CreateWebsite, which knows how to repeat it without making
//     a duplicate.
//
// Waits grow exponentially from WaitMin to WaitMax with jitter, or are what
// the server asks for with Retry-After or X-RateLimit-Reset. No wait ends
// past the request context's deadline: the client fails at once with a
// *DeadlineError instead.
//
// Every attempt also goes through a pacer shared by all requests of the
// client: it reads X-RateLimit-Limit and X-RateLimit-Remaining to stop
// sending before the server's throttle refuses requests, waits out a 429
// for everyone, and applies RequestsPerMinute.
type RetryOptions struct {
	// MaxRetries is how many times a failed attempt is repeated. 0 means
	// never (pacing still applies).
	MaxRetries int
	// WaitMin is the first backoff; zero means DefaultRetryWaitMin.
	WaitMin time.Duration
	// WaitMax caps the exponential backoff; zero means DefaultRetryWaitMax
	// (or WaitMin, if that is larger).
	WaitMax time.Duration
	// RequestsPerMinute caps the requests sent, whatever the server allows.
	// 0 means no cap.
	RequestsPerMinute int
}

func (o RetryOptions) withDefaults() RetryOptions {
	o.MaxRetries = max(o.MaxRetries, 0)
	if o.WaitMin <= 0 {
		o.WaitMin = DefaultRetryWaitMin
	}
	if o.WaitMax <= 0 {
		o.WaitMax = DefaultRetryWaitMax
	}
	o.WaitMax = max(o.WaitMax, o.WaitMin)
	o.RequestsPerMinute = max(o.RequestsPerMinute, 0)
	return o
}

// backoff returns the wait before retry number attempt (1-based): WaitMin
// doubled per retry, capped at WaitMax, with "equal jitter" (between half
// and all of it) so that concurrent clients spread out.
func (o RetryOptions) backoff(attempt int) time.Duration {
	d := o.WaitMin
	for i := 1; i < attempt && d < o.WaitMax; i++ {
		d *= 2
	}
	d = min(d, o.WaitMax)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1)) //nolint:gosec // jitter, not security
}

// serverWait returns the wait the server asked for in a 429 or 503 answer
// (Retry-After, else X-RateLimit-Reset against the server's own Date), with
// a little jitter, and a description of it. ok is false when it asked for
// none.
func (o RetryOptions) serverWait(resp *http.Response) (wait, asked time.Duration, reason string, ok bool) {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
		return 0, 0, "", false
	}
	ra := RetryAfter(resp.Header, serverNow(resp.Header))
	if ra <= 0 {
		return 0, 0, "", false
	}
	jitter := min(ra/10, o.WaitMin)
	wait = ra + time.Duration(rand.Int64N(int64(jitter)+1)) //nolint:gosec // jitter, not security
	return wait, ra, fmt.Sprintf("the server asked to retry after %s (HTTP %d)", ra, resp.StatusCode), true
}

// serverNow is the server's time from a Date header, else the local time.
func serverNow(h http.Header) time.Time {
	if t, err := http.ParseTime(h.Get("Date")); err == nil {
		return t
	}
	return time.Now()
}

// retryTransport is the http.RoundTripper that New wraps around
// Options.Transport when Options.Retry is set: go-retryablehttp's retry loop
// with this package's policy, over attempts that go through the pacer.
type retryTransport struct {
	opts    RetryOptions
	log     Logger
	pacer   *pacer
	attempt *http.Client
}

func newRetryTransport(base http.RoundTripper, opts RetryOptions, attemptTimeout time.Duration, log Logger) *retryTransport {
	opts = opts.withDefaults()
	p := newPacer(opts.RequestsPerMinute, log)
	return &retryTransport{
		opts:  opts,
		log:   log,
		pacer: p,
		attempt: &http.Client{
			Transport:     &attemptTransport{next: base, pacer: p, timeout: attemptTimeout},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// RoundTrip sends req, retrying as RetryOptions describes. When the retries
// run out on an answer, that answer is returned as it is (so the client can
// report the server's message); when they run out on a network error, the
// error says how many attempts were made.
func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rreq, err := retryablehttp.FromRequest(req.Clone(req.Context()))
	if err != nil {
		return nil, err
	}
	st := &retryState{t: t, method: req.Method, path: req.URL.Path}
	rc := &retryablehttp.Client{
		HTTPClient:   t.attempt,
		RetryMax:     t.opts.MaxRetries,
		RetryWaitMin: t.opts.WaitMin,
		RetryWaitMax: t.opts.WaitMax,
		CheckRetry:   st.checkRetry,
		Backoff:      st.backoff,
		ErrorHandler: st.giveUp,
		// Logger stays nil: retryablehttp logs nothing itself; checkRetry
		// logs through t.log with the operation's context.
	}
	resp, err := rc.Do(rreq)
	if tr := traceFrom(req.Context()); tr != nil {
		tr.attempts.Store(int32(st.attempts)) //nolint:gosec // bounded by MaxRetries+1
	}
	// The outer http.Client adds its own *url.Error.
	return resp, unwrapURLError(err)
}

// retryState is the retry loop's state for one request.
type retryState struct {
	t        *retryTransport
	method   string
	path     string
	attempts int
	nextWait time.Duration
	deadline *DeadlineError
}

func (st *retryState) fields(extra map[string]any) map[string]any {
	f := map[string]any{"method": st.method, "path": st.path, "attempt": st.attempts}
	maps.Copy(f, extra)
	return f
}

// checkRetry decides after each attempt whether to retry, and computes the
// wait (go-retryablehttp's Backoff has no context, so the deadline is
// checked here).
func (st *retryState) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st.attempts++
	if tr := traceFrom(ctx); tr != nil {
		tr.attempts.Store(int32(st.attempts)) //nolint:gosec // bounded by MaxRetries+1
	}
	if ctx.Value(noRetryKey{}) != nil {
		return false, nil // a call that must cost one request (GetStatistics)
	}
	if ctx.Err() != nil {
		// The operation is over: go-retryablehttp hands the attempt's own
		// failure (or answer) to the caller.
		return false, nil //nolint:nilerr // not a retry decision error
	}
	var last error
	status := 0
	fields := map[string]any{}
	if err != nil {
		var de *DeadlineError
		if errors.As(err, &de) || !retryableError(st.method, err) {
			return false, nil
		}
		last = redactedError(unwrapURLError(err))
		fields["error"] = last.Error()
	} else {
		if !retryableResponse(st.method, resp) {
			return false, nil
		}
		last = errors.New(redact.String(describeResponse(resp)))
		status = resp.StatusCode
		fields["status"] = resp.StatusCode
	}
	opts := st.t.opts
	if st.attempts > opts.MaxRetries {
		if opts.MaxRetries > 0 {
			st.t.log.Warn(ctx, "giving up: no retries left", st.fields(fields))
		}
		return false, nil
	}
	wait, asked, reason, ok := opts.serverWait(resp)
	if !ok {
		wait = opts.backoff(st.attempts)
		asked = wait
		reason = fmt.Sprintf("retry %d of %d is due after a backoff", st.attempts, opts.MaxRetries)
	}
	now := time.Now()
	if de := refuseWait(ctx, now, pendingWait{until: now.Add(wait), asked: now.Add(asked), de: DeadlineError{Attempts: st.attempts,
		Reason: reason, Last: last, Status: status, Throttled: status == http.StatusTooManyRequests}}); de != nil {
		st.deadline = de
		fields["wait"] = wait.String()
		fields["left"] = de.Left.String()
		st.t.log.Warn(ctx, "giving up: the next retry would start after the operation's deadline", st.fields(fields))
		return false, st.deadline
	}
	if gate, ok := ctx.Value(retryGateKey{}).(func() bool); ok && !gate() {
		st.t.log.Warn(ctx, "giving up: the caller's budget of requests allows no retry", st.fields(fields))
		return false, nil
	}
	st.nextWait = wait
	fields["wait"] = wait.String()
	st.t.log.Warn(ctx, "retrying request", st.fields(fields))
	return true, nil
}

// redactedError is err, or its text without the secrets it shows (an
// answer that echoed the API key): a DeadlineError quotes its last
// failure, and reaches callers that the client's own redaction does not
// (the waiters of a shared request).
func redactedError(err error) error {
	if msg := err.Error(); redact.String(msg) != msg {
		return errors.New(redact.String(msg))
	}
	return err
}

// retryGateKey marks a request context whose retries the caller counts:
// each one is sent only when the gate (a func() bool) allows it.
type retryGateKey struct{}

// withRetryGate returns ctx whose requests retry only as gate allows (it
// is asked once per retry that is otherwise due, after the wait is known to
// fit before the deadline).
func withRetryGate(ctx context.Context, gate func() bool) context.Context {
	return context.WithValue(ctx, retryGateKey{}, gate)
}

func (st *retryState) backoff(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
	return st.nextWait
}

// giveUp is go-retryablehttp's ErrorHandler, called when the loop stops on
// a failure.
func (st *retryState) giveUp(resp *http.Response, err error, attempts int) (*http.Response, error) {
	if st.deadline != nil {
		if resp != nil {
			_ = resp.Body.Close()
		}
		return nil, st.deadline
	}
	if resp != nil && err == nil {
		return resp, nil // out of retries on an answer: let the client report it
	}
	if resp != nil {
		_ = resp.Body.Close()
	}
	if err == nil {
		err = errors.New("no answer")
	}
	err = unwrapURLError(err)
	var de *DeadlineError
	if errors.As(err, &de) {
		// The pacer refused to wait for the last attempt, which was not
		// sent.
		c := *de
		c.Attempts = attempts - 1
		return nil, &c
	}
	if attempts > 1 {
		return nil, fmt.Errorf("gave up after %d attempts: %w", attempts, err)
	}
	return nil, err
}

// unwrapURLError strips the *url.Error the inner http.Client adds (the
// outer one adds its own, with the same method and URL).
func unwrapURLError(err error) error {
	if u, ok := err.(*url.Error); ok { //nolint:errorlint // only the outermost wrapper
		return u.Err
	}
	return err
}

// retryableResponse reports whether an answer to method may be retried.
func retryableResponse(method string, resp *http.Response) bool {
	switch s := resp.StatusCode; {
	case s == http.StatusTooManyRequests:
		// The throttle refuses before anything else runs: even a POST
		// stored nothing.
		return true
	case s == http.StatusBadGateway, s == http.StatusServiceUnavailable, s == http.StatusGatewayTimeout:
		return method != http.MethodPost
	case s == http.StatusInternalServerError:
		// 500 on PUT means "unknown id" on the real server.
		return method == http.MethodGet || method == http.MethodHead || method == http.MethodDelete
	case s >= 200 && s < 300:
		// A successful answer whose body is not JSON was cut or spoiled on
		// its way; reading again is safe, a POST is left to the caller.
		return method != http.MethodPost && method != http.MethodHead && malformedBody(resp)
	}
	return false
}

// retryableError reports whether an attempt of method that failed with err
// (no answer, or an unreadable body) may be retried.
func retryableError(method string, err error) bool {
	if _, alert := tlsAlert(err); alert || classifyTLS(err, "", nil) != nil {
		return false // retrying will not fix a certificate or a refused handshake
	}
	if method == http.MethodPost {
		return isDialError(err)
	}
	return true
}

// isDialError reports whether err happened while connecting, before any
// byte of the request was sent.
func isDialError(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// mayHaveReachedApp reports whether an attempt that got resp, or failed
// with err, could have reached the application, once it had a connection
// (attemptTransport: before, nothing was sent). Only two outcomes prove it
// did not: a 429 (the throttle answers before anything else runs) and a
// connection never made. Any other answer came from the application or
// from something in front of it that may have passed the request on; any
// other failure may have come after the request was sent.
func mayHaveReachedApp(resp *http.Response, err error) bool {
	if err != nil {
		return !isDialError(err)
	}
	return resp == nil || resp.StatusCode != http.StatusTooManyRequests
}

// retryWait returns the wait before repeating a call that failed with err
// for the attempt-th time, and false when no retry is left or the wait would
// end past ctx's deadline.
func (c *Client) retryWait(ctx context.Context, attempt int, err error) (time.Duration, bool) {
	if attempt > c.retry.MaxRetries {
		return 0, false
	}
	wait := c.retry.backoff(attempt)
	if apiErr, ok := AsAPIError(err); ok && apiErr.RetryAfter > 0 {
		wait = apiErr.RetryAfter
	}
	if now := time.Now(); refuseWait(ctx, now, pendingWait{until: now.Add(wait)}) != nil {
		return 0, false
	}
	return wait, true
}

// UntimedWaitLimit bounds each wait (a retry's, the rate limit window's) of
// an operation without a deadline: a server that asks for longer (a
// throttle's Retry-After: 3600) fails it at once, with a *DeadlineError
// whose Untimed is set, instead of holding it for the hour. Waits that the
// server asks for within it add up as the operation needs: a list of many
// pages under the throttle takes as long as it takes.
const UntimedWaitLimit = 5 * time.Minute

// untimedLimit is the time by which a wait of an operation without a
// deadline that starts at now must end: UntimedWaitLimit later, not
// counting the jitter the client adds to what the server asked for (see
// pendingWait.fits).
func untimedLimit(now time.Time) time.Time {
	return now.Add(UntimedWaitLimit)
}

// waitDeadline is the time by which a wait that starts at now must end:
// ctx's deadline or, for an operation without one (untimed),
// untimedLimit(now). A shared request asks each waiter (refuseWait).
func waitDeadline(ctx context.Context, now time.Time) (dl time.Time, untimed bool) {
	if dl, ok := ctx.Deadline(); ok {
		return dl, false
	}
	return untimedLimit(now), true
}

// Sleep waits d, or less when ctx ends (then it returns ctx's error).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Package client is a Go client for the Website API of the phpAnalytics web
// analytics application (and its white-label brands). It knows nothing about
// Terraform.
//
// internal/emulator/README.md describes how a real installation answers
// (envelopes, loose types, errors). The client sends the key only in the
// Authorization header, always asks for JSON, encodes bodies as forms, never
// follows redirects and turns every unsuccessful answer into an *APIError
// that matches one of the sentinel errors.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/http/httpproxy"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
	"github.com/analytics-tf/terraform-provider-analytics/internal/userinfo"
)

// DefaultTimeout bounds one HTTP request when Options.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// maxBody bounds how much of a response body is read.
const maxBody = 16 << 20

// MaxIdleConnsPerHost is how many idle connections to the API the default
// transport keeps. Terraform runs 10 operations at once by default
// (-parallelism); the standard library keeps 2, so every other request
// would open a new connection (and, over https, a new TLS handshake).
const MaxIdleConnsPerHost = 32

// NewPooledTransport returns the default transport: a clone of
// http.DefaultTransport (HTTP/2, timeouts) that keeps up to
// MaxIdleConnsPerHost idle connections to the API and takes its proxy from
// HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms) as they
// are when it is made. That is http.ProxyFromEnvironment's rule (the same
// code), except that the standard library reads the environment once per
// process. As there, loopback hosts (localhost, 127.0.0.1, ::1) never go
// through a proxy.
func NewPooledTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone() //nolint:forcetypeassert // the standard library's default is an *http.Transport
	proxy := httpproxy.FromEnvironment().ProxyFunc()
	t.Proxy = func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }
	t.MaxIdleConnsPerHost = MaxIdleConnsPerHost
	if t.MaxIdleConns < MaxIdleConnsPerHost {
		t.MaxIdleConns = MaxIdleConnsPerHost
	}
	return t
}

// Options configures a Client. The zero value is usable.
type Options struct {
	// Timeout bounds one HTTP request (connection, headers and body); with
	// Retry set, each attempt gets its own Timeout and the context bounds
	// them all. Zero means DefaultTimeout; a negative value disables it.
	Timeout time.Duration
	// Transport sends the requests. It is the seam for retries and pacing:
	// wrap a RoundTripper around the default (nil means
	// NewPooledTransport()).
	Transport http.RoundTripper
	// Retry, if set, wraps Transport in this package's retrying, pacing
	// transport (see RetryOptions). Nil means one attempt per call.
	Retry *RetryOptions
	// Logger receives the client's log messages (retries, waits, adopted
	// creates). Nil means none.
	Logger Logger
	// Version is the provider version in the User-Agent ("dev" if empty).
	Version string
	// UserAgentExtra is appended to the User-Agent, e.g. "Terraform/1.8.5".
	UserAgentExtra string
	// CreateSettle is how long after a store was sent it may still land on
	// the server (see CreateWebsite). Zero means twice Timeout.
	CreateSettle time.Duration
	// TLS configures https connections: extra trusted CAs, a client
	// certificate, or no verification. It applies to the default transport
	// only; New fails when both TLS and Transport are set. Nil means Go's
	// defaults.
	TLS *TLS
	// Headers are sent with every request, e.g. the service token of an
	// access proxy in front of the installation. Headers the client or Go's
	// transport set themselves are refused (see CheckHeader). Their values
	// are sent trimmed, as Go's transport writes them, and registered with
	// the redactor like the API key.
	Headers map[string]string
}

// Client talks to one installation with one API key. It is safe for
// concurrent use.
type Client struct {
	base      *url.URL // ends in /api/v1
	apiKey    string
	http      *http.Client
	userAgent string
	headers   http.Header // Options.Headers, canonical
	tlsInfo   *tlsInfo
	retry     RetryOptions // MaxRetries 0 when Options.Retry is nil
	log       Logger
	clock     serverClock
	proof     apiProof
	account   accountCache
	// attemptTimeout bounds one request (Options.Timeout); settle is
	// Options.CreateSettle.
	attemptTimeout time.Duration
	settle         time.Duration
}

// New returns a client for the installation at baseURL (scheme, host,
// optional port and path prefix; "/api/v1" is appended once) using apiKey.
func New(baseURL, apiKey string, opts Options) (*Client, error) {
	base, err := ParseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(apiKey) == "" {
		return nil, errors.New("the API key is empty")
	}
	timeout := opts.Timeout
	switch {
	case timeout == 0:
		timeout = DefaultTimeout
	case timeout < 0:
		timeout = 0
	}
	headers, err := checkHeaders(opts.Headers)
	if err != nil {
		return nil, err
	}
	transport := opts.Transport
	info := &tlsInfo{}
	switch {
	case transport == nil:
		t := NewPooledTransport()
		if err := applyTLS(t, opts.TLS, info); err != nil {
			return nil, err
		}
		transport = t
	case opts.TLS != nil:
		return nil, errors.New("Options.TLS applies to the default transport only; configure TLS in Options.Transport")
	}
	logger := opts.Logger
	if logger == nil {
		logger = nopLogger{}
	}
	attemptTimeout := timeout
	var retry RetryOptions
	if opts.Retry != nil {
		retry = opts.Retry.withDefaults()
		transport = newRetryTransport(transport, retry, timeout, logger)
		timeout = 0 // each attempt is bounded by the transport
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	ua := "terraform-provider-analytics/" + version
	if extra := strings.TrimSpace(opts.UserAgentExtra); extra != "" {
		ua += " " + extra
	}
	// Every secret of the client is known to the process's redactor before
	// the first request: whatever an answer echoes is taken out of errors,
	// diagnostics and logs.
	// snippet writes invalid UTF-8 as "?" before an error quotes it.
	redact.Add(apiKey)
	for _, vs := range headers {
		for _, v := range vs {
			redact.Add(v)
		}
	}
	return &Client{
		base:    base,
		apiKey:  apiKey,
		headers: headers,
		tlsInfo: info,
		http: &http.Client{
			Transport: transport,
			Timeout:   timeout,
			// API calls never follow redirects: a redirect to /login means
			// the key was refused, and following it would leak nothing
			// useful but could cross to another host.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		userAgent:      ua,
		retry:          retry,
		log:            logger,
		attemptTimeout: attemptTimeout,
		settle:         opts.CreateSettle,
	}, nil
}

// ParseBaseURL validates a base URL and returns it with "/api/v1" appended
// once (a base URL that already ends in /api/v1 is accepted as is). Its
// errors never repeat the URL, which may hold a password (also one that a
// "/", "?" or "#" cut short, see userinfo.Hidden).
func ParseBaseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("the base URL is empty")
	}
	if userinfo.Suspect(raw) {
		return nil, errors.New("the base URL must not contain credentials (user:password@ before the host, also " +
			"when a \"/\", \"?\" or \"#\" in the password ends it early); use the API key instead")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's error repeats the URL.
		return nil, errors.New("the base URL is not a valid URL (a stray character such as % or a quote, or a " +
			"port that is no number)")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.New("the base URL must start with https:// or http://")
	}
	if u.Host == "" {
		return nil, errors.New("the base URL has no host name")
	}
	if u.User != nil {
		return nil, errors.New("the base URL must not contain credentials; use the API key instead")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("the base URL must not contain a query or fragment")
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/api/v1") {
		p += "/api/v1"
	}
	u.Path, u.RawPath = p, ""
	return u, nil
}

// BaseURL returns the API root the client talks to (ending in /api/v1).
func (c *Client) BaseURL() string { return c.base.String() }

// UserAgent returns the User-Agent header the client sends.
func (c *Client) UserAgent() string { return c.userAgent }

func (c *Client) endpoint(path string, query url.Values) string {
	u := *c.base
	u.Path = c.base.Path + path
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	return u.String()
}

// do sends one request and decodes a successful JSON answer into out (which
// may be nil). It returns an *APIError for every unsuccessful answer.
func (c *Client) do(ctx context.Context, method, path string, query, form url.Values, out any) error {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	ctx, trace := withTrace(ctx, method, path)
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint(path, query), body)
	if err != nil {
		return fmt.Errorf("building %s %s: %w", method, path, redact.URLError(err))
	}
	for k, v := range c.headers {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// The error names the URL: without its query (a search).
		err = redact.URLError(err)
		if te := c.classifyTLS(err); te != nil {
			err = te
		}
		return fmt.Errorf("%s %s: %w", method, path, c.redactErr(err))
	}
	defer resp.Body.Close()
	c.clock.observe(resp.Header, time.Now())
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("%s %s: reading the response (HTTP %d): %w", method, path, resp.StatusCode, c.redactErr(err))
	}
	addDomainSecrets(data) // before any decode, error or log quotes the answer
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(data, out); err != nil {
			return withAttempts(c.undecodable(method, path, resp.StatusCode, data, fmt.Errorf("%s: %w", expectedShape(out), err)), trace)
		}
		return nil
	}
	err = c.errorFor(method, path, resp, data, form)
	if errors.Is(err, ErrNotFound) {
		err = c.confirmNotFound(ctx, err)
	}
	return withAttempts(err, trace)
}

// errorFor is the error of a non-2xx answer. Its quotes of the answer
// (a message that is no text, a snippet) hide a "password" member as an
// undecodable 2xx answer's do. A 422's field names are redacted but those
// of the fields form sent, which are the client's own words (see
// redactFields).
func (c *Client) errorFor(method, path string, resp *http.Response, data []byte, form url.Values) error {
	e := &APIError{Method: method, Path: path, StatusCode: resp.StatusCode}
	quoted := bytes.TrimSpace(withoutPasswords(data))
	var body struct {
		Message json.RawMessage `json:"message"`
	}
	decoded := json.Unmarshal(data, &body) == nil && len(body.Message) > 0
	if decoded {
		var msg string
		if json.Unmarshal(body.Message, &msg) == nil {
			e.Message = c.redact(msg)
		} else {
			var fields map[string][]string
			if json.Unmarshal(body.Message, &fields) == nil {
				e.Fields = redactFields(fields, form)
				fields = e.Fields
				var msgs []string
				for _, k := range e.FieldNames() {
					msgs = append(msgs, fields[k]...)
				}
				e.Message = c.redact(strings.Join(msgs, " "))
			} else {
				e.Message = c.redact(snippet(withoutPasswords(body.Message), 200))
			}
		}
	} else if len(bytes.TrimSpace(data)) > 0 {
		e.Snippet = c.redact(snippet(quoted, 120))
	}
	switch code := resp.StatusCode; {
	case code >= 300 && code < 400:
		// The server's Location may hold a token or a password: it is
		// judged whole and named cut (redact.URL), which may cut more
		// than the user information (an "@" after a port).
		loc := resp.Header.Get("Location")
		e.Location = c.redact(redact.URL(loc))
		if isLoginRedirect(loc) {
			e.Kind = ErrUnauthenticated
		} else {
			e.Kind = ErrNotAPI
			e.BaseURL = c.BaseURL()
			e.Message = fmt.Sprintf("the server redirects the API elsewhere; set base_url to %s",
				c.redact(redact.URL(suggestBaseURL(c.redact(loc)))))
		}
	case code == http.StatusUnauthorized:
		e.Kind = ErrUnauthenticated
	case code == http.StatusForbidden:
		e.Kind = ErrForbidden
	case code == http.StatusNotFound:
		// Only the application's own answer can mean "no such website";
		// do confirms that the base URL serves the API (see VerifyAPI).
		e.Kind = ErrNotFound
		if !isAPINotFound(data) {
			e.Kind = ErrNotAPI
			e.BaseURL = c.BaseURL()
			if e.Snippet == "" && e.Message == "" {
				e.Snippet = c.redact(snippet(quoted, 120))
			}
		}
	case code == http.StatusUnprocessableEntity:
		e.Kind = ErrValidation
		if e.Fields == nil && !decoded {
			e.Kind = ErrUndecodable
			e.Err = errors.New(`expected a JSON object with a "message" field`)
		}
	case code == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		e.RetryAfter = RetryAfter(resp.Header, serverNow(resp.Header))
	default:
		e.Kind = ErrServer
		if code == http.StatusServiceUnavailable {
			e.RetryAfter = RetryAfter(resp.Header, serverNow(resp.Header))
		}
	}
	return e
}

func isLoginRedirect(loc string) bool {
	u, err := url.Parse(loc)
	if err != nil {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/login")
}

func (c *Client) undecodable(method, path string, status int, data []byte, err error) error {
	return &APIError{
		Kind:       ErrUndecodable,
		Method:     method,
		Path:       path,
		StatusCode: status,
		Snippet:    c.redact(snippet(bytes.TrimSpace(withoutPasswords(data)), 120)),
		Err:        errors.New(c.redact(err.Error())),
	}
}

// redact removes every secret the process knows (the API key, the extra
// headers' values, the websites' passwords: see package redact) from s, in
// every form an answer can carry it.
func (c *Client) redact(s string) string { return redact.String(s) }

// redactErr keeps the error chain (so callers can still detect timeouts,
// cancellation and TLS failures) unless a secret appears in its text.
func (c *Client) redactErr(err error) error {
	msg := err.Error()
	if r := c.redact(msg); r != msg {
		return errors.New(r)
	}
	return err
}

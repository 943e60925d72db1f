// Package hostiletest serves the emulator behind a hostile server: on the
// requests a test chooses, it answers instead of the emulator and echoes what
// it received (the Authorization header with the API key, every other
// header's value, the form's password, the request's URL) in every place an
// answer can carry it. The canary tests use it to check that no secret the
// provider sends comes back out of it, in any form, on any channel.
//
// It is deterministic: a test sets a schedule (Set) of the answers the next
// matching requests get, in order; every other request goes to the emulator.
//
// A new kind of hostile answer is an Answer constant, its case in Respond
// and an entry in Answers: TestAccSecrets_canaries (internal/provider)
// serves every entry of Answers to the first request of a plan, and
// TestServer checks what each answer carries.
package hostiletest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Answer is what the hostile server answers a request with.
type Answer string

// The answers; each echoes what the request carried (see Echoes).
const (
	// FieldErrors: 422 in the API's shape, {"message":{field:[messages]}}
	// (PHP's json_encode), with the echoes as field names and in the
	// messages.
	FieldErrors Answer = "422 field names and messages"
	// HTMLPage: a proxy's 502 HTML page, with the echoes HTML-escaped and
	// raw.
	HTMLPage Answer = "502 HTML page"
	// PHPBody: a 200 whose body cannot be decoded (a cut JSON object) and
	// holds the echoes as PHP's json_encode writes them, with its default
	// flags (\/, \", \\, \uXXXX beyond ASCII) and with JSON_HEX_TAG,
	// JSON_HEX_AMP, JSON_HEX_APOS and JSON_HEX_QUOT (\u003C, \u0026, ...).
	PHPBody Answer = "undecodable 200 with PHP escaping"
	// Redirect: a 302 whose Location carries the echoes path-escaped and
	// query-escaped.
	Redirect Answer = "302 Location, URL-encoded"
	// PasswordJSON: a 500 JSON body (Go's escaping: \u003c, \u0026, \")
	// with a password member and a request member holding the echoes.
	PasswordJSON Answer = "500 JSON with a password member"
)

// Answers are every answer the server can give, in the order tests cycle
// through them.
var Answers = []Answer{FieldErrors, HTMLPage, PHPBody, Redirect, PasswordJSON}

// Rule schedules answers for the requests that match it.
type Rule struct {
	// Method matches the request's method; "" matches any.
	Method string
	// Route matches the request's path under /api/v1 with every numeric
	// segment written {id}, e.g. "/websites/{id}", "/stats/{id}",
	// "/account"; "" matches any path.
	Route string
	// Answers are given, in order, to the next matching requests; once
	// they are spent, the rule passes requests to the emulator.
	Answers []Answer
}

// Served is one hostile answer the server gave.
type Served struct {
	Method, Route string
	Answer        Answer
}

// Server is the hostile server in front of an emulator.
type Server struct {
	// URL is the base URL of the installation behind the hostile server
	// (what a provider block's base_url names).
	URL string
	// Emulator is the emulator behind it.
	Emulator *emulator.Server

	mu     sync.Mutex
	rules  []*Rule
	served []Served
}

// New starts an emulator configured by opts (emulator.NewServer) and the
// hostile server in front of it, both stopped by t.Cleanup. Until Set is
// called, every request goes to the emulator.
func New(t emulator.TB, opts emulator.Options) *Server {
	t.Helper()
	emu := emulator.NewServer(t, opts)
	target, err := url.Parse(emu.HTTP.URL)
	if err != nil {
		t.Fatalf("hostile server: %v", err)
	}
	s := &Server{Emulator: emu}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = r.In.Host // the emulator builds its URLs from the host asked for
	}}
	hs := httptest.NewServer(s.handler(proxy))
	t.Cleanup(hs.Close)
	s.URL = hs.URL + strings.TrimPrefix(emu.URL, emu.HTTP.URL)
	return s
}

// Set replaces the schedule with rules; the first rule matching a request
// with answers left decides its answer.
func (s *Server) Set(rules ...Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = nil
	for _, r := range rules {
		r.Answers = append([]Answer(nil), r.Answers...)
		s.rules = append(s.rules, &r)
	}
}

// Unspent lists the scheduled answers no request received, as "METHOD
// route: answer" (a test checks it is empty, so that a schedule cannot
// silently miss the requests it was written for).
func (s *Server) Unspent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.rules {
		for _, a := range r.Answers {
			out = append(out, strings.TrimSpace(r.Method+" "+r.Route)+": "+string(a))
		}
	}
	return out
}

// Served lists the hostile answers given so far, in order.
func (s *Server) Served() []Served {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Served(nil), s.served...)
}

var numericSegment = regexp.MustCompile(`/[0-9]+(/|$)`)

// route is the path of r under /api/v1 with numeric segments as {id}.
func route(path string) string {
	if i := strings.Index(path, "/api/v1"); i >= 0 {
		path = path[i+len("/api/v1"):]
	}
	path = strings.TrimRight(path, "/")
	return numericSegment.ReplaceAllString(path, "/{id}$1")
}

// next pops the answer scheduled for r, if any.
func (s *Server) next(r *http.Request) (Answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rt := route(r.URL.Path)
	for _, rule := range s.rules {
		if len(rule.Answers) == 0 || (rule.Method != "" && rule.Method != r.Method) ||
			(rule.Route != "" && rule.Route != rt) {
			continue
		}
		a := rule.Answers[0]
		rule.Answers = rule.Answers[1:]
		s.served = append(s.served, Served{Method: r.Method, Route: rt, Answer: a})
		return a, true
	}
	return "", false
}

func (s *Server) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		answer, ok := s.next(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		Respond(w, r, answer, Echoes(r, body))
	})
}

// ordinaryHeaders are request headers whose values hold nothing of the
// user's; the others are echoed.
var ordinaryHeaders = map[string]bool{
	"Accept": true, "Accept-Encoding": true, "Content-Length": true, "Content-Type": true,
	"User-Agent": true, "Connection": true,
}

// Echoes are the values of r a hostile server sends back: the Authorization
// header (with the API key), every other header's value but the ordinary
// ones, the form's password (body is r's body) and the request's URL.
func Echoes(r *http.Request, body []byte) []string {
	out := []string{r.Header.Get("Authorization")}
	var names []string
	for name := range r.Header {
		if name != "Authorization" && !ordinaryHeaders[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, r.Header.Values(name)...)
	}
	if form, err := url.ParseQuery(string(body)); err == nil {
		out = append(out, form["password"]...)
	}
	return append(out, r.URL.RequestURI())
}

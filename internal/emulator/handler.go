package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

// Response is a complete API answer, computed (and any state change
// committed) before anything is written to the client. Keeping the two apart
// lets a wrapper inject faults: drop the connection before calling Respond
// (nothing committed) or after it (committed, answer lost), delay Send, or
// send a truncated Body.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Send writes the response to w.
func (resp *Response) Send(w http.ResponseWriter) {
	h := w.Header()
	for k, vs := range resp.Header {
		h[k] = append([]string(nil), vs...)
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
}

// Route patterns, as counted in Stats.ByRoute.
const (
	routeCollection = "/api/v1/websites"
	routeItem       = "/api/v1/websites/{id}"
	routeUnknown    = "(unknown)"
)

// allowed lists the methods of each route in Laravel's order.
var allowed = map[string][]string{
	routeCollection: {"GET", "HEAD", "POST"},
	routeStatistics: {"GET", "HEAD"},
	routeTrack:      {"POST"},
	routeAccount:    {"GET", "HEAD"},
	routeItem:       {"GET", "HEAD", "PUT", "PATCH", "DELETE"},
}

// looseNumberRE is the numeric prefix MySQL reads from a string it
// compares with a number (after leading blanks); no prefix reads as 0.
var looseNumberRE = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?`)

// looseID is the id a path's {id} segment selects: MySQL compares the
// string with the id column as numbers, so "5abc", "5.0" and " 5" select
// website 5 and "5.5" none (false).
func looseID(raw string) (int64, bool) {
	f, err := strconv.ParseFloat(looseNumberRE.FindString(strings.TrimLeft(raw, " \t\n\r")), 64)
	if err != nil || f != math.Trunc(f) || f < 1 || f > math.MaxInt64/2 {
		return 0, false
	}
	return int64(f), true
}

// request is one API request as it travels through the middleware.
type request struct {
	r      *http.Request
	method string // after _method / X-HTTP-Method-Override spoofing
	route  string // routeCollection, routeItem, ..., or routeUnknown
	rawID  string // the {id} segment of routeItem and routeStatistics
	raw    []byte // the body as sent (routeTrack only)
	in     *input
	user   User
	json   bool // $request->expectsJson()
}

// Respond computes the answer to r without writing it: the Laravel
// middleware (throttle, authentication, API access), the router and the
// controllers, committing any state change. Requests outside
// <PathPrefix>/api/v1, but for the tracking endpoint <PathPrefix>/api/event,
// get Laravel's route-not-found 404 and are not counted in Stats.
// It never panics: an internal failure is a 500 "Server Error". A CORS
// preflight on an api/* path is answered before all that, and every answer
// on those paths carries the CORS headers (package tracking).
func (e *Emulator) Respond(r *http.Request) *Response {
	if resp := e.preflight(r); resp != nil {
		return resp
	}
	return e.withCORS(r, e.respond(r))
}

// respond is Respond without CORS.
func (e *Emulator) respond(r *http.Request) *Response {
	req := &request{r: r, method: r.Method, json: expectsJSON(r)}
	if api, ok := e.apiPath(r.URL.Path); ok {
		req.route, req.rawID = matchRoute(api)
	} else if tracking.IsPath(e.opts.PathPrefix, r.URL.Path) {
		req.route = routeTrack
		if r.Body != nil && r.Body != http.NoBody {
			raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
			if err == nil {
				req.raw = raw
				r.Body = io.NopCloser(bytes.NewReader(raw))
			}
		}
	} else {
		return e.routeNotFound(r)
	}

	in, inErr := readInput(r, !e.opts.NoTrimStrings)
	if inErr == nil {
		req.in = in
		req.method = spoofedMethod(r, in)
	} else {
		req.in = &input{query: parsePHPQuery(r.URL.RawQuery), form: newParams()}
		req.in.body = req.in.form
	}
	_, keyOutside := e.token(req)

	resp := e.pipeline(req, inErr)
	e.stats.record(req.method, req.route, resp.Status, keyOutside)
	return resp
}

// pipeline runs the middleware and the controller, turning a panic into
// Laravel's 500.
func (e *Emulator) pipeline(req *request, inErr error) (resp *Response) {
	defer func() {
		if p := recover(); p != nil {
			resp = serverError(req)
		}
	}()
	return e.middleware(req, inErr)
}

// apiPath strips the installation prefix and reports whether path is under
// /api/v1.
func (e *Emulator) apiPath(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, e.opts.PathPrefix)
	if !ok {
		return "", false
	}
	if rest == "/api/v1" || strings.HasPrefix(rest, "/api/v1/") {
		return rest, true
	}
	return "", false
}

// matchRoute matches a path under /api/v1 like Laravel's router (trailing
// slashes ignored, {id} any segment: see looseID).
func matchRoute(api string) (route, id string) {
	p := strings.TrimRight(api, "/")
	if p == routeCollection {
		return routeCollection, ""
	}
	if p == routeAccount {
		return routeAccount, ""
	}
	if rest, ok := strings.CutPrefix(p, routeCollection+"/"); ok && rest != "" && !strings.Contains(rest, "/") {
		return routeItem, rest
	}
	if rest, ok := strings.CutPrefix(p, "/api/v1/stats/"); ok && rest != "" && !strings.Contains(rest, "/") {
		return routeStatistics, rest
	}
	return routeUnknown, ""
}

// spoofedMethod applies Symfony's HTTP method override, which Laravel
// enables: a POST may carry X-HTTP-Method-Override or a _method field.
func spoofedMethod(r *http.Request, in *input) string {
	if r.Method != http.MethodPost {
		return r.Method
	}
	m := r.Header.Get("X-HTTP-Method-Override")
	if m == "" {
		v := in.form.get("_method")
		if v == nil {
			v = in.query.get("_method")
		}
		m, _ = v.(string)
	}
	m = strings.ToUpper(m)
	if m == "" {
		return r.Method
	}
	for _, c := range m {
		if c < 'A' || c > 'Z' {
			return r.Method // Symfony refuses it (a 400 in Laravel); keep POST
		}
	}
	return m
}

// middleware runs the throttle, which comes before everything else (so bad
// keys and unknown routes count), then the router.
func (e *Emulator) middleware(req *request, inErr error) *Response {
	v := e.throttle.hit(clientIP(req.r), e.opts.Clock())
	if !v.allowed {
		resp := laravelError(req, http.StatusTooManyRequests, "Too Many Attempts.", "Too Many Requests")
		v.apply(resp.Header)
		return resp
	}
	resp := e.route(req, inErr)
	v.apply(resp.Header)
	return resp
}

// route dispatches a request that passed the throttle.
func (e *Emulator) route(req *request, inErr error) *Response {
	if req.route == routeUnknown {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	methods := allowed[req.route]
	if !isAllowed(req.method, methods) {
		if req.method == http.MethodOptions {
			resp := &Response{Status: http.StatusOK, Header: http.Header{}}
			resp.Header.Set("Allow", strings.Join(methods, ","))
			resp.Header.Set("Content-Type", "text/html; charset=UTF-8")
			return resp
		}
		path := req.r.URL.EscapedPath()
		if rest, ok := strings.CutPrefix(path, e.opts.PathPrefix); ok {
			path = rest
		}
		msg := fmt.Sprintf("The %s method is not supported for route %s. Supported methods: %s.",
			req.method, strings.Trim(path, "/"), strings.Join(methods, ", "))
		resp := laravelError(req, http.StatusMethodNotAllowed, msg, "Method Not Allowed")
		resp.Header.Set("Allow", strings.Join(methods, ", "))
		return resp
	}
	if errors.Is(inErr, errBodyTooLarge) {
		return laravelError(req, http.StatusRequestEntityTooLarge, "", "Content Too Large")
	}
	if inErr != nil {
		return serverError(req)
	}
	if req.route == routeTrack {
		return e.track(req) // no key: the script runs in visitors' browsers
	}

	// auth:api
	key, _ := e.token(req)
	u, ok := e.user(key)
	if !ok || key == "" {
		return e.unauthenticated(req)
	}
	req.user = u
	// The API access check of the user's plan.
	if !e.planOf(u).API {
		return jsonResponse(http.StatusForbidden, object{
			{"message", "You don't have access to this feature."}, {"status", 403},
		})
	}

	switch req.route + " " + req.method {
	case routeCollection + " GET", routeCollection + " HEAD":
		return e.index(req)
	case routeCollection + " POST":
		return e.store(req)
	case routeAccount + " GET", routeAccount + " HEAD":
		return e.account(req)
	case routeItem + " GET", routeItem + " HEAD":
		return e.show(req)
	case routeItem + " PUT", routeItem + " PATCH":
		return e.update(req)
	case routeItem + " DELETE":
		return e.destroy(req)
	case routeStatistics + " GET", routeStatistics + " HEAD":
		return e.statisticsShow(req)
	}
	return serverError(req)
}

func isAllowed(m string, methods []string) bool {
	for _, a := range methods {
		if a == m {
			return true
		}
	}
	return false
}

// token returns the API token as Laravel's TokenGuard finds it: the api_token
// query parameter, else the api_token input field, else the Bearer token,
// else the Basic authorization password. outside reports whether the request
// carried a key anywhere but the Bearer header.
func (e *Emulator) token(req *request) (token string, outside bool) {
	q, _ := req.in.query.get("api_token").(string)
	b, _ := req.in.get("api_token").(string)
	_, pw, basic := req.r.BasicAuth()
	outside = !phpEmpty(q) || !phpEmpty(b) || (basic && !phpEmpty(pw))
	for _, t := range []string{q, b, bearerToken(req.r)} {
		if !phpEmpty(t) {
			return t, outside
		}
	}
	if basic && !phpEmpty(pw) {
		return pw, outside
	}
	return "", outside
}

// bearerToken mirrors Laravel's Request::bearerToken().
func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	i := strings.LastIndex(h, "Bearer ")
	if i < 0 {
		return ""
	}
	h = h[i+len("Bearer "):]
	if j := strings.IndexByte(h, ','); j >= 0 {
		h = h[:j]
	}
	return h
}

// unauthenticated answers a request without a valid key: 401 JSON when it
// expects JSON, else a redirect to the login page.
func (e *Emulator) unauthenticated(req *request) *Response {
	if req.json {
		return jsonResponse(http.StatusUnauthorized, object{{"message", "Unauthenticated."}})
	}
	login := e.opts.LoginURL
	if login == "" {
		login = "https://" + req.r.Host + e.opts.PathPrefix + "/login"
	}
	return redirect(login)
}

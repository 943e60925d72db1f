package emulator

// CORS on every api/* path (<PathPrefix>/api/event, <PathPrefix>/api/v1/...),
// as the application answers it: Laravel's HandleCors middleware with every
// origin, method and header allowed, credentials supported and a max age of
// 0. It is global middleware, before maintenance mode and before the API's
// throttle: a preflight is answered on its own (204, never throttled, not in
// Stats' totals but in Stats.Preflights), and every other answer on those
// paths, whatever its status (a 429, a 503 in maintenance, a 404), carries
// the allow headers. The tracking script's JSON POST to /api/event is not a
// CORS simple request, so a browser sends such a preflight first.

import (
	"net/http"
	"strings"
)

// isCORSPath reports whether path is one of Laravel's 'api/*' paths below
// the installation's prefix: "api/" and more, once the slashes at both ends
// are trimmed.
func (e *Emulator) isCORSPath(path string) bool {
	rest, ok := strings.CutPrefix(path, e.opts.PathPrefix)
	return ok && (rest == "" || rest[0] == '/') && strings.HasPrefix(strings.Trim(rest, "/"), "api/")
}

// isPreflight reports whether r is a CORS preflight: OPTIONS with an
// Access-Control-Request-Method header (which may be empty).
func isPreflight(r *http.Request) bool {
	_, ok := r.Header["Access-Control-Request-Method"]
	return r.Method == http.MethodOptions && ok
}

// preflight answers r if it is a CORS preflight on an api/* path, and
// returns nil otherwise. With an Origin the answer allows it, the requested
// method and headers, with credentials, for no longer than this request
// (Access-Control-Max-Age: 0); without one it allows nothing.
func (e *Emulator) preflight(r *http.Request) *Response {
	if !isPreflight(r) || !e.isCORSPath(r.URL.Path) {
		return nil
	}
	resp := &Response{Status: http.StatusNoContent, Header: http.Header{}}
	h := resp.Header
	h.Set("Cache-Control", "no-cache, private")
	if origin, ok := r.Header["Origin"]; ok {
		h.Set("Access-Control-Allow-Origin", strings.Join(origin, ", "))
	}
	varyOn(h, "Origin")
	if _, ok := h["Access-Control-Allow-Origin"]; ok {
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Set("Access-Control-Allow-Methods", strings.ToUpper(r.Header.Get("Access-Control-Request-Method")))
		varyOn(h, "Access-Control-Request-Method")
		h.Set("Access-Control-Allow-Headers", r.Header.Get("Access-Control-Request-Headers"))
		varyOn(h, "Access-Control-Request-Headers")
		h.Set("Access-Control-Max-Age", "0")
	}
	varyOn(h, "Access-Control-Request-Method")
	e.stats.recordPreflight(strings.ToUpper(r.Header.Get("Access-Control-Request-Method")), e.routeOf(r.URL.Path))
	return resp
}

// withCORS adds to the answer of an actual request on an api/* path what
// HandleCors adds: Vary: Origin always, and with an Origin the allow
// headers. An OPTIONS request that is no preflight also varies on
// Access-Control-Request-Method.
func (e *Emulator) withCORS(r *http.Request, resp *Response) *Response {
	if !e.isCORSPath(r.URL.Path) {
		return resp
	}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	h := resp.Header
	if r.Method == http.MethodOptions {
		varyOn(h, "Access-Control-Request-Method")
	}
	if origin, ok := r.Header["Origin"]; ok {
		h.Set("Access-Control-Allow-Origin", strings.Join(origin, ", "))
	}
	varyOn(h, "Origin")
	if _, ok := h["Access-Control-Allow-Origin"]; ok {
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	return resp
}

// varyOn adds name to the Vary header unless it is there, as
// fruitcake/php-cors does ("a, b").
func varyOn(h http.Header, name string) {
	cur := h.Get("Vary")
	if cur == "" {
		h.Set("Vary", name)
		return
	}
	for _, v := range strings.Split(cur, ", ") {
		if v == name {
			return
		}
	}
	h.Set("Vary", cur+", "+name)
}

// routeOf is the route a path is counted under in Stats: a route under
// /api/v1, the tracking endpoint, or "(unknown)".
func (e *Emulator) routeOf(path string) string {
	if api, ok := e.apiPath(path); ok {
		route, _ := matchRoute(api)
		return route
	}
	if e.isTrackPath(path) {
		return routeTrack
	}
	return routeUnknown
}

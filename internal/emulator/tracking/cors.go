package tracking

// CORS on every api/* path (<PathPrefix>/api/event, <PathPrefix>/api/v1/...),
// as the application answers it: Laravel's HandleCors middleware with every
// origin, method and header allowed, credentials supported and a max age of
// 0. It is global middleware, before maintenance mode and before the API's
// throttle: a preflight is answered on its own (204, never throttled; the
// emulator counts it apart, in Stats.Preflights), and every other answer on those
// paths, whatever its status (a 429, a 503 in maintenance, a 404), carries
// the allow headers. The tracking script's JSON POST to /api/event is not a
// CORS simple request, so a browser sends such a preflight first.

import (
	"net/http"
	"strings"
)

// IsCORSPath reports whether path is one of Laravel's 'api/*' paths below
// the installation's prefix: "api/" and more, once the slashes at both ends
// are trimmed.
func IsCORSPath(prefix, path string) bool {
	rest, ok := strings.CutPrefix(path, prefix)
	return ok && (rest == "" || rest[0] == '/') && strings.HasPrefix(strings.Trim(rest, "/"), "api/")
}

// IsPreflight reports whether r is a CORS preflight: OPTIONS with an
// Access-Control-Request-Method header (which may be empty).
func IsPreflight(r *http.Request) bool {
	_, ok := r.Header["Access-Control-Request-Method"]
	return r.Method == http.MethodOptions && ok
}

// PreflightHeaders are the headers of the answer to r, a CORS preflight
// on an api/* path (IsPreflight, IsCORSPath), whose status is 204 No
// Content. With an Origin the answer allows it, the requested method and
// headers, with credentials, for no longer than this request
// (Access-Control-Max-Age: 0); without one it allows nothing.
func PreflightHeaders(r *http.Request) http.Header {
	h := http.Header{}
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
	return h
}

// AddCORSHeaders adds to h, the headers of the answer to an actual request
// r on an api/* path, what HandleCors adds: Vary: Origin always, and with
// an Origin the allow headers. An OPTIONS request that is no preflight also
// varies on Access-Control-Request-Method.
func AddCORSHeaders(r *http.Request, h http.Header) {
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

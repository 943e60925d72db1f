package emulator

// The browser's side of the installation, emulated by package tracking: the
// tracking endpoint POST <PathPrefix>/api/event, the tracking script and
// CORS on api/* paths. Here is only what connects it to the emulator: the
// endpoint's way to the websites and their statistics (trackingStore), the
// route's glue and the preflights' count.

import (
	"net/http"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

// routeTrack is the tracking endpoint, routed and counted like the API's
// routes but without authentication.
const routeTrack = tracking.Path

// trackingStore is the tracking endpoint's view of the state. Its methods
// run under e.mu, which track holds.
type trackingStore struct{ e *Emulator }

// Site is the website whose domain is domain, case aside, with the lowest
// id when a domain is stored twice.
func (s trackingStore) Site(domain string) (tracking.Site, bool) {
	var w *Website
	for _, c := range s.e.websites {
		if strings.EqualFold(c.Domain, domain) && (w == nil || c.ID < w.ID) {
			w = c // ->first(): the lowest id when a domain is stored twice
		}
	}
	if w == nil {
		return tracking.Site{}, false
	}
	u, ok := s.e.users[w.Owner]
	return tracking.Site{
		ID: w.ID, Domain: w.Domain,
		ExcludeBots: w.ExcludeBots != nil && *w.ExcludeBots != 0,
		ExcludeIPs:  w.ExcludeIPs, ExcludeParams: w.ExcludeParams,
		OverLimit: ok && u.OverPageviewLimit,
	}, true
}

// Record adds one hit to each row and persists the state.
func (s trackingStore) Record(id int64, date string, rows []tracking.Row) error {
	s.e.recordLocked(id, date, rows)
	return s.e.persistLocked()
}

// track is POST /api/event.
func (e *Emulator) track(req *request) *Response {
	treq := tracking.Request{
		HTTP: req.r, Body: req.raw, ClientIP: clientIP(req.r), Now: e.opts.Clock(),
		Input:  req.in.get,
		InBody: func(k string) bool { return req.in.body != req.in.query && req.in.body.has(k) },
		Trim:   !e.opts.NoTrimStrings,
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	body, err := tracking.Record(trackingStore{e}, treq)
	if err != nil {
		return serverError(req)
	}
	h, b := tracking.Answer(body)
	return &Response{Status: http.StatusOK, Header: h, Body: b}
}

// preflight answers r if it is a CORS preflight on an api/* path, counted
// in Stats.Preflights, and returns nil otherwise.
func (e *Emulator) preflight(r *http.Request) *Response {
	if !tracking.IsPreflight(r) || !tracking.IsCORSPath(e.opts.PathPrefix, r.URL.Path) {
		return nil
	}
	resp := &Response{Status: http.StatusNoContent, Header: tracking.PreflightHeaders(r)}
	e.stats.recordPreflight(strings.ToUpper(r.Header.Get("Access-Control-Request-Method")), e.routeOf(r.URL.Path))
	return resp
}

// withCORS adds the CORS headers to the answer to an actual request on an
// api/* path.
func (e *Emulator) withCORS(r *http.Request, resp *Response) *Response {
	if !tracking.IsCORSPath(e.opts.PathPrefix, r.URL.Path) {
		return resp
	}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	tracking.AddCORSHeaders(r, resp.Header)
	return resp
}

// routeOf is the route a path is counted under in Stats: a route under
// /api/v1, the tracking endpoint, or "(unknown)".
func (e *Emulator) routeOf(path string) string {
	if api, ok := e.apiPath(path); ok {
		route, _ := matchRoute(api)
		return route
	}
	if tracking.IsPath(e.opts.PathPrefix, path) {
		return routeTrack
	}
	return routeUnknown
}

package emulator

// The tracking endpoint, POST <PathPrefix>/api/event: how statistics arrive.
// The tracking script on a website sends each pageview (or custom event)
// there, without a key; the application records it for the website whose
// domain is the page's host. See statistics.go for how they are read.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// routeTrack is the tracking endpoint. It is in the API's route file, so
// the throttle runs before it, but outside /api/v1 and without
// authentication.
const routeTrack = "/api/event"

// isTrackPath reports whether path (with the installation's prefix) is the
// tracking endpoint.
func (e *Emulator) isTrackPath(path string) bool {
	rest, ok := strings.CutPrefix(path, e.opts.PathPrefix)
	return ok && strings.TrimRight(rest, "/") == routeTrack
}

// trackAnswer is the endpoint's answer: always HTTP 200, the outcome in the
// body ("200" recorded, "403" excluded, "404" no such website; "" for an
// event without a name).
func trackAnswer(body string) *Response {
	resp := &Response{Status: http.StatusOK, Header: http.Header{}, Body: []byte(body)}
	resp.Header.Set("Content-Type", "text/html; charset=UTF-8")
	resp.Header.Set("Cache-Control", "no-cache, private")
	return resp
}

// trackedURL is PHP's parse_url of a page or referrer, with the host
// without a leading "www." (every "www." removed, as the application does).
type trackedURL struct {
	host, nonWWW, path, query string
}

func parseTrackedURL(raw string) *trackedURL {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return nil
	}
	t := &trackedURL{host: u.Hostname(), path: u.EscapedPath(), query: u.RawQuery}
	t.nonWWW = t.host
	if strings.HasPrefix(t.host, "www.") {
		t.nonWWW = strings.ReplaceAll(t.host, "www.", "")
	}
	return t
}

// track is POST /api/event.
func (e *Emulator) track(req *request) *Response {
	str := func(k string) string { s, _ := req.in.get(k).(string); return s }
	page := parseTrackedURL(str("page"))
	now := e.opts.Clock().UTC()
	date, hour := now.Format("2006-01-02"), now.Format("15")

	e.mu.Lock()
	defer e.mu.Unlock()
	var w *Website
	if page != nil {
		for _, c := range e.websites {
			if strings.EqualFold(c.Domain, page.nonWWW) && (w == nil || c.ID < w.ID) {
				w = c // ->first(): the lowest id when a domain is stored twice
			}
		}
	}
	if w == nil {
		return trackAnswer("404")
	}
	if u, ok := e.users[w.Owner]; ok && u.OverPageviewLimit {
		return trackAnswer("403")
	}
	if ipExcluded(clientIP(req.r), w.ExcludeIPs) {
		return trackAnswer("403")
	}
	if w.ExcludeBots != nil && *w.ExcludeBots != 0 && IsBot(req.r.UserAgent()) {
		return trackAnswer("403")
	}

	var rows []member
	if ev := trackedEvent(req, !e.opts.NoTrimStrings); ev != nil {
		name, ok := ev["name"]
		if !ok {
			return trackAnswer("")
		}
		value := ""
		if v := strings.TrimSpace(ev["value"]); v != "" && len(v) <= 10 {
			if f, ok := phpNumeric(v); ok && f > 0 { // is_numeric
				value = v
			}
		}
		unit := ""
		if u := ev["unit"]; len([]rune(u)) <= 32 {
			unit = u
		}
		rows = append(rows, member{"event", strings.ReplaceAll(name, ":", " ") + ":" + value + ":" + unit})
	} else {
		recorded := recordedPage(page, w.ExcludeParams)
		rows = append(rows, member{"pageviews", date}, member{"pageviews_hour", hour}, member{"page", recorded})
		ref := parseTrackedURL(str("referrer"))
		if ref == nil || ref.nonWWW != w.Domain {
			// A visit not referred by the website itself: a visitor.
			referrer := ""
			if ref != nil {
				referrer = ref.host
			}
			agent := classifyUserAgent(req.r.UserAgent())
			lang := req.r.Header.Get("Accept-Language")
			lang = truncateRunes(lang, 2)
			if c := queryValue(page.query, "utm_campaign"); c != "" {
				rows = append(rows, member{"campaign", c})
			}
			rows = append(rows,
				member{"continent", ""}, member{"country", ""}, member{"city", ""}, // no GeoIP database
				member{"browser", agent.Browser}, member{"os", agent.OS}, member{"device", agent.Device},
				member{"language", lang},
				member{"visitors", date}, member{"visitors_hour", hour},
				member{"resolution", str("screen_resolution")},
				member{"landing_page", recorded},
				member{"referrer", referrer},
			)
		}
	}
	e.recordLocked(w.ID, date, rows)
	if err := e.persistLocked(); err != nil {
		return serverError(req)
	}
	return trackAnswer("200")
}

// trackedEvent returns the fields of a custom event, or nil for a
// pageview: the event[...] fields of a form, or the "event" object of a
// JSON body, as the tracking script sends it ({"event": {"name": ...},
// "page": ...}), trimmed as the input middleware does when trim is set.
// They come from where $request->input('event') finds "event": the body
// (Laravel's input() is the body's fields + the query's, so the body's
// event replaces the query's whole), else the query string.
func trackedEvent(req *request, trim bool) map[string]string {
	if _, ok := req.in.get("event").(phpArray); !ok {
		return nil
	}
	clean := func(s string) string { return s }
	if trim {
		clean = laravel.Trim
	}
	fields := urlencodedFields(req.r.URL.RawQuery)
	if req.in.body != req.in.query && req.in.body.has("event") {
		ct := req.r.Header.Get("Content-Type")
		if isJSONType(ct) {
			return jsonEvent(req.raw, clean)
		}
		if mediaType, params, _ := mime.ParseMediaType(ct); mediaType == "multipart/form-data" {
			fields = multipartFields(req.raw, params["boundary"])
		} else {
			fields = urlencodedFields(string(req.raw))
		}
	}
	ev := map[string]string{}
	for _, f := range fields {
		// PHP drops the spaces that begin a name.
		if name, ok := strings.CutPrefix(strings.TrimLeft(f[0], " "), "event["); ok && strings.HasSuffix(name, "]") {
			ev[strings.TrimSuffix(name, "]")] = clean(f[1])
		}
	}
	return ev
}

// urlencodedFields are the decoded name and value of each pair of a query
// string or form body, in order.
func urlencodedFields(raw string) [][2]string {
	var fields [][2]string
	for pair := range strings.SplitSeq(raw, "&") {
		k, v, _ := strings.Cut(pair, "=")
		fields = append(fields, [2]string{phpURLDecode(k), phpURLDecode(v)})
	}
	return fields
}

// jsonEvent returns the fields of the "event" object of a JSON body as
// PHP reads them into strings (phpString: an integer as written, a float
// with precision 14, true as "1", false as ""), null left out; strings
// passed through clean (the input middleware's trim, or none). An "event"
// that is an array has no named fields.
func jsonEvent(raw []byte, clean func(string) string) map[string]string {
	var body map[string]json.RawMessage // the key "event" exactly, as PHP's array has it
	ev := map[string]string{}
	var fields map[string]any
	if json.Unmarshal(raw, &body) != nil {
		return ev
	}
	dec := json.NewDecoder(bytes.NewReader(body["event"]))
	dec.UseNumber()
	if dec.Decode(&fields) != nil {
		return ev
	}
	for k, v := range fields {
		switch x := jsonValue(v).(type) {
		case nil:
		case string:
			ev[k] = clean(x)
		default:
			if str, ok := phpString(x); ok {
				ev[k] = str
			}
		}
	}
	return ev
}

// recordedPage is the page as recorded: path and query, without the
// website's excluded query parameters (all of them for "&"), at most 255
// characters.
func recordedPage(page *trackedURL, excludeParams string) string {
	query := page.query
	if excludeParams != "" {
		names := splitLines(excludeParams)
		if containsString(names, "&") {
			query = ""
		} else {
			query = withoutParams(query, names)
		}
	}
	p := page.path
	if p == "" {
		p = "/"
	}
	if query != "" {
		p = page.path + "?" + query
	}
	return truncateRunes(p, 255)
}

// splitLines is preg_split('/\n|\r/', $s, -1, PREG_SPLIT_NO_EMPTY).
func splitLines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// withoutParams removes the named parameters from a query string and
// rebuilds it as parse_str and http_build_query do (names decoded, "." and
// " " in names read as "_", values re-encoded with "+" for spaces).
func withoutParams(query string, names []string) string {
	p := parsePHPQuery(query)
	var parts []string
	for _, k := range p.keys {
		v, ok := p.vals[k].(string)
		if !ok || containsString(names, k) {
			continue // arrays are left out of this emulation
		}
		parts = append(parts, phpURLEncode(k)+"="+phpURLEncode(v))
	}
	return strings.Join(parts, "&")
}

// queryValue is the value of one parameter of a query string, "" if absent.
func queryValue(query, name string) string {
	v, _ := parsePHPQuery(query).get(name).(string)
	return v
}

// phpURLEncode is PHP's urlencode: letters, digits and "-_." kept, space
// as "+", everything else %XX.
func phpURLEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

// ipExcluded is Symfony's IpUtils::checkIp over the website's exclude_ips,
// split on line breaks: an entry is an address or a CIDR range, IPv4 or
// IPv6 as the client's address is; anything else (stray spaces included)
// never matches.
func ipExcluded(client, excludeIPs string) bool {
	addr, err := netip.ParseAddr(client)
	if err != nil {
		return false
	}
	v6 := strings.Count(client, ":") > 1
	for _, entry := range splitLines(excludeIPs) {
		if strings.Contains(entry, ":") != v6 {
			continue
		}
		if !strings.Contains(entry, "/") {
			if a, err := netip.ParseAddr(entry); err == nil && a == addr {
				return true
			}
			continue
		}
		if pfx, err := netip.ParsePrefix(entry); err == nil && pfx.Contains(addr) {
			return true
		}
	}
	return false
}

// DesktopUserAgent is a desktop Firefox's user agent, a visitor's that no
// rule of the bot list matches: what SendHit presents unless told otherwise.
const DesktopUserAgent = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

// Hit is one pageview as a visitor's browser sends it (see SendHit).
type Hit struct {
	// Page is the full URL of the page, e.g. "https://example.com/a?b=1".
	Page string
	// Referrer is the full URL of the referring page, if any.
	Referrer string
	// UserAgent is the browser's User-Agent; "" sends DesktopUserAgent (Go's
	// own, Go-http-client, is a bot's to the application).
	UserAgent string
	// ScreenResolution is e.g. "1920x1080".
	ScreenResolution string
}

// SendHit posts h to the tracking endpoint of the installation at baseURL
// (without /api/v1), with the client's address as the visitor's, as the
// tracking script does, and returns the answer's body: "200" recorded,
// "403" excluded, "404" no website with the page's domain. It is how tests
// and the demo make statistics.
func SendHit(ctx context.Context, c *http.Client, baseURL string, h Hit) (string, error) {
	form := url.Values{"page": {h.Page}, "referrer": {h.Referrer}}
	if h.ScreenResolution != "" {
		form.Set("screen_resolution", h.ScreenResolution)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+routeTrack,
		strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	ua := h.UserAgent
	if ua == "" {
		ua = DesktopUserAgent
	}
	req.Header.Set("User-Agent", ua)
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return string(body), fmt.Errorf("tracking endpoint answered HTTP %d", resp.StatusCode)
	}
	return string(body), nil
}

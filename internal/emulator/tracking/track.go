package tracking

// The tracking endpoint, POST <PathPrefix>/api/event: how statistics arrive.
// The tracking script on a website sends each pageview (or custom event)
// there, without a key; the application records it for the website whose
// domain is the page's host.

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
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
	"github.com/analytics-tf/terraform-provider-analytics/internal/php"
)

// Path is the tracking endpoint, below the installation's base URL. It is
// in the API's route file, so the throttle runs before it, but outside
// /api/v1 and without authentication.
const Path = "/api/event"

// IsPath reports whether path is the tracking endpoint below the
// installation's prefix (trailing slashes ignored, as Laravel's router
// does).
func IsPath(prefix, path string) bool {
	rest, ok := strings.CutPrefix(path, prefix)
	return ok && strings.TrimRight(rest, "/") == Path
}

// Site is what the endpoint reads of a website.
type Site struct {
	ID            int64
	Domain        string
	ExcludeBots   bool   // exclude_bots is 1
	ExcludeIPs    string // exclude_ips as stored
	ExcludeParams string // exclude_params as stored
	// OverLimit: the owner's account is over its plan's pageviews.
	OverLimit bool
}

// Row is one statistic a hit adds one to: its name (one of the names GET
// /api/v1/stats/{id} reads) and its value, e.g. {"pageviews", "2024-10-13"}.
type Row struct {
	Name, Value string
}

// Store is what the endpoint needs of the installation's state. The caller
// holds the state's lock across one Record, so that the website found is
// the one recorded.
type Store interface {
	// Site is the website whose domain equals domain, case aside; the
	// lowest id when a domain is stored twice (Eloquent's ->first()).
	Site(domain string) (Site, bool)
	// Record adds one hit to each row of website id on date and commits
	// it. An error is the application's 500.
	Record(id int64, date string, rows []Row) error
}

// Request is one request to the endpoint, as the application's controller
// sees it.
type Request struct {
	HTTP     *http.Request // its headers and query string
	Body     []byte        // its body as sent
	ClientIP string        // $request->ip()
	Now      time.Time     // the installation's clock
	// Input is $request->input(name) after the input middleware: a string,
	// a php.Array, another scalar of a JSON body, or nil.
	Input func(name string) any
	// InBody reports whether the request's body (its form or JSON, not its
	// query string) carries name.
	InBody func(name string) bool
	// Trim: the TrimStrings middleware runs (the emulator's
	// Options.NoTrimStrings is off).
	Trim bool
}

// Answer is the header and body of the endpoint's answer with body, the
// outcome Record returns ("200" recorded, "403" excluded, "404" no such
// website; "" for an event without a name). Its status is always 200.
func Answer(body string) (http.Header, []byte) {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=UTF-8")
	h.Set("Cache-Control", "no-cache, private")
	return h, []byte(body)
}

// trackedURL is PHP's parse_url of a page or referrer, with the host
// without a leading "www." (every "www." removed, as the application does).
type trackedURL struct {
	host, nonWWW, path, query string
}

func parseTrackedURL(raw string) *trackedURL {
	u, ok := php.ParseURL(raw) // a percent-encoded host stays encoded, unlike Go's url.Parse
	if !ok || !u.HasHost {
		return nil
	}
	t := &trackedURL{host: u.Host, path: u.Path, query: u.Query}
	t.nonWWW = t.host
	if strings.HasPrefix(t.host, "www.") {
		t.nonWWW = strings.ReplaceAll(t.host, "www.", "")
	}
	return t
}

// Record is POST /api/event: it records req in store and returns the
// answer's body (see Answer). An error of the store is the caller's 500.
func Record(store Store, req Request) (string, error) {
	str := func(k string) string { s, _ := req.Input(k).(string); return s }
	page := parseTrackedURL(str("page"))
	now := req.Now.UTC()
	date, hour := now.Format("2006-01-02"), now.Format("15")

	var w Site
	found := false
	if page != nil {
		w, found = store.Site(page.nonWWW)
	}
	if !found {
		return "404", nil
	}
	if w.OverLimit {
		return "403", nil
	}
	if ipExcluded(req.ClientIP, w.ExcludeIPs) {
		return "403", nil
	}
	if w.ExcludeBots && IsBot(req.HTTP.UserAgent()) {
		return "403", nil
	}

	var rows []Row
	if ev := trackedEvent(req); ev != nil {
		name, ok := ev["name"]
		if !ok {
			return "", nil
		}
		value := ""
		if v := strings.TrimSpace(ev["value"]); v != "" && len(v) <= 10 {
			if f, ok := php.Numeric(v); ok && f > 0 { // is_numeric
				value = v
			}
		}
		unit := ""
		if u := ev["unit"]; len([]rune(u)) <= 32 {
			unit = u
		}
		rows = append(rows, Row{"event", strings.ReplaceAll(name, ":", " ") + ":" + value + ":" + unit})
	} else {
		recorded := recordedPage(page, w.ExcludeParams)
		rows = append(rows, Row{"pageviews", date}, Row{"pageviews_hour", hour}, Row{"page", recorded})
		ref := parseTrackedURL(str("referrer"))
		if ref == nil || ref.nonWWW != w.Domain {
			// A visit not referred by the website itself: a visitor.
			referrer := ""
			if ref != nil {
				referrer = ref.host
			}
			agent := classifyUserAgent(req.HTTP.UserAgent())
			lang := req.HTTP.Header.Get("Accept-Language")
			lang = php.Substr(lang, 2)
			if c := queryValue(page.query, "utm_campaign"); c != "" {
				rows = append(rows, Row{"campaign", c})
			}
			rows = append(rows,
				Row{"continent", ""}, Row{"country", ""}, Row{"city", ""}, // no GeoIP database
				Row{"browser", agent.Browser}, Row{"os", agent.OS}, Row{"device", agent.Device},
				Row{"language", lang},
				Row{"visitors", date}, Row{"visitors_hour", hour},
				Row{"resolution", str("screen_resolution")},
				Row{"landing_page", recorded},
				Row{"referrer", referrer},
			)
		}
	}
	if err := store.Record(w.ID, date, rows); err != nil {
		return "", err
	}
	return "200", nil
}

// trackedEvent returns the fields of a custom event, or nil for a
// pageview: the event[...] fields of a form, or the "event" object of a
// JSON body, as the tracking script sends it ({"event": {"name": ...},
// "page": ...}), trimmed as the input middleware does when req.Trim is set.
// They come from where $request->input('event') finds "event": the body
// (Laravel's input() is the body's fields + the query's, so the body's
// event replaces the query's whole), else the query string.
func trackedEvent(req Request) map[string]string {
	if _, ok := req.Input("event").(php.Array); !ok {
		return nil
	}
	clean := func(s string) string { return s }
	if req.Trim {
		clean = laravel.Trim
	}
	fields := urlencodedFields(req.HTTP.URL.RawQuery)
	if req.InBody("event") {
		ct := req.HTTP.Header.Get("Content-Type")
		if laravel.IsJSON(ct) {
			return jsonEvent(req.Body, clean)
		}
		if mediaType, params, _ := mime.ParseMediaType(ct); mediaType == "multipart/form-data" {
			fields = php.MultipartFields(req.Body, params["boundary"])
		} else {
			fields = urlencodedFields(string(req.Body))
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
		fields = append(fields, [2]string{php.URLDecode(k), php.URLDecode(v)})
	}
	return fields
}

// jsonEvent returns the fields of the "event" object of a JSON body as
// PHP reads them into strings (php.String: an integer as written, a float
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
		switch x := php.JSONValue(v).(type) {
		case nil:
		case string:
			ev[k] = clean(x)
		default:
			if str, ok := php.String(x); ok {
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
	return php.Substr(p, 255)
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
	keys, vals := php.ParseStr(query)
	var parts []string
	for _, k := range keys {
		v, ok := vals[k].(string)
		if !ok || containsString(names, k) {
			continue // arrays are left out of this emulation
		}
		parts = append(parts, php.URLEncode(k)+"="+php.URLEncode(v))
	}
	return strings.Join(parts, "&")
}

// queryValue is the value of one parameter of a query string, "" if absent.
func queryValue(query, name string) string {
	_, vals := php.ParseStr(query)
	v, _ := vals[name].(string)
	return v
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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+Path,
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

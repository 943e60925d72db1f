package provider

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/userinfo"
)

// The plan-time rules of the provider's own settings (the website's are in
// validators.go): the base URL, the API key, the tracking URL (applied to
// values from the environment too, see settingRule), durations, PEM
// certificates and keys, and extra headers.

// durationValidator accepts a positive Go duration (positiveDuration).
func durationValidator() validator.String {
	return stringCheck{
		description: "must be a positive duration such as \"30s\" or \"2m\"",
		summary:     "Invalid Duration",
		problem: func(attr path.Path, v string) string {
			_, p := positiveDuration(attr, v)
			return p
		},
	}
}

// positiveDuration is the one rule of every duration a user gives (the
// provider's timeout, the export's timeout, the website's timeouts block):
// a Go duration above zero. A zero or negative one would end every
// operation before its first request (or, for the client's timeout, turn
// the limit off). It returns the duration, or why v is not one.
func positiveDuration(attr path.Path, v string) (time.Duration, string) {
	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d, ""
	}
	return 0, fmt.Sprintf("%s = %q is not a positive duration. Use a number with a unit, such as \"30s\", \"90s\" or \"2m\".", attr, v)
}

// baseURLRule: the installation's base URL. Its messages never repeat
// credentials or a query string, which may hold secrets.
var baseURLRule = settingRule{
	attr: "base_url", env: EnvBaseURL,
	summary:     "Invalid Analytics Base URL",
	description: "must be an http:// or https:// URL without credentials, query or fragment",
	ifEmpty:     "Set it to the URL of the analytics installation, e.g. " + exampleURL + ".",
	problem:     baseURLProblem,
}

// baseURLProblem is the base URL rule: why raw (from the setting name) is
// no base URL, or "".
func baseURLProblem(name, raw string) string {
	if strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return fmt.Sprintf("%s contains white space or a line break. Set it to the bare URL of the installation, e.g. %s.", name, exampleURL)
	}
	if !strings.Contains(raw, "://") {
		if strings.Contains(raw, "@") {
			return fmt.Sprintf("%s has no scheme and contains user information (text before \"@\"). Set it to the URL "+
				"of the installation starting with https://, without credentials, e.g. %s; the API key goes in api_key.", name, exampleURL)
		}
		if m := mistypedScheme.FindString(raw); m != "" {
			return fmt.Sprintf("%s %s starts with a mistyped scheme %q: a scheme is followed by \"://\". Write "+
				"e.g. %s.", name, quotedURL(raw), m, noSchemeFix(raw))
		}
		return fmt.Sprintf("%s %s has no scheme. Write the URL with https:// (or http:// for a server on this "+
			"machine), e.g. %s.", name, quotedURL(raw), noSchemeFix(raw))
	}
	if userinfo.Hidden(raw) {
		return hiddenUserInfo(name, exampleURL) + " The API authenticates with the API key only: set api_key."
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's error repeats the whole URL, which may contain
		// credentials: it is not passed on.
		return fmt.Sprintf("%s is not a valid URL (check for stray characters such as %% or quotes, and that a port "+
			"is a number). Set it to the URL of the installation, e.g. %s.", name, exampleURL)
	}
	if u.User != nil {
		return fmt.Sprintf("%s contains user credentials (user:password@ before the host). The API authenticates "+
			"with the API key only: remove them, e.g. %s, and set api_key. Treat the credentials as exposed if the "+
			"configuration is shared.", name, proposedURL(raw, u, url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}, exampleURL))
	}
	if !strings.EqualFold(u.Scheme, "https") && !strings.EqualFold(u.Scheme, "http") {
		return fmt.Sprintf("%s uses the scheme %q; the API is served over https:// (or http://). Use e.g. %s.",
			name, u.Scheme+"://", proposedURL(raw, u, url.URL{Scheme: "https", Host: u.Host, Path: u.Path}, exampleURL))
	}
	if u.Host == "" || u.Hostname() == "" {
		return fmt.Sprintf("%s %s has no host name. Set it to the URL of the installation, e.g. %s.", name, quotedURL(u.Redacted()), exampleURL)
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return fmt.Sprintf("%s must not contain a query string or fragment (\"?...\" or \"#...\"): the provider adds "+
			"the API paths and parameters itself, and the API key belongs in api_key, never in the URL. Use %s.",
			name, proposedURL(raw, u, url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}, exampleURL))
	}
	return ""
}

const exampleURL = "https://analytics.example.com"

// trackingURLRule: the installation's public address (tracking_url).
var trackingURLRule = settingRule{
	attr: "tracking_url", env: EnvTrackingURL,
	summary:     "Invalid Tracking URL",
	description: "must be an absolute http:// or https:// URL without credentials, query or fragment",
	ifEmpty:     "Set it to the installation's address as browsers reach it, e.g. " + exampleURL + ", or remove it to use base_url.",
	problem: func(name, raw string) string {
		u, err := url.Parse(strings.TrimSpace(raw))
		switch {
		case strings.ContainsFunc(strings.TrimSpace(raw), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
			return fmt.Sprintf("%s contains white space or a line break. Set it to the bare URL browsers reach the "+
				"installation at, e.g. %s.", name, exampleURL)
		case userinfo.Hidden(strings.TrimSpace(raw)):
			return hiddenUserInfo(name, exampleURL) + " The tracking code would publish it in every page of the website."
		case err != nil || !u.IsAbs() || (!strings.EqualFold(u.Scheme, "https") && !strings.EqualFold(u.Scheme, "http")) ||
			u.Hostname() == "" || u.Opaque != "":
			return fmt.Sprintf("%s %s is not an absolute http:// or https:// URL. Set it to the installation's address "+
				"as visitors' browsers reach it, with its scheme, e.g. %s (or https://example.com/analytics under a "+
				"path prefix).", name, quotedURL(raw), exampleURL)
		case u.User != nil:
			return fmt.Sprintf("%s contains user credentials (user:password@ before the host), which the tracking code "+
				"would publish in every page of the website. Remove them, e.g. %s.", name,
				proposedURL(raw, u, url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}, exampleURL))
		case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
			return fmt.Sprintf("%s must not contain a query string or fragment (\"?...\" or \"#...\"): the tracking "+
				"code appends /js/script.js and /api/event to it. Use %s.", name,
				proposedURL(raw, u, url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}, exampleURL))
		}
		return ""
	},
}

// trackingScriptURLRule: where browsers load the tracking script from
// (tracking_script_url), when the installation serves it from a CDN. A
// query string (a version, say) is allowed; credentials would be published
// in every page.
var trackingScriptURLRule = settingRule{
	attr: "tracking_script_url", env: EnvTrackingScriptURL,
	summary:     "Invalid Tracking Script URL",
	description: "must be an absolute http:// or https:// URL without credentials",
	ifEmpty: "Set it to the address the installation's tracking script is served at, e.g. " +
		"https://cdn.example.com/js/script.js, or remove it to use tracking_url followed by /js/script.js.",
	problem: func(name, raw string) string {
		u, err := url.Parse(strings.TrimSpace(raw))
		switch {
		case strings.ContainsFunc(strings.TrimSpace(raw), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
			return fmt.Sprintf("%s contains white space or a line break. Set it to the bare address of the tracking "+
				"script, e.g. https://cdn.example.com/js/script.js.", name)
		case userinfo.Hidden(strings.TrimSpace(raw)):
			return hiddenUserInfo(name, "https://cdn.example.com/js/script.js") + " The tracking code would publish it " +
				"in every page of the website."
		case err != nil || !u.IsAbs() || (!strings.EqualFold(u.Scheme, "https") && !strings.EqualFold(u.Scheme, "http")) ||
			u.Hostname() == "" || u.Opaque != "":
			return fmt.Sprintf("%s %s is not an absolute http:// or https:// URL. Set it to the full address browsers "+
				"load the tracking script from, with its scheme, e.g. https://cdn.example.com/js/script.js (the "+
				"installation's CDN setting for the script).", name, quotedURL(raw))
		case u.User != nil:
			return fmt.Sprintf("%s contains user credentials (user:password@ before the host), which the tracking code "+
				"would publish in every page of the website. Remove them, e.g. %s.", name,
				proposedURL(raw, u, url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path},
					"https://cdn.example.com/js/script.js"))
		}
		return ""
	},
}

// hiddenUserInfo is the refusal of the URL setting name when it may hold
// user information that a "/", "?" or "#" in the password cut short
// (userinfo.Hidden), which URL parsers would read as the host, the port
// and the path: nothing of the value is repeated.
func hiddenUserInfo(name, example string) string {
	return fmt.Sprintf("%s may hold user credentials (user:password@ before the host) whose password contains "+
		"\"/\", \"?\" or \"#\", so that URL parsers read a part of it as the host and the rest as the path: it has "+
		"an \"@\" after the authority and before the real host. The value is not repeated here. Remove the "+
		"credentials, e.g. %s, and treat them as exposed if the configuration is shared; an \"@\" that belongs in "+
		"the path is written %%40.", name, example)
}

// quotedURL is how a message repeats a URL setting's value: quoted as
// typed up to its query string or fragment, which may hold a secret (an
// access token) and are never repeated, unless it holds "@", which may end
// a password (whole, or cut short for URL parsers by a "/", "?" or "#" in
// it), or hides "@", "?" or "#" in its percent-encoding: then nothing of
// it.
func quotedURL(raw string) string {
	// Percent-encoded (pasted from a redirect's ?redirect=), "@", "?" and
	// "#" hide as %40, %3F and %23, as many times over as it was encoded.
	// An escape that does not decode may hide them too.
	decoded, hidden := raw, false
	for range 8 {
		d, err := url.PathUnescape(decoded)
		if err != nil {
			hidden = true
			break
		}
		if d == decoded {
			break
		}
		decoded = d
	}
	if hidden || decoded != raw && strings.ContainsAny(decoded, "@?#%") {
		return "(not repeated here: it is percent-encoded and may hide a password or a query string)"
	}
	if strings.Contains(raw, "@") {
		return "(not repeated here: it contains \"@\", so it may hold a password)"
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		return strconv.Quote(raw[:i]) + " (its query string or fragment not repeated)"
	}
	return strconv.Quote(raw)
}

// mistypedScheme is an http or https scheme without its "://" ("https:/",
// "http:"), in a URL that has no "://".
var mistypedScheme = regexp.MustCompile(`(?i)^(https?):/?`)

// noSchemeFix is the fix proposed for a base URL without scheme (and
// without "@"), quoted: https:// (or the mistyped scheme, completed)
// followed by its host and path, without query string or fragment, when
// the base URL rule accepts that; else the example.
func noSchemeFix(raw string) string {
	scheme := "https"
	if m := mistypedScheme.FindStringSubmatch(raw); m != nil {
		scheme, raw = strings.ToLower(m[1]), raw[len(m[0]):]
	}
	u, err := url.Parse(scheme + "://" + strings.TrimLeft(raw, "/"))
	if err != nil || u.User != nil || u.Hostname() == "" {
		return strconv.Quote(exampleURL)
	}
	fix := (&url.URL{Scheme: scheme, Host: u.Host, Path: u.Path}).String()
	if baseURLProblem("base_url", fix) != "" {
		return strconv.Quote(exampleURL)
	}
	return strconv.Quote(fix)
}

// proposedURL is the fix a message proposes, quoted: fix, made of parts of
// raw's URL u other than its user information, unless a password may be in
// those parts ("@" more than once in raw, or once but not ending u.User: a
// "/", "?" or "#" in the password cut it short): then example.
func proposedURL(raw string, u *url.URL, fix url.URL, example string) string {
	if n := strings.Count(raw, "@"); n > 1 || (n == 1 && u.User == nil) || fix.Host == "" {
		return strconv.Quote(example)
	}
	return strconv.Quote(fix.String())
}

// apiKeyRule: the API key. Its messages never repeat the key.
var apiKeyRule = settingRule{
	attr: "api_key", env: EnvAPIKey,
	summary:     "Invalid Analytics API Key",
	description: "must be a non-empty API key without white space",
	ifEmpty:     "Set it to the personal API key shown under Account > API in the analytics web interface.",
	problem: func(name, key string) string {
		if strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
			return fmt.Sprintf("%s contains white space or a line break (a key read with file() keeps the file's "+
				"trailing newline). Remove it, e.g. with trimspace(file(\"...\")).", name)
		}
		return ""
	},
}

// pemValidator checks PEM text given in the provider block (ca_pem,
// cert_pem, key_pem) with check, at validate time. Its messages never quote
// the value.
func pemValidator(attr, summary string, check func(string) error) validator.String {
	return stringCheck{
		description: "must hold PEM data that parses",
		summary:     summary,
		problem: func(_ path.Path, v string) string {
			if err := check(v); err != nil {
				return fmt.Sprintf("%s is not usable: %s.", attr, err)
			}
			return ""
		},
	}
}

// headersValidator checks the provider's extra headers (names, values and
// the headers the provider sets itself) with the client's own rule.
func headersValidator() validator.Map { return headersCheck{} }

type headersCheck struct{}

func (headersCheck) Description(context.Context) string {
	return "header names must be valid and not set by the provider itself; values must be non-empty single lines"
}

func (v headersCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (headersCheck) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]string{}
	for k, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			continue
		}
		if err := client.CheckHeader(k, s.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(k), "Invalid Header", "In headers: "+err.Error()+".")
		}
		if prev, dup := seen[strings.ToLower(k)]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(k), "Invalid Header",
				fmt.Sprintf("In headers: %q and %q are the same header (names are case-insensitive); keep one.", prev, k))
		}
		seen[strings.ToLower(k)] = k
	}
}

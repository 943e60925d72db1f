package redact

import (
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/userinfo"
)

// URL returns raw, a URL, as a message may name it: its scheme, host and
// path, without its query, fragment and user information, which may hold a
// password or a token. User information that a "/", "?" or "#" in the
// password cut short for URL parsers (see package userinfo) goes too: such
// a URL is named from its last "@" on, which may hide more than it has to.
func URL(raw string) string {
	scheme, rest := "", raw
	if i := strings.Index(raw, "://"); i > 0 && isScheme(raw[:i]) {
		scheme, rest = raw[:i+len("://")], raw[i+len("://"):]
	} else if r, ok := strings.CutPrefix(raw, "//"); ok {
		scheme, rest = "//", r // a network-path reference: an authority follows
	}
	// Cut until nothing is left to cut: well-formed user information ends
	// at the authority's last "@", what may be more of it at the last "@"
	// of all; then the query and fragment, which may uncover more.
	for {
		cut := rest
		// rest from its authority on, as package userinfo reads a URL
		if userinfo.Suspect("x://" + rest) {
			auth := rest
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				auth = rest[:i]
			}
			at := strings.LastIndex(auth, "@")
			if at < 0 {
				at = strings.LastIndex(rest, "@")
			}
			cut = rest[at+1:]
		} else if i := strings.IndexAny(rest, "?#"); i >= 0 {
			cut = rest[:i]
		}
		if cut == rest {
			return scheme + rest
		}
		rest = cut
	}
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, "+", "-" or ".").
func isScheme(s string) bool {
	for i, c := range s {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		other := i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')
		if !letter && !other {
			return false
		}
	}
	return true
}

// URLError returns err, the error of an HTTP request, with the URL that
// it names cut as URL cuts it: Go's net/http returns a *url.Error whose
// text is `Get "https://host/path?query": ...`. The error chain is kept
// (a timeout, a cancellation, a TLS failure); any other error is returned
// as it is.
func URLError(err error) error {
	u, ok := err.(*url.Error) //nolint:errorlint // the outermost, as net/http returns it
	if !ok || u.URL == URL(u.URL) {
		return err
	}
	return &url.Error{Op: u.Op, URL: URL(u.URL), Err: u.Err}
}

// AddURLSecrets registers the user information of a string that may be a
// URL with one: everything between the scheme (if any) and the last "@",
// and the part of it after the first ":" (the password). A password may
// hold a "/" (which the URL grammar takes for the start of the path) or an
// "@", so the user information is not the one a URL parser sees: this
// errs on the side of hiding too much. Without a scheme, a name alone
// before "@" (no ":") is no secret.
func AddURLSecrets(s string) {
	at := strings.LastIndex(s, "@")
	if at < 0 || !userinfo.Suspect(s) {
		// no user information, well formed or cut short: an "@" in the
		// path of a real host (https://cdn.example.com/npm/pkg@1.2.3/x.js)
		return
	}
	start := 0
	if i := strings.Index(s, "://"); i >= 0 && i < at {
		start = i + len("://")
	}
	info := s[start:at]
	if start == 0 && !strings.Contains(info, ":") {
		// No scheme and no password: a name before "@", as in a domain
		// the web interface stored ("campaign@shop.example.com"), not a
		// token of a URL.
		return
	}
	Add(info)
	user, password, _ := strings.Cut(info, ":")
	Add(password)
	// As sent: percent-decoded, and to a proxy as Basic credentials
	// (Go's transport writes Proxy-Authorization: Basic
	// base64(user:password) for a request through an http:// proxy).
	u, uErr := url.PathUnescape(user)
	p, pErr := url.PathUnescape(password)
	if uErr == nil && pErr == nil {
		Add(u+":"+p, p, base64.StdEncoding.EncodeToString([]byte(u+":"+p)))
	}
}

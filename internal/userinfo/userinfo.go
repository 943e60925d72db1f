// Package userinfo tells whether a URL a user gave may carry user
// information (a name and a password before "@"), so that it is refused
// without being repeated. URL parsers end the authority at the first "/",
// "?" or "#": in https://admin:2024/Pw@analytics.example.com they read the
// host admin, the port 2024 and the path /Pw@analytics.example.com, and
// nothing sees the password. Such a URL is what a user writes whose
// password holds a "/"; an "@" in the path of a URL whose authority is a
// real host (https://cdn.example.com/npm/pkg@1.2.3/script.js,
// https://example.com/@user) is not.
package userinfo

import (
	"net/netip"
	"strings"
)

// InAuthority reports whether raw has an "@" in its authority as URL
// parsers read it (the text after "scheme://", or from the start without a
// scheme, up to the first "/", "?" or "#"): user information, well formed.
func InAuthority(raw string) bool {
	auth, _ := split(raw)
	return strings.Contains(auth, "@")
}

// Hidden reports whether an "@" after the authority may end user
// information that a "/", "?" or "#" in the password cut short: there is
// an "@" after the authority, and
//   - the authority is no host a URL names (a single label other than
//     localhost, as the user name "admin" is read), or
//   - the authority has a port, empty or not (the start of a password
//     read as one), whatever separator follows it, or
//   - the text after the path's last "@", up to the next "/", reads as a
//     host name with a dot, an IP address or localhost, with an optional
//     port (the real host).
func Hidden(raw string) bool {
	auth, after := split(raw)
	at := strings.Index(after, "@")
	if at < 0 {
		return false
	}
	host, port := hostPort(auth)
	if !namesHost(host) {
		return true
	}
	if port {
		// the start of a password read as a port, cut short by any of
		// "/", "?" or "#": an "@" anywhere after it may end the password
		// (an "@" in such a URL's path is written %40)
		return true
	}
	pathEnd := strings.IndexAny(after, "?#")
	if pathEnd < 0 {
		pathEnd = len(after)
	}
	last := strings.LastIndex(after[:pathEnd], "@")
	if last < 0 {
		return false
	}
	next := after[last+1 : pathEnd]
	if i := strings.Index(next, "/"); i >= 0 {
		next = next[:i]
	}
	h, _ := hostPort(next)
	return realHost(h)
}

// Suspect reports whether raw may carry user information, well formed or
// cut short (InAuthority or Hidden).
func Suspect(raw string) bool { return InAuthority(raw) || Hidden(raw) }

// split cuts raw into its authority and the rest (from the first "/", "?"
// or "#" after it).
func split(raw string) (auth, after string) {
	rest := raw
	if _, r, ok := strings.Cut(raw, "://"); ok {
		rest = r
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		return rest, ""
	}
	return rest[:end], rest[end:]
}

// hostPort cuts an authority without user information into its host and
// whether a port (":" after the host) follows.
func hostPort(auth string) (string, bool) {
	if strings.HasPrefix(auth, "[") {
		end := strings.Index(auth, "]")
		if end < 0 {
			return auth, false
		}
		return auth[:end+1], strings.HasPrefix(auth[end+1:], ":")
	}
	host, _, port := strings.Cut(auth, ":")
	return host, port
}

// namesHost reports whether host can be the host of a URL a user gives:
// a name with a dot, an IP address (IPv6 in brackets) or localhost.
func namesHost(host string) bool {
	return strings.Contains(host, ".") || strings.HasPrefix(host, "[") || strings.EqualFold(host, "localhost")
}

// realHost reports whether s reads as a host: a host name of dot-separated
// labels of letters, digits, hyphens and underscores whose last label is
// not all digits, an IP address or localhost.
func realHost(s string) bool {
	if strings.EqualFold(s, "localhost") {
		return true
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		_, err := netip.ParseAddr(s[1 : len(s)-1])
		return err == nil
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return true
	}
	labels := strings.Split(strings.TrimSuffix(s, "."), ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.IndexFunc(l, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '-' && r != '_'
		}) >= 0 {
			return false
		}
	}
	return strings.IndexFunc(labels[len(labels)-1], func(r rune) bool { return r < '0' || r > '9' }) >= 0
}

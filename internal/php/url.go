package php

import (
	"strconv"
	"strings"
)

// URL is what PHP's parse_url returns of a URL: each component as written
// (nothing decoded, control characters replaced by "_"), and whether it is
// present.
type URL struct {
	Scheme, User, Pass, Host, Path, Query, Fragment string
	HasScheme, HasHost, HasPath, HasQuery           bool
}

// ParseURL is PHP 8's parse_url (ext/standard/url.c, php_url_parse_ex2);
// ok is false where parse_url returns false. Unlike Go's url.Parse, it
// keeps a percent-encoded host as written ("b%C3%BCcher.example"), and
// accepts hosts and paths Go refuses.
func ParseURL(str string) (URL, bool) {
	var u URL
	s, ue := 0, len(str)
	e := strings.IndexByte(str, ':')
	relative := func() bool { return s+1 < ue && str[s] == '/' && str[s+1] == '/' }
	switch {
	case e > 0:
		for p := 0; p < e; p++ {
			if c := str[p]; !isAlnum(c) && c != '+' && c != '.' && c != '-' {
				switch {
				case e+1 < ue && e < strcspn(str, 0, ue, "?#"):
					return u.port(str, s, e)
				case relative():
					return u.host(str, s+2, false)
				default:
					return u.path(str, s), true
				}
			}
		}
		if e+1 == ue { // only a scheme
			u.Scheme, u.HasScheme = controlChars(str[:e]), true
			return u, true
		}
		if str[e+1] != '/' {
			p := e + 1
			for p < ue && isDigit(str[p]) {
				p++
			}
			if (p == ue || str[p] == '/') && p-e < 7 {
				return u.port(str, s, e)
			}
			u.Scheme, u.HasScheme = controlChars(str[:e]), true
			return u.path(str, e+1), true
		}
		u.Scheme, u.HasScheme = controlChars(str[:e]), true
		if e+2 < ue && str[e+2] == '/' {
			s = e + 3
			if strings.EqualFold(u.Scheme, "file") && e+3 < ue && str[e+3] == '/' {
				if e+5 < ue && str[e+5] == ':' {
					s = e + 4
				}
				return u.path(str, s), true
			}
			return u.host(str, s, false)
		}
		return u.path(str, e+1), true
	case e == 0:
		return u.port(str, s, e)
	case relative():
		return u.host(str, s+2, false)
	}
	return u.path(str, s), true
}

// port is parse_url's parse_port: a ":" at e, before which s begins.
func (u URL) port(str string, s, e int) (URL, bool) {
	ue := len(str)
	p := e + 1
	pp := p
	for pp < ue && pp-p < 6 && isDigit(str[pp]) {
		pp++
	}
	relative := s+1 < ue && str[s] == '/' && str[s+1] == '/'
	switch {
	case pp-p > 0 && pp-p < 6 && (pp == ue || str[pp] == '/'):
		n, _ := strconv.Atoi(str[p:pp])
		if n > 65535 {
			return URL{}, false
		}
		if relative {
			s += 2
		}
		return u.host(str, s, n != 0) // PHP tests the port's value, not its presence
	case p == pp && pp == ue:
		return URL{}, false
	case relative:
		return u.host(str, s+2, false)
	}
	return u.path(str, s), true
}

// host is parse_url's parse_host from s; hasPort: a port other than 0 was
// read before.
func (u URL) host(str string, s int, hasPort bool) (URL, bool) {
	ue := len(str)
	e := strcspn(str, s, ue, "/?#")
	if at := strings.LastIndexByte(str[s:e], '@'); at >= 0 {
		at += s
		if colon := strings.IndexByte(str[s:at], ':'); colon >= 0 {
			u.User, u.Pass = controlChars(str[s:s+colon]), controlChars(str[s+colon+1:at])
		} else {
			u.User = controlChars(str[s:at])
		}
		s = at + 1
	}
	p := e
	if s >= ue || str[s] != '[' || str[e-1] != ']' { // not an IPv6 address in brackets
		if c := strings.LastIndexByte(str[s:e], ':'); c >= 0 {
			p = s + c
			if !hasPort {
				digits := str[p+1 : e]
				if len(digits) > 5 {
					return URL{}, false
				}
				if n, read := strtol(digits); digits != "" && (!read || n < 0 || n > 65535) {
					return URL{}, false
				}
			}
		}
	}
	if p-s < 1 {
		return URL{}, false
	}
	u.Host, u.HasHost = controlChars(str[s:p]), true
	if e == ue {
		return u, true
	}
	return u.path(str, e), true
}

// path is parse_url's just_path from s: the path, query and fragment.
func (u URL) path(str string, s int) URL {
	ue := len(str)
	e := ue
	if p := strings.IndexByte(str[s:e], '#'); p >= 0 {
		u.Fragment = controlChars(str[s+p+1 : e])
		e = s + p
	}
	if p := strings.IndexByte(str[s:e], '?'); p >= 0 {
		u.Query, u.HasQuery = controlChars(str[s+p+1:e]), true
		e = s + p
	}
	if s < e || s == ue {
		u.Path, u.HasPath = controlChars(str[s:e]), true
	}
	return u
}

// strcspn is the index of the first of chars in str[s:e], else e.
func strcspn(str string, s, e int, chars string) int {
	if i := strings.IndexAny(str[s:e], chars); i >= 0 {
		return s + i
	}
	return e
}

// strtol is C's strtol(s, &end, 10) of at most 5 bytes: the value, and
// whether it read a digit (end != s).
func strtol(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	n, read := 0, false
	for ; s != "" && isDigit(s[0]); s = s[1:] {
		n, read = n*10+int(s[0]-'0'), true
	}
	if neg {
		n = -n
	}
	return n, read
}

// controlChars is php_replace_controlchars: each control byte becomes "_"
// (byte by byte: other bytes, UTF-8 or not, are kept).
func controlChars(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c == 0x7f {
			b[i] = '_'
		}
	}
	return string(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z' }

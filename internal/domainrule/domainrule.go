// Package domainrule is what the application does to a website's domain on
// store: the request's rewriting (Canonical) and its ValidateDomainNameRule
// (Valid). The emulator applies both; the provider's plan-time checks use
// them to say truly whether the server would refuse a domain or store it.
package domainrule

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// Canonical is the store request's prepareForValidation: lower case, every
// "http://" and "https://" removed, and, when the result starts with
// "www.", every "www." removed. Paths are kept.
//
// The lower case is PHP 8.2's mb_strtolower: Unicode's full lower-case
// mapping, without language rules (U+0130 becomes "i" and U+0307, as in
// SpecialCasing.txt) and without the context-sensitive final sigma, which
// PHP only applies from 8.3 (so "ΟΔΟΣ" becomes "οδοσ", where x/text's
// cases.Lower alone would give "οδος").
func Canonical(d string) string {
	d = lower(d)
	d = strings.ReplaceAll(d, "http://", "")
	d = strings.ReplaceAll(d, "https://", "")
	if strings.HasPrefix(d, "www.") {
		d = strings.ReplaceAll(d, "www.", "")
	}
	return d
}

// lower is mb_strtolower of PHP 8.2. Every capital sigma becomes σ before
// the full mapping, which then has no final sigma left to apply. Bytes
// that are not UTF-8 become "?" first (wellFormed), as mbstring writes them.
func lower(d string) string {
	d = strings.Map(func(r rune) rune {
		if r == 'Σ' {
			return 'σ'
		}
		return r
	}, wellFormed(d))
	return cases.Lower(language.Und).String(d) // a Caser is not safe to share
}

// ipv4RE is the rule's second branch, an IPv4 address: octets of up to
// three digits ("01" and "001" included), the last one optionally followed
// by a dot.
var ipv4RE = regexp.MustCompile(`^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$`)

// lastLabelRE is the last label of a host name. The application's pattern
// is case-insensitive without the u modifier: ASCII letters only (Go's
// (?i) would also let the Kelvin sign through).
var lastLabelRE = regexp.MustCompile(`^[a-zA-Z0-9-]+$`)

var digitsRE = regexp.MustCompile(`^[0-9]+$`)

// Valid is the application's ValidateDomainNameRule, the PCRE
//
//	/^(?!:\/\/)(?=.{1,255}$)((.{1,63}\.){1,127}(?![0-9]*$)[a-z0-9-]+\.?)$|^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$/i
//
// read as PCRE reads it without the u modifier: "." is any byte but a line
// feed (so a label counts bytes, and may hold a space, an "@", Unicode or
// even dots), and "$" also matches before a final line feed. So
// "bücher.example", "shop.example.com." and "-a.com" pass, and what makes a
// domain fail is mostly its last label: [a-z0-9-]+, not all digits unless a
// trailing dot follows.
func Valid(d string) bool {
	d = strings.TrimSuffix(d, "\n") // "$" matches before a final line feed
	if strings.Contains(d, "\n") {
		return false
	}
	if ipv4RE.MatchString(d) {
		return true
	}
	if strings.HasPrefix(d, "://") || len(d) > 255 {
		return false
	}
	body := strings.TrimSuffix(d, ".")
	dot := strings.LastIndexByte(body, '.')
	if dot < 0 {
		return false
	}
	last := body[dot+1:]
	if !lastLabelRE.MatchString(last) || (body == d && digitsRE.MatchString(last)) {
		return false // (?![0-9]*$): all digits up to the end (a trailing dot is not a digit)
	}
	return labelRuns(body[:dot+1])
}

// labelRuns reports whether p, which ends with a dot, is (.{1,63}\.)+: runs
// of 1 to 63 bytes, each followed by a dot. A run may hold dots itself, so
// this is a search over the dots that end runs. (At most 255 bytes make at
// most 127 runs, the pattern's other bound.)
func labelRuns(p string) bool {
	ends := make([]bool, len(p)+1) // ends[i]: p[:i] is such runs
	ends[0] = true
	for j := 0; j < len(p); j++ {
		if p[j] != '.' {
			continue
		}
		for i := max(0, j-63); i < j; i++ {
			if ends[i] {
				ends[j+1] = true
				break
			}
		}
	}
	return ends[len(p)]
}

// wellFormed is d with each maximal ill-formed subsequence of its UTF-8
// replaced by mbstring's substitute character "?" (PHP 8.2's decoder, as
// Unicode's "maximal subpart" practice): a lead byte and the continuation
// bytes that may still follow it make one "?", so "\xe2\x82" (a cut
// three-byte sequence) is one "?", and "\xc0\xaf" (C0 never begins a
// sequence) two.
func wellFormed(d string) string {
	if utf8.ValidString(d) {
		return d
	}
	var b strings.Builder
	for i := 0; i < len(d); {
		if r, n := utf8.DecodeRuneInString(d[i:]); r != utf8.RuneError || n > 1 {
			b.WriteString(d[i : i+n])
			i += n
			continue
		}
		b.WriteByte('?')
		i += illFormedLen(d[i:])
	}
	return b.String()
}

// illFormedLen is the length of the maximal ill-formed subsequence that
// begins s (Unicode's table 3-7 of well-formed byte sequences): the lead
// byte and each continuation byte in the range its place allows.
func illFormedLen(s string) int {
	var need int
	lo, hi := byte(0x80), byte(0xbf) // the second byte's range
	switch c := s[0]; {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c == 0xed:
		need, hi = 2, 0x9f
	case c >= 0xe1 && c <= 0xef:
		need = 2
	case c == 0xf0:
		need, lo = 3, 0x90
	case c == 0xf4:
		need, hi = 3, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	default:
		return 1 // never a lead byte
	}
	n := 1
	for ; n <= need && n < len(s); n++ {
		if s[n] < lo || s[n] > hi {
			break
		}
		lo, hi = 0x80, 0xbf
	}
	return n
}

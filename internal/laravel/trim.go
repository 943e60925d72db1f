// Package laravel is what every installation of the application does to a
// request's input before any rule reads it, as far as a client must know
// it: Laravel's TrimStrings middleware, and which bodies it reads as JSON.
// The emulator applies it; the provider's plan-time checks refuse what it
// would rewrite.
package laravel

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Trim trims s like Laravel 10's TrimStrings, whose
// preg_replace('~^[\s\x{FEFF}\x{200B}]+|[\s\x{FEFF}\x{200B}]+$~u') matches
// PCRE's \s with the u flag (the separators of category Z, \h and \v: tab,
// LF, VT, FF, CR, NEL U+0085 and U+180E too) plus U+FEFF and U+200B. On
// invalid UTF-8 preg_replace fails and the middleware falls back to PHP's
// trim(). (It also fails, not emulated here, on a value holding a run of
// about a million white space characters between other ones: PCRE's
// backtrack limit, pcre.backtrack_limit, measured with PHP 8.2.)
func Trim(s string) string {
	if !utf8.ValidString(s) {
		return strings.Trim(s, PHPTrimChars)
	}
	return strings.TrimFunc(s, Trimmed)
}

// PHPTrimChars are the characters PHP's trim() takes by default: the
// middleware's fallback, and what Laravel's "required" rule trims before it
// calls a string missing.
const PHPTrimChars = " \t\n\r\x00\x0B"

// Trimmed reports whether TrimStrings trims r at either end of valid UTF-8.
func Trimmed(r rune) bool {
	return r >= '\t' && r <= '\r' || r == '\u0085' || r == '\u180E' || unicode.In(r, unicode.Z) ||
		r == '\uFEFF' || r == '\u200B'
}

// KeptOrder returns lines in an order whose join by line feeds Trim leaves
// as it is: the first line starts, and the last one ends, with a character
// that Trim keeps. It keeps the given order when that already does. False
// when no order does (one line, or all but one, with white space at the end
// that must stay, or a line of white space alone): the server would store
// other lines than those sent.
func KeptOrder(lines []string) ([]string, bool) {
	out := slices.Clone(lines)
	n := len(out)
	if n == 0 {
		return out, true
	}
	valid := utf8.ValidString(strings.Join(lines, "\n"))
	cleanStart := func(s string) bool { return s != "" && trimLeft(s, valid) == s }
	cleanEnd := func(s string) bool { return s != "" && trimRight(s, valid) == s }
	if cleanStart(out[0]) && cleanEnd(out[n-1]) && (n > 1 || out[0] != "") {
		return out, true
	}
	if n == 1 {
		return out, false
	}
	// First a line that cannot be last, so that any line left may end it.
	first := slices.IndexFunc(out, func(s string) bool { return cleanStart(s) && !cleanEnd(s) })
	if first < 0 {
		first = slices.IndexFunc(out, cleanStart)
	}
	if first < 0 {
		return out, false
	}
	out[0], out[first] = out[first], out[0]
	last := slices.IndexFunc(out[1:], cleanEnd)
	if last < 0 {
		return out, false
	}
	out[n-1], out[last+1] = out[last+1], out[n-1]
	return out, true
}

// trimLeft and trimRight are Trim's two ends, on a value that is valid
// UTF-8 or not.
func trimLeft(s string, valid bool) string {
	if valid {
		return strings.TrimLeftFunc(s, Trimmed)
	}
	return strings.TrimLeft(s, PHPTrimChars)
}

func trimRight(s string, valid bool) string {
	if valid {
		return strings.TrimRightFunc(s, Trimmed)
	}
	return strings.TrimRight(s, PHPTrimChars)
}

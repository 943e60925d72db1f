// Package laravel is what every installation of the application does to a
// request's input before any rule reads it, as far as a client must know
// it: Laravel's TrimStrings middleware, and which bodies it reads as JSON.
// The emulator applies it; the provider's plan-time checks refuse what it
// would rewrite.
package laravel

import (
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

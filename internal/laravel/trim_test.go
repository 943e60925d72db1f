package laravel

import (
	"slices"
	"testing"
	"unicode"
)

// Trim takes what the application's TrimStrings takes, and nothing more.
func TestTrim(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		" x ":           "x",
		"\t\n\v\f\rx":   "x",
		"\u00a0x\u3000": "x",             // no-break and ideographic spaces (category Z)
		"\u2028x\u2029": "x",             // line and paragraph separators (category Z)
		"\ufeffx\u200b": "x",             // named in the middleware's pattern
		"\u0085x\u180e": "x",             // NEL (PCRE's \v) and the Mongolian vowel separator (PCRE's \h)
		"\u200cx\u2060": "\u200cx\u2060", // format characters PCRE's \s does not take
		"a b":           "a b",
		"\xff x ":       "\xff x", // invalid UTF-8: PHP's trim()
		"\x00x\x00":     "\x00x\x00",
		"\x00x\x00\xff": "x\x00\xff", // invalid UTF-8: PHP trim() takes NUL
	} {
		if got := Trim(in); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Trim("\x00\xff\x00"); got != "\xff" {
		t.Errorf("Trim of invalid UTF-8 = %q, want PHP's trim() of NUL: %q", got, "\xff")
	}
}

// Trimmed takes exactly the code points that PHP 8.2 (PCRE2 10.42) trims
// with the middleware's pattern, listed by running it over every code point:
// PCRE's \s with the u flag (UCP) is category Z, \h and \v, so it takes NEL
// and U+180E, which are not in category Z.
func TestTrimmed_everyCodePoint(t *testing.T) {
	t.Parallel()
	want := []rune{
		0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x180E,
		0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B,
		0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
	}
	var got []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if Trimmed(r) {
			got = append(got, r)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Trimmed takes %U, the application trims %U", got, want)
	}
}

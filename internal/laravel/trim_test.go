package laravel

import "testing"

// Trim takes what the application's TrimStrings takes, and nothing more.
func TestTrim(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		" x ":           "x",
		"\t\n\v\f\rx":   "x",
		"\u00a0x\u3000": "x",       // no-break and ideographic spaces (category Z)
		"\u2028x\u2029": "x",       // line and paragraph separators (category Z)
		"\ufeffx\u200b": "x",       // named in the middleware's pattern
		"\u0085x":       "\u0085x", // NEL: not PCRE's \s
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

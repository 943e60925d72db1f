package domainrule

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Valid answers as the application's pattern does (checked against perl's
// engine, which reads it as PCRE does, on 46533 generated strings).
func TestValid(t *testing.T) {
	t.Parallel()
	for d, want := range map[string]bool{
		"example.com":                      true,
		"bücher.example":                   true, // labels but the last hold any bytes
		"shop.example.com.":                true, // one trailing dot
		"user@example.com":                 true,
		"exam ple.com":                     true,
		"-a.com":                           true,
		"a..com":                           true, // a label may hold dots
		"..com":                            true,
		"example.123.":                     true, // all digits, but a dot follows
		"01.2.3.4":                         true, // the IPv4 branch
		"1.2.3.4.":                         true,
		"a.com\n":                          true, // "$" before a final line feed
		strings.Repeat("a", 63) + ".com":   true,
		strings.Repeat("ü.", 84) + "com":   true, // 255 bytes
		"":                                 false,
		"localhost":                        false,
		".com":                             false,
		"example.com..":                    false,
		"example.123":                      false,
		"256.1.1.1":                        false,
		"example.com/":                     false,
		"example.com/path":                 false,
		"example.com:8080":                 false,
		"example.bücher":                   false, // the last label is ASCII
		"example.co_m":                     false,
		"://a.com":                         false,
		"a.com\n\n":                        false,
		"a\nb.com":                         false,
		"2001:db8::1":                      false,
		strings.Repeat("a", 64) + ".com":   false, // 64 bytes before a dot
		strings.Repeat("ü", 32) + ".com":   false, // 32 characters, 64 bytes
		strings.Repeat("ü.", 85) + "com":   false, // 258 bytes
		strings.Repeat("a.", 126) + "comx": false, // 256 bytes
		"example.com.\n":                   true,
		"shop.EXAMPLE.COM":                 true,  // case-insensitive
		"shop.example.\u212a":              false, // the Kelvin sign is no letter k here
	} {
		if got := Valid(d); got != want {
			t.Errorf("Valid(%q) = %v, want %v", d, got, want)
		}
	}
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://www.Example.com": "example.com",
		"www.a.www.b.com":         "a.b.com", // every "www."
		"a.www.b.com":             "a.www.b.com",
		"http://https://x.org":    "x.org",
		"Bücher.Example":          "bücher.example",
		"example.com/Path":        "example.com/path",
		// PHP 8.2's mb_strtolower has no final sigma (8.3 added it).
		"ΟΔΟΣ.Example": "οδοσ.example",
		"ΟΔΟΣ":         "οδοσ",
		"a\xffB.com":   "a?b.com", // an invalid byte: mbstring's "?"
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzValid: Valid never panics; what it accepts is at most 255 bytes
// (256 with a final line feed), has a dot, and no line feed but a final one;
// a final line feed never changes the answer.
func FuzzValid(f *testing.F) {
	for _, s := range []string{"example.com", "bücher.example", "a.com\n", "1.2.3.4.", "a..com", strings.Repeat("a.", 130)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		ok := Valid(d)
		if ok {
			core := strings.TrimSuffix(d, "\n")
			if len(core) > 255 || !strings.Contains(core, ".") || strings.Contains(core, "\n") {
				t.Errorf("Valid(%q) = true", d)
			}
		}
		if !strings.HasSuffix(d, "\n") && Valid(d+"\n") != ok {
			t.Errorf("Valid(%q) = %v, but with a final line feed %v", d, ok, !ok)
		}
	})
}

// The application lower-cases with PHP's mb_strtolower, which since PHP 7.3
// is a full lower-case mapping (MB_CASE_LOWER, "may change the length of
// the string"): U+0130 (İ) becomes "i" and U+0307, a combining dot above,
// as in Unicode's SpecialCasing.txt. Go's strings.ToLower maps it to a
// plain "i", so a domain such as İzmir.example is predicted as
// izmir.example while the application stores i̇zmir.example (and counts two
// more bytes against the 63 and 255 byte limits). From PHP's documentation,
// not measured on an installation.
func TestCanonical_fullLowerCaseAsMbStrtolower(t *testing.T) {
	t.Parallel()
	if got, want := Canonical("İzmir.Example"), "i\u0307zmir.example"; got != want {
		t.Errorf("Canonical(%q) = %q, want %q", "İzmir.Example", got, want)
	}
}

// FuzzCanonical: Canonical never panics and always returns UTF-8 (bytes
// that are not become "?", as mbstring writes them); wellFormed keeps valid
// UTF-8 as it is and writes at most one "?" per byte.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"Example.COM", "a\xffB.com", "a\xe2\x82.com", "\xc0\xafx.com", "\xed\xa0\x80.com", "İzmir.Example"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		if got := Canonical(d); !utf8.ValidString(got) {
			t.Errorf("Canonical(%q) = %q, not UTF-8", d, got)
		}
		w := wellFormed(d)
		if utf8.ValidString(d) && w != d {
			t.Errorf("wellFormed(%q) = %q, changed valid UTF-8", d, w)
		}
		if len(w) > len(d) {
			t.Errorf("wellFormed(%q) = %q, longer than the input", d, w)
		}
	})
}

package domainrule

import "testing"

// PHP 8.2's mb_strtolower, given bytes that are not UTF-8, writes its
// substitute character "?" for each maximal ill-formed subsequence (PHP
// 8.2.36, measured): "a\xffB.com" becomes "a?b.com", and a truncated
// sequence such as "\xe2\x82" one "?". Canonical writes U+FFFD for each
// invalid byte instead (strings.Map), so the emulator stores and answers
// "a\ufffdb.com" where the application stores "a?b.com", and counts
// "a\xe2\x82.com" as 7 characters against max:255 where PHP counts 6.
func TestCanonical_invalidUTF8AsMbStrtolower(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a\xffB.com":         "a?b.com",
		"a\xe2\x82.com":      "a?.com",
		"a\xe2\x82\xffZ.com": "a??z.com",
		"\xc0\xafx.com":      "??x.com",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q (mb_strtolower's \"?\")", in, got, want)
		}
	}
}

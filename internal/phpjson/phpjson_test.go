package phpjson

import (
	"bytes"
	"errors"
	"testing"
)

// The expected strings are what PHP 8's json_encode prints for these
// inputs with its default flags (and, for WriteString's false, with
// JSON_UNESCAPED_SLASHES).
func TestEscape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`a/b"c\d`:        `a\/b\"c\\d`,
		"<&'>":           "<&'>",
		"é✓😀":            `\u00e9\u2713\ud83d\ude00`,
		"\b\f\n\r\t\x01": `\b\f\n\r\t\u0001`,
	} {
		got, err := Escape(in)
		if err != nil || got != want {
			t.Errorf("Escape(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Escape("a\xffb"); !errors.Is(err, ErrMalformedUTF8) {
		t.Errorf("Escape of invalid UTF-8: %v, want ErrMalformedUTF8", err)
	}
	var b bytes.Buffer
	if err := WriteString(&b, "a/b", false); err != nil || b.String() != `"a/b"` {
		t.Errorf("WriteString unescaped slashes = %s, %v", b.String(), err)
	}
}

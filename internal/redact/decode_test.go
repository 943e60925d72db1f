package redact

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestString_percentEncodedOtherwise: URL escapers keep other characters
// raw than url.QueryEscape and url.PathEscape do, or write other hex
// digits: Go's own path escaping (url.URL.String, a redirect's Location
// built by a Go server, keeps "/", "+", "=", "&"), JavaScript's
// encodeURIComponent (keeps !'()*), Python's quote (keeps "/"), an
// escaper that escapes every byte, mixed-case hex. Whatever percent-decodes
// (with "+" read as a plus or as a space) to a form of the secret is the
// secret.
func TestString_percentEncodedOtherwise(t *testing.T) {
	t.Parallel()
	const pw = `/+="\<&?# Rt5Yu8Io! it's (x)*`
	s := New()
	s.Add(pw)
	every := func(v string, hex string) string {
		var b strings.Builder
		for i := range len(v) {
			fmt.Fprintf(&b, hex, v[i])
		}
		return b.String()
	}
	js := strings.NewReplacer("%21", "!", "%27", "'", "%28", "(", "%29", ")", "%2A", "*").Replace(
		strings.ReplaceAll(url.QueryEscape(pw), "+", "%20"))
	mixed := []byte(url.PathEscape(pw))
	for i := range mixed {
		if i%2 == 0 && mixed[i] >= 'A' && mixed[i] <= 'F' {
			mixed[i] += 'a' - 'A'
		}
	}
	for name, form := range map[string]string{
		"Go path (url.URL.String)": (&url.URL{Path: "/moved/" + pw}).String(),
		"encodeURIComponent":       js,
		"Python quote":             strings.ReplaceAll(strings.ReplaceAll(url.QueryEscape(pw), "+", "%20"), "%2F", "/"),
		"every byte":               every(pw, "%%%02X"),
		"every byte, lower":        every(pw, "%%%02x"),
		"mixed-case hex":           string(mixed),
		"in a query, %20 and +":    "?next=" + strings.Replace(url.QueryEscape(pw), "+", "%20", 1),
	} {
		if got := s.String("Location: " + form + " end"); strings.Contains(got, "Rt5Yu8Io") || strings.Contains(percentDecoded(got), "Rt5Yu8Io") {
			t.Errorf("%s: %q", name, got)
		} else if !strings.HasPrefix(got, "Location: ") || !strings.HasSuffix(got, " end") {
			t.Errorf("%s: the text around the secret is lost: %q", name, got)
		}
	}
	// Decoding finds no secret where there is none, and keeps the text.
	for _, text := range []string{"100% sure", "a%2Fb+c %zz %", "Rt5Yu8 %52t5Yu8"} {
		if got := s.String(text); got != text {
			t.Errorf("String(%q) = %q", text, got)
		}
	}
}

// percentDecoded is s with every valid %XX escape decoded.
func percentDecoded(s string) string {
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}

// TestString_escapedOtherwise: JSON and HTML escapers differ in what they
// escape and how: .NET's System.Text.Json writes `"` as \u0022, "+" as
// \u002B and "<" as \u003C (upper-case hex), an escaper may write every
// character as \uXXXX or as a numeric HTML reference (&#47; &#x2f;).
// Whatever unescapes to a form of the secret is the secret.
func TestString_escapedOtherwise(t *testing.T) {
	t.Parallel()
	const pw = `/+="\<&?# Gh3Jk9Lz it's é😀`
	s := New()
	s.Add(pw)
	each := func(format func(r rune) string) string {
		var b strings.Builder
		for _, r := range pw {
			b.WriteString(format(r))
		}
		return b.String()
	}
	dotnet := strings.NewReplacer(`"`, `\u0022`, `\`, `\\`, `<`, `\u003C`, `&`, `\u0026`, `+`, `\u002B`, `'`, `\u0027`,
		"é", `\u00E9`, "😀", `\uD83D\uDE00`).Replace(pw)
	for name, form := range map[string]string{
		".NET JSON":        dotnet,
		"every \\uxxxx":    each(func(r rune) string { return jsonU(r, "%04x") }),
		"every \\uXXXX":    each(func(r rune) string { return jsonU(r, "%04X") }),
		"decimal entities": each(func(r rune) string { return fmt.Sprintf("&#%d;", r) }),
		"hex entities":     each(func(r rune) string { return fmt.Sprintf("&#x%X;", r) }),
		// PHP's htmlentities($s, ENT_QUOTES | ENT_HTML5) (the
		// application's language) names every character HTML5 has a
		// name for.
		"HTML5 named": strings.NewReplacer("/", "&sol;", "+", "&plus;", "=", "&equals;", `"`, "&quot;", `\`, "&bsol;",
			"<", "&lt;", "&", "&amp;", "?", "&quest;", "#", "&num;", "'", "&apos;", "é", "&eacute;").Replace(pw),
	} {
		got := s.String(`{"message":"` + form + `"} end`)
		if strings.Contains(got, "Gh3Jk9Lz") || strings.Contains(html.UnescapeString(got), "Gh3Jk9Lz") || strings.Contains(jsonUnescaped(got), "Gh3Jk9Lz") {
			t.Errorf("%s: %q", name, got)
		} else if !strings.HasPrefix(got, `{"message":"`) || !strings.HasSuffix(got, `"} end`) {
			t.Errorf("%s: the text around the secret is lost: %q", name, got)
		}
	}
	for _, text := range []string{`a \u00zz \\ &#; &#xZZ; &amp;`, `\u0047h3Jk9`} {
		if got := s.String(text); got != text {
			t.Errorf("String(%q) = %q", text, got)
		}
	}
}

// jsonUnescaped is s with its \uXXXX escapes decoded (as far as they
// decode).
func jsonUnescaped(s string) string {
	var out string
	if err := json.Unmarshal([]byte(`"`+strings.ReplaceAll(s, `"`, `\"`)+`"`), &out); err == nil {
		return out
	}
	return s
}

// jsonU is r as \uXXXX escapes (a surrogate pair beyond the BMP), the
// digits as format writes them.
func jsonU(r rune, format string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune{r}) {
		b.WriteString(`\u` + fmt.Sprintf(format, u))
	}
	return b.String()
}

// TestString_escapedTwice: a text escaped by an escaper that only the
// decoders read, then quoted again: an HTML page that writes "/" as &#x2F;
// or &sol; inside a JSON log line, whose encoder (hclog's, Go's with HTML
// escaping) writes "&" as \u0026; a URL escaped with lower-case hex and
// every byte inside a %q quote. Whatever two decoders in turn make a form
// of the secret is the secret.
func TestString_escapedTwice(t *testing.T) {
	t.Parallel()
	const pw = `/+="\<&?# Mn4Bv7Cx it's`
	s := New()
	s.Add(pw)
	goJSONQuoted := func(v string) string {
		b, _ := json.Marshal(v) // HTML escaping, as hclog's JSON lines
		return string(b)
	}
	hexRefs := strings.NewReplacer("/", "&#x2F;", "+", "&#x2B;", "=", "&#x3D;", `"`, "&#x22;", `\`, "&#x5C;",
		"<", "&#x3C;", "&", "&#x26;", "?", "&#x3F;", "#", "&#x23;", " ", "&#x20;", "'", "&#x27;").Replace(pw)
	named := strings.NewReplacer("/", "&sol;", "+", "&plus;", "=", "&equals;", `"`, "&quot;", `\`, "&bsol;",
		"<", "&lt;", "&", "&amp;", "?", "&quest;", "#", "&num;", "'", "&apos;").Replace(pw)
	var every strings.Builder
	for i := range len(pw) {
		fmt.Fprintf(&every, "%%%02x", pw[i])
	}
	for name, text := range map[string]string{
		"hex references in a JSON log line":   `{"@message":` + goJSONQuoted("page: "+hexRefs) + `}`,
		"named references in a JSON log line": `{"@message":` + goJSONQuoted("page: "+named) + `}`,
		"every byte percent-encoded, quoted":  fmt.Sprintf("%q", "next="+every.String()),
	} {
		got := s.String(text)
		if strings.Contains(got, "Mn4Bv7Cx") {
			t.Errorf("%s: %s", name, got)
		}
	}
}

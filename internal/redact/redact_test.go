package redact

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// secret holds every character that escapes differently somewhere, and a
// space at its end.
const secret = `k3y/+="\<&?# é✓😀tail `

func TestString_everyForm(t *testing.T) {
	t.Parallel()
	trimmed := strings.TrimSpace(secret)
	goJSONMarshal := func(v string) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	php := `"k3y\/+=\"\\<&?# \u00e9\u2713\ud83d\ude00tail"`
	forms := map[string]string{
		"as written":             secret,
		"trimmed":                trimmed,
		"Go JSON":                goJSONMarshal(trimmed),
		"PHP json_encode":        php,
		"%q":                     strconv.Quote(trimmed),
		"%+q":                    strconv.QuoteToASCII(trimmed),
		"query-escaped":          url.QueryEscape(trimmed),
		"query-escaped, %20":     strings.ReplaceAll(url.QueryEscape(trimmed), "+", "%20"),
		"query-escaped, lower":   strings.ToLower(url.QueryEscape(trimmed)),
		"path-escaped":           url.PathEscape(trimmed),
		"HTML-escaped":           html.EscapeString(trimmed),
		"HTML-escaped, &quot;":   strings.ReplaceAll(html.EscapeString(trimmed), "&#34;", "&quot;"),
		"html/template":          template.HTMLEscapeString(trimmed),
		"Go JSON in a JSON log":  goJSONMarshal(goJSONMarshal(trimmed)),
		"PHP JSON in a JSON log": goJSONMarshal(php),
		"%q in a JSON log":       goJSONMarshal(strconv.Quote(trimmed)),
		"query-escaped in JSON":  goJSONMarshal(url.QueryEscape(trimmed)),
		"HTML in JSON":           goJSONMarshal(html.EscapeString(trimmed)),
	}
	s := New()
	s.Add(secret)
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text := "before " + form + " after"
			got := s.String(text)
			if leaksCore(got) {
				t.Errorf("String(%q) = %q: the secret is still there", text, got)
			}
			if !strings.Contains(got, Placeholder) || !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, "after") {
				t.Errorf("String(%q) = %q: want the text around the secret kept and %s in its place", text, got, Placeholder)
			}
		})
	}
}

// leaksCore reports whether any 6-byte window of the secret's letters
// survived.
func leaksCore(s string) bool {
	for _, w := range []string{"k3y", "tail", `\u00e9\u2713`, "é✓"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func TestString_cut(t *testing.T) {
	t.Parallel()
	const key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	s := New()
	s.Add(key)
	esc := url.QueryEscape(key)
	tests := []struct {
		name, text string
		leak       bool // whether a piece of the key is expected to stay
	}{
		{"before an ellipsis", `body starts with "Bearer ` + key[:20] + `…"`, false},
		{"before three dots", "token " + key[:9] + "...", false},
		{"at the end", "token " + key[:12], false},
		{"before a quote", `"` + key[:10] + `" and more`, false},
		{"before an escaped quote", `{\"k\":\"` + key[:15] + `\"}`, false},
		{"escaped form cut", "loc " + esc[:16] + "…", false},
		{"eight bytes", "x " + key[:8] + "…", false},
		{"seven bytes stay", "x " + key[:7] + "…", true},
		{"prefix followed by text stays", "x " + key[:12] + "Z more", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := s.String(tt.text)
			leaked := strings.Contains(got, key[:7])
			if leaked != tt.leak {
				t.Errorf("String(%q) = %q; want a leak: %v", tt.text, got, tt.leak)
			}
		})
	}
}

func TestString_overlapping(t *testing.T) {
	t.Parallel()
	s := New()
	// inner is inside outer; shared overlaps the end of outer.
	outer := "AAAAsecretBBBBinnerCCCC"
	inner := "BBBBinner"
	shared := "CCCCmoreDDDD"
	s.Add(inner, outer, shared)
	for _, text := range []string{
		"x " + outer + " y",
		"x AAAAsecretBBBBinnerCCCCmoreDDDD y",
		"x " + inner + " y",
	} {
		got := s.String(text)
		for _, piece := range []string{"secret", "inner", "more", "AAAA", "DDDD"} {
			if strings.Contains(got, piece) {
				t.Errorf("String(%q) = %q: %q is left", text, got, piece)
			}
		}
		if strings.Count(got, Placeholder) != 1 {
			t.Errorf("String(%q) = %q: want one %s for one run of secret bytes", text, got, Placeholder)
		}
	}
}

func TestAdd_shortAndEmpty(t *testing.T) {
	t.Parallel()
	s := New()
	s.Add("", "   ", "abc", " abcde ")
	if got := s.String("abc abcde"); got != "abc abcde" {
		t.Errorf("short values were registered: %q", got)
	}
	if len(s.Forms()) != 0 {
		t.Errorf("Forms() = %q, want none", s.Forms())
	}
}

func TestString_noSecretUnchanged(t *testing.T) {
	t.Parallel()
	s := New()
	s.Add("a-long-secret-value")
	for _, text := range []string{"", "a", "plain text", "a-long", "a-long-secre followed"} {
		if got := s.String(text); got != text {
			t.Errorf("String(%q) = %q, want it unchanged", text, got)
		}
	}
}

func TestString_invalidUTF8Cut(t *testing.T) {
	t.Parallel()
	s := New()
	s.Add("ééééééé-secret")
	// a quote cut inside the secret's fifth character
	text := "q \"" + "éééé" + "\xc3"
	got := s.String(text)
	if strings.Contains(got, "é") {
		t.Errorf("String(%q) = %q", text, got)
	}
}

func TestProcess(t *testing.T) {
	v := fmt.Sprintf("process-secret-%p", t)
	Add(v)
	if got := String("x " + v); got != "x "+Placeholder {
		t.Errorf("String = %q", got)
	}
	found := false
	for _, f := range Forms() {
		found = found || f == v
	}
	if !found {
		t.Errorf("Forms() lacks %q", v)
	}
}

func FuzzString(f *testing.F) {
	f.Add("k3y/+=\"\\<&?# tail", "prefix ", " suffix", 0, 40)
	f.Add("wJalrXUtnFEMI/K7MDENG", `{"message":"`, `"}`, 3, 12)
	f.Fuzz(func(t *testing.T, secret, before, after string, form, cut int) {
		if len(strings.TrimSpace(secret)) < MinLength {
			t.Skip("shorter secrets are not registered")
		}
		s := New()
		s.Add(secret)
		forms := FormsOf(strings.TrimSpace(secret))
		f := forms[abs(form)%len(forms)]
		text := before + f + after
		got := s.String(text)
		if strings.Contains(got, f) {
			t.Fatalf("String(%q) = %q: the form %q is left", text, got, f)
		}
		// A cut: a prefix of CutLength bytes or more before an ellipsis.
		if n := CutLength + abs(cut)%max(1, len(f)-CutLength); n < len(f) {
			text = before + f[:n] + "…"
			if got := s.String(text); strings.HasSuffix(got, f[:n]+"…") {
				t.Fatalf("String(%q) = %q: the cut form %q is left", text, got, f[:n])
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// A quote that makes text valid UTF-8 replaces a secret's invalid bytes
// with "?" or U+FFFD: those are forms of the secret too.
func TestString_invalidUTF8Secret(t *testing.T) {
	t.Parallel()
	s := New()
	s.Add("0000000012\x85-key")
	for _, text := range []string{"a 0000000012?-key b", "a 0000000012\uFFFD-key b", "a 0000000012\x85-key b"} {
		if got := s.String(text); strings.Contains(got, "0000000012") {
			t.Errorf("String(%q) = %q", text, got)
		}
	}
}

// BenchmarkAdd registers 1,000 website passwords one at a time, as the gate
// does over a plan of 1,000 websites.
func BenchmarkAdd(b *testing.B) {
	for b.Loop() {
		s := New()
		for i := range 1000 {
			s.Add(fmt.Sprintf("password-%d/+=\"<&", i))
		}
	}
}

// BenchmarkString scrubs a 1 KiB log line that holds no secret, with 1,000
// secrets known.
func BenchmarkString(b *testing.B) {
	s := New()
	for i := range 1000 {
		s.Add(fmt.Sprintf("password-%d/+=\"<&", i))
	}
	line := strings.Repeat(`{"@level":"trace","@message":"Received request","tf_rpc":"PlanResourceChange"} `, 13)
	b.ResetTimer()
	for b.Loop() {
		_ = s.String(line)
	}
}

// TestSet_concurrent: String runs while Add grows the Set (run with -race,
// as make test does); a secret added before String starts is always found.
func TestSet_concurrent(t *testing.T) {
	t.Parallel()
	s := New()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			s.Add(fmt.Sprintf("concurrent-secret-%03d", i))
		}
	}()
	for i := 0; ; i++ {
		select {
		case <-done:
			if got := s.String("x concurrent-secret-199 y"); got != "x "+Placeholder+" y" {
				t.Errorf("String = %q", got)
			}
			return
		default:
			_ = s.String(fmt.Sprintf("x concurrent-secret-%03d y", i%200))
			_ = s.Forms()
		}
	}
}

// TestString_htmlEscapedApostrophe: an HTML page escapes an apostrophe
// otherwise than Go's html.EscapeString (&#39;): PHP's htmlspecialchars
// (Laravel's e() and Blade's {{ }}, as the application's error pages write
// a value) as &#039;, Python's html.escape as &#x27;, HTML5 as &apos;.
func TestString_htmlEscapedApostrophe(t *testing.T) {
	t.Parallel()
	const pw = `it's "Mz7Kp2Qa" <x>&y`
	s := New()
	s.Add(pw)
	esc := func(apostrophe string) string {
		return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `'`, apostrophe, `<`, "&lt;", `>`, "&gt;").Replace(pw)
	}
	for name, form := range map[string]string{
		"PHP htmlspecialchars": esc("&#039;"),
		"Python html.escape":   esc("&#x27;"),
		"HTML5 &apos;":         esc("&apos;"),
	} {
		if got := s.String("<p>The upstream refused " + form + "</p>"); strings.Contains(got, "Mz7Kp2Qa") {
			t.Errorf("%s: %q", name, got)
		}
	}
}

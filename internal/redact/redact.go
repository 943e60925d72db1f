// Package redact is the one place that knows the secrets of the provider's
// process and takes them out of whatever it says.
//
// A secret is registered once, where it is first seen (the protocol gate
// registers every value of a sensitive or write-only attribute; the client
// its API key and header values; the import its URL's password), and from
// then on String removes it from any text in every form a server, a library
// or a quote can give it:
//
//   - as sent (trimmed) and as written (untrimmed);
//   - JSON-escaped as Go writes it (with and without HTML escaping) and as
//     PHP's json_encode writes it (`\/`, `\uXXXX`), and %q- and %+q-quoted, each once
//     more JSON-escaped (a quote inside a JSON log line);
//   - URL query- and path-escaped (upper- and lower-case hex), and any
//     text that percent-decodes to a form (other escapers keep other
//     characters raw: Go's url.URL paths, JavaScript, Python);
//   - HTML-escaped (`&#34;` and `&quot;`; an apostrophe also as PHP's
//     htmlspecialchars, Python's html.escape and HTML5 write it: `&#039;`,
//     `&#x27;`, `&apos;`);
//   - cut short: a prefix of any of these forms, CutLength bytes or longer,
//     right before an ellipsis, a quote, a backslash or the end of the text.
//
// Matches may overlap (one secret inside another, or two that share bytes):
// every byte any form covers is replaced, and a run of such bytes becomes
// one Placeholder, so no part of a longer secret is left behind.
//
// Values shorter than MinLength bytes are not registered: a password of
// "abc" cannot be told from the text around it, and replacing it would
// garble every message. Call sites still quote no value that may hold a
// secret; the redactor is the net under them.
package redact

import (
	"encoding/json"
	"html"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/analytics-tf/terraform-provider-analytics/internal/phpjson"
)

// Placeholder replaces a secret.
const Placeholder = "[REDACTED]"

// MinLength is the shortest value (after trimming) that is registered.
const MinLength = 6

// CutLength is the shortest prefix of a form that counts as a cut secret.
const CutLength = 8

// keyLength is the length of the index key: the first bytes of a form.
const keyLength = 4

// Set holds secrets and their forms. The zero value is not usable; use New.
// A Set is safe for concurrent use: String never blocks on Add.
type Set struct {
	mu      sync.Mutex // guards secrets, forms and sorted; serialises Add
	secrets map[string]struct{}
	forms   map[string]struct{}
	sorted  []string // every form, longest first; nil when stale

	// byKey maps the first keyLength bytes of every form to the forms
	// that start with them, longest first. A bucket is never changed in
	// place: an Add stores a new one, so String reads without a lock.
	byKey sync.Map // string -> []string
	n     atomic.Int64
}

// New returns an empty Set.
func New() *Set {
	return &Set{secrets: map[string]struct{}{}, forms: map[string]struct{}{}}
}

// process is the Set of the provider's process.
var process = New()

// Add registers values with the process's Set.
func Add(values ...string) { process.Add(values...) }

// String removes the process's secrets from s.
func String(s string) string { return process.String(s) }

// Forms returns every form of the process's secrets, longest first (for
// masks that take literal strings).
func Forms() []string { return process.Forms() }

// Add registers values: each as written and trimmed. Values shorter than
// MinLength after trimming are ignored.
func (s *Set) Add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := map[string][]string{} // bucket key -> new forms
	for _, v := range values {
		for _, c := range []string{v, strings.TrimSpace(v)} {
			if _, known := s.secrets[c]; known || len(strings.TrimSpace(c)) < MinLength {
				continue
			}
			s.secrets[c] = struct{}{}
			for _, f := range FormsOf(c) {
				if _, dup := s.forms[f]; !dup && len(f) >= keyLength {
					s.forms[f] = struct{}{}
					fresh[f[:keyLength]] = append(fresh[f[:keyLength]], f)
				}
			}
		}
	}
	for k, forms := range fresh {
		s.merge(k, forms)
	}
}

// merge stores k's bucket with forms added, longest first, as a new slice
// (String may be reading the old one); s.mu is held.
func (s *Set) merge(k string, forms []string) {
	var old []string
	if b, ok := s.byKey.Load(k); ok {
		old = b.([]string) //nolint:forcetypeassert // byKey holds only []string
	}
	sort.SliceStable(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	s.n.Add(int64(len(forms)))
	bucket := make([]string, 0, len(old)+len(forms))
	for len(old) > 0 || len(forms) > 0 {
		if len(forms) == 0 || (len(old) > 0 && len(old[0]) >= len(forms[0])) {
			bucket, old = append(bucket, old[0]), old[1:]
		} else {
			bucket, forms = append(bucket, forms[0]), forms[1:]
		}
	}
	s.byKey.Store(k, bucket)
	s.sorted = nil
}

// Forms returns every registered form, longest first.
func (s *Set) Forms() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sorted == nil && len(s.forms) > 0 {
		s.sorted = make([]string, 0, len(s.forms))
		for f := range s.forms {
			s.sorted = append(s.sorted, f)
		}
		sort.Slice(s.sorted, func(i, j int) bool {
			if len(s.sorted[i]) != len(s.sorted[j]) {
				return len(s.sorted[i]) > len(s.sorted[j])
			}
			return s.sorted[i] < s.sorted[j]
		})
	}
	return append([]string(nil), s.sorted...)
}

// String returns text with every form of every secret, whole or cut,
// replaced by Placeholder. Text that unescapes to a form of a secret is the
// secret too, however the escaper chose the characters it escapes and the
// case of its hex digits (the forms hold Go's and PHP's choices only):
// percent-decoded (with "+" read as a plus, and as a space), with its
// backslash escapes decoded (\uXXXX, \xXX, \/ ...), or its HTML character
// references (&#47; &#x2F; &quot; ...).
func (s *Set) String(text string) string {
	if s.n.Load() == 0 || len(text) < keyLength {
		return text
	}
	covered := s.cover(text)
	mark := func(c []bool, from func(int) (int, int)) {
		for i := range c {
			if !c[i] {
				continue
			}
			if covered == nil {
				covered = make([]bool, len(text))
			}
			lo, hi := from(i)
			for j := lo; j < hi; j++ {
				covered[j] = true
			}
		}
	}
	for di, d := range decoders {
		if strings.IndexByte(text, d.trigger) < 0 {
			continue
		}
		decoded, from := d.decode(text)
		if decoded == text {
			continue
		}
		mark(s.cover(decoded), func(i int) (int, int) { return from[i], from[i+1] })
		// Escaped twice (an HTML page's &#x2F; inside a JSON log line,
		// whose encoder writes "&" as \u0026): a second decoder, on what
		// the first made.
		for dj, d2 := range decoders {
			if dj == di || strings.IndexByte(decoded, d2.trigger) < 0 {
				continue
			}
			twice, from2 := d2.decode(decoded)
			if twice == decoded {
				continue
			}
			mark(s.cover(twice), func(i int) (int, int) { return from[from2[i]], from[from2[i+1]] })
		}
	}
	if covered == nil {
		return text
	}
	return replaceCovered(text, covered)
}

// cover marks the bytes of text that belong to a form of a secret, whole
// or cut; nil when none does (most texts hold no secret).
func (s *Set) cover(text string) []bool {
	var covered []bool
	for i := 0; i+keyLength <= len(text); i++ {
		b, ok := s.byKey.Load(text[i : i+keyLength])
		if !ok {
			continue
		}
		candidates := b.([]string) //nolint:forcetypeassert // byKey holds only []string
		end := 0
		for _, f := range candidates {
			n := commonPrefix(text[i:], f)
			if n == len(f) || (n >= CutLength && cutHere(text[i+n:])) {
				end = max(end, i+n)
			}
		}
		if end == 0 {
			continue
		}
		if covered == nil {
			covered = make([]bool, len(text))
		}
		for j := i; j < end; j++ {
			covered[j] = true
		}
	}
	return covered
}

// replaceCovered replaces every run of covered bytes of text with one
// Placeholder.
func replaceCovered(text string, covered []bool) string {
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); {
		if !covered[i] {
			b.WriteByte(text[i])
			i++
			continue
		}
		for i < len(text) && covered[i] {
			i++
		}
		// A match may end inside a multi-byte character of the text (a cut
		// form): drop the rest of that character too.
		for i < len(text) && !utf8.RuneStart(text[i]) {
			i++
		}
		b.WriteString(Placeholder)
	}
	return b.String()
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// cutHere reports whether rest, what follows a prefix of a secret's form,
// marks where a quote cut it short.
func cutHere(rest string) bool {
	if rest == "" {
		return true
	}
	for _, end := range []string{"…", "...", `"`, "'", "`", `\`} {
		if strings.HasPrefix(rest, end) {
			return true
		}
	}
	return false
}

// FormsOf returns the forms of v that String matches (without cuts).
func FormsOf(v string) []string {
	if !utf8.ValidString(v) {
		// as a quote that makes text valid writes it
		return append(formsOf(v), append(formsOf(strings.ToValidUTF8(v, "?")), formsOf(strings.ToValidUTF8(v, "\uFFFD"))...)...)
	}
	return formsOf(v)
}

func formsOf(v string) []string {
	percent := []string{
		url.QueryEscape(v),
		url.PathEscape(v),
		strings.ReplaceAll(url.QueryEscape(v), "+", "%20"),
	}
	for _, f := range percent[:3] {
		percent = append(percent, lowerHex(f))
	}
	first := append([]string{
		v,
		goJSON(v, true),
		goJSON(v, false),
		phpJSON(v),
		quoted(v),
		asciiQuoted(v),
		html.EscapeString(v),
	}, percent...)
	// The apostrophe and the quote as other HTML escapers write them: PHP's
	// htmlspecialchars (&quot;, &#039;), Python's html.escape (&#x27;),
	// HTML5 (&apos;).
	quot := strings.ReplaceAll(html.EscapeString(v), "&#34;", "&quot;")
	first = append(first, quot)
	if strings.Contains(v, "'") {
		for _, apostrophe := range []string{"&#039;", "&#x27;", "&apos;"} {
			first = append(first, strings.ReplaceAll(quot, "&#39;", apostrophe))
		}
	}
	forms := append([]string(nil), first...)
	for _, f := range first {
		forms = append(forms, goJSON(f, true), goJSON(f, false), quoted(f), phpJSON(f))
	}
	return forms
}

// goJSON is v as encoding/json writes it inside a string, without the
// quotes.
func goJSON(v string, escapeHTML bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return v
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// quoted is v as strconv.Quote (and fmt's %q) writes it, without the quotes.
func quoted(v string) string {
	q := strconv.Quote(v)
	return q[1 : len(q)-1]
}

// asciiQuoted is v as strconv.QuoteToASCII (and fmt's %+q) writes it,
// without the quotes.
func asciiQuoted(v string) string {
	q := strconv.QuoteToASCII(v)
	return q[1 : len(q)-1]
}

// phpJSON is v as PHP's json_encode writes it with its default flags,
// without the quotes; "" when PHP refuses v (not UTF-8: the application
// answers 500 instead).
func phpJSON(v string) string {
	out, err := phpjson.Escape(v)
	if err != nil {
		return ""
	}
	return out
}

// lowerHex is a percent-encoded string with lower-case hex digits.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1] = lowerASCII(b[i+1])
			b[i+2] = lowerASCII(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

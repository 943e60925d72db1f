// Package leakcheck is the tests' one check that a secret does not leave,
// in any form, on any channel a user sees: an error's text and every field
// of the client's APIError, a diagnostic's summary and detail, a log line.
// The fuzz targets of the client, the provider and the export use it with a
// secret the fuzzer draws.
//
// A secret is found in a text when a window of Window bytes (the whole form
// when it is shorter) of any of its forms is in it: the secret as written
// and trimmed, every form internal/redact knows (JSON-escaped the Go and the
// PHP way, %q-quoted, URL-, path- and HTML-escaped, each once more
// JSON-escaped), and, for the secret as written, in any case (a domain is
// lower-cased before it is quoted).
package leakcheck

import (
	"fmt"
	"strings"
	"sync"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// Window is the length of the pieces of a secret looked for: a piece this
// long cannot be in a message by chance, and a cut the redactor misses (it
// redacts cut prefixes from redact.CutLength bytes) shows.
const Window = 10

// minDistinct is the fewest distinct bytes a checked secret holds.
const minDistinct = 4

// Channel is one text a user sees, named for the failure message.
type Channel struct {
	Name string
	Text string
}

// Skip says why secret is not checked, or returns "" when it is:
//   - shorter than redact.MinLength once trimmed: the redactor does not
//     register it, since it cannot be told from the text around it ("abc",
//     "1"), and white space alone is no secret;
//   - fewer than 4 distinct bytes ("aaaaaa", "ababab", "%%%%%%"): such runs
//     are in any text by chance, or made by escaping other bytes;
//   - a piece of it is already in one of clean, texts the test knows hold
//     no secret (the rest of the input, which a message may quote), or in
//     redact.Placeholder.
func Skip(secret string, clean ...string) string {
	t := strings.TrimSpace(secret)
	if len(t) < redact.MinLength {
		return fmt.Sprintf("the secret is shorter than redact.MinLength (%d) once trimmed: the redactor leaves it", redact.MinLength)
	}
	seen := map[byte]bool{}
	for i := 0; i < len(t); i++ {
		seen[t[i]] = true
	}
	if len(seen) < minDistinct {
		return fmt.Sprintf("the secret has fewer than %d distinct bytes: pieces of it are in any text", minDistinct)
	}
	f := newFinder(secret)
	for _, c := range append(clean, redact.Placeholder) {
		if p := f.find(c); p != "" {
			return fmt.Sprintf("a piece of the secret, %s, is in text that holds no secret: a message may quote that", p)
		}
	}
	return ""
}

// forms returns the forms of secret that Find looks for.
func forms(secret string) []string {
	out := []string{secret}
	for _, v := range []string{secret, strings.TrimSpace(secret)} {
		out = append(out, redact.FormsOf(v)...)
	}
	return out
}

// finder holds the pieces of a secret's forms: the windows of Window bytes
// (found by sliding over a text, so that a long secret and a long text
// cost their lengths, not their product) and the forms shorter than that
// (found whole), each also lower-cased for the secret as written.
type finder struct {
	windows, lowerWindows map[string]bool
	short, lowerShort     []string
}

// finders caches the finders of the last secrets: a fuzz target checks the
// same secrets on many channels within one input.
var finders = struct {
	sync.Mutex
	m map[string]*finder
}{m: map[string]*finder{}}

func newFinder(secret string) *finder {
	finders.Lock()
	defer finders.Unlock()
	if f, ok := finders.m[secret]; ok {
		return f
	}
	if len(finders.m) >= 16 {
		clear(finders.m)
	}
	f := buildFinder(secret)
	finders.m[secret] = f
	return f
}

func buildFinder(secret string) *finder {
	f := &finder{windows: map[string]bool{}, lowerWindows: map[string]bool{}}
	add := func(form string, wins map[string]bool, short *[]string) {
		if len(form) < Window {
			*short = append(*short, form)
			return
		}
		for i := 0; i+Window <= len(form); i++ {
			wins[form[i:i+Window]] = true
		}
	}
	for _, form := range forms(secret) {
		add(form, f.windows, &f.short)
	}
	add(strings.ToLower(strings.TrimSpace(secret)), f.lowerWindows, &f.lowerShort)
	return f
}

// find returns a description of the first piece text holds, or "".
func (f *finder) find(text string) string {
	for _, s := range f.short {
		if strings.Contains(text, s) {
			return fmt.Sprintf("%q", s)
		}
	}
	for i := 0; i+Window <= len(text); i++ {
		if w := text[i : i+Window]; f.windows[w] {
			return fmt.Sprintf("%q", w)
		}
	}
	lower := strings.ToLower(text)
	for _, s := range f.lowerShort {
		if strings.Contains(lower, s) {
			return fmt.Sprintf("%q, in another case", s)
		}
	}
	for i := 0; i+Window <= len(lower); i++ {
		if w := lower[i : i+Window]; f.lowerWindows[w] {
			return fmt.Sprintf("%q, in another case", w)
		}
	}
	return ""
}

// Find returns a description of the first piece of a form of secret that
// text holds (the piece, %q-quoted), or "" when it holds none.
func Find(text, secret string) string {
	if text == "" || strings.TrimSpace(secret) == "" {
		return ""
	}
	return newFinder(secret).find(text)
}

// Check returns one line for each channel that holds a piece of secret.
func Check(secret string, channels ...Channel) []string {
	if strings.TrimSpace(secret) == "" {
		return nil
	}
	f := newFinder(secret)
	var out []string
	for _, c := range channels {
		if p := f.find(c.Text); p != "" {
			out = append(out, fmt.Sprintf("%s holds %s of the secret: %q", c.Name, p, c.Text))
		}
	}
	return out
}

// Gate is what the provider's protocol gate does to every text it lets
// out, for a test that cannot run the gate itself: registered, the secrets
// are known to the redactor (the gate registers the values of sensitive and
// write-only attributes; the client its API key and header values) and
// replaced; not registered (a password inside a URL or an import ID that no
// parse has found), the text is left as it is, and the quote sites must not
// have repeated it. It uses a Set of its own: the process's Set would grow
// with every input a fuzz target tries.
func Gate(registered bool, secrets ...string) func(string) string {
	if !registered {
		return func(s string) string { return s }
	}
	set := redact.New()
	set.Add(secrets...)
	return set.String
}

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
	for _, c := range append(clean, redact.Placeholder) {
		if p := Find(c, secret); p != "" {
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

// windows returns the pieces of the forms of secret, each once.
func windows(secret string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range forms(secret) {
		if len(f) <= Window {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
			continue
		}
		for i := 0; i+Window <= len(f); i++ {
			if w := f[i : i+Window]; !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// Find returns a description of the first piece of a form of secret that
// text holds (the piece, %q-quoted), or "" when it holds none.
func Find(text, secret string) string {
	if text == "" || strings.TrimSpace(secret) == "" {
		return ""
	}
	for _, w := range windows(secret) {
		if strings.Contains(text, w) {
			return fmt.Sprintf("%q", w)
		}
	}
	// The secret as written, in any case.
	lower := strings.ToLower(text)
	ls := strings.ToLower(strings.TrimSpace(secret))
	if len(ls) <= Window {
		if strings.Contains(lower, ls) {
			return fmt.Sprintf("%q, in another case", ls)
		}
		return ""
	}
	for i := 0; i+Window <= len(ls); i++ {
		if w := ls[i : i+Window]; strings.Contains(lower, w) {
			return fmt.Sprintf("%q, in another case", w)
		}
	}
	return ""
}

// Check returns one line for each channel that holds a piece of secret.
func Check(secret string, channels ...Channel) []string {
	var out []string
	for _, c := range channels {
		if p := Find(c.Text, secret); p != "" {
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

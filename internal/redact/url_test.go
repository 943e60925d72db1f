package redact_test

import (
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

func TestURL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://host.example/api/v1/websites?search=x&page=2":  "https://host.example/api/v1/websites",
		"https://user:pw@host.example/login?token=t#frag":       "https://host.example/login",
		"https://user@host.example:8443/p#f":                    "https://host.example:8443/p",
		"https://admin:2024/Pw@analytics.example.com/api?x=1":   "https://analytics.example.com/api", // a "/" in the password
		"https://admin:p?w@analytics.example.com/api":           "https://analytics.example.com/api", // a "?" in it
		"https://host.example/login?next=/a&email=me@mail.test": "https://host.example/login",        // an "@" in the query
		"https://u:p@host.example/x?email=me@mail.test":         "https://host.example/x",
		"https://cdn.example.com/npm/pkg@1.2.3/x.js?v=1":        "https://cdn.example.com/npm/pkg@1.2.3/x.js",
		"/relative/login?token=t":                               "/relative/login",
		"":                                                      "",
	} {
		if got := redact.URL(raw); got != want {
			t.Errorf("URL(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestURLError(t *testing.T) {
	t.Parallel()
	inner := os.ErrDeadlineExceeded
	err := redact.URLError(&url.Error{Op: "Get", URL: "https://h.example/api/v1/websites?search=secret", Err: inner})
	if got, want := err.Error(), `Get "https://h.example/api/v1/websites": `+inner.Error(); got != want {
		t.Errorf("URLError = %q, want %q", got, want)
	}
	var ue *url.Error
	if !errors.Is(err, inner) || !errors.As(err, &ue) || !ue.Timeout() {
		t.Errorf("URLError lost the chain: %#v", err)
	}
	other := errors.New("no URL here?x=1")
	if redact.URLError(other) != other {
		t.Error("URLError changed an error without a *url.Error")
	}
}

// FuzzURL states what a message may say of any URL (a redirect's
// Location is the server's to choose): no query, no fragment, no user
// information as a URL parser reads it, and cutting twice changes nothing.
func FuzzURL(f *testing.F) {
	for _, s := range []string{
		"https://user:pw@host.example/login?token=t#frag",
		"https://admin:2024/Pw@analytics.example.com/api?x=1",
		"//a@b/c",
		"https://cdn.example.com/npm/pkg@1.2.3/x.js",
		"http://[::1]:80/p?q",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := redact.URL(raw)
		if strings.ContainsAny(got, "?#") {
			t.Fatalf("URL(%q) = %q keeps a query or fragment", raw, got)
		}
		if again := redact.URL(got); again != got {
			t.Fatalf("URL(%q) = %q, then %q", raw, got, again)
		}
		if u, err := url.Parse(got); err == nil && u.User != nil {
			t.Fatalf("URL(%q) = %q keeps user information", raw, got)
		}
		// It names what raw names: a beginning of raw (its scheme), then
		// a part of what follows.
		named := false
		for k := 0; k <= len(got) && !named; k++ {
			named = strings.HasPrefix(raw, got[:k]) && strings.Contains(raw[k:], got[k:])
		}
		if !named {
			t.Fatalf("URL(%q) = %q is not a part of it", raw, got)
		}
	})
}

package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/leakcheck"
	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// The fuzz targets' shared parts: a client whose every request gets one
// canned answer, with an API key and a header value the fuzzer draws, and
// the check that no secret leaves on any channel an error has (its text and
// every field of *APIError), in any form (internal/leakcheck).

// Seeds of the secrets, for f.Add and the corpora: an API key and a
// website's password of the shapes a user may have, holding characters that
// escape differently (JSON, PHP's json_encode, URLs, HTML, %q).
const (
	seedKey      = "FzK3yq8Wm2Rt6Yp0Ls4Dv9Hx1Nc7Bj5Gz3Qe8Uo2Ia6Sf0Tk4Lw9Mr1Xb7Vn5Cy3"
	seedOddKey   = `k/3y+Q=="\<&?#x y`
	seedHeader   = "cf-token q/+= 9"
	seedPassword = "PwSecret8u2Q"
)

// cannedTransport answers every request with one status, header and body,
// without a network.
type cannedTransport struct {
	status int
	header http.Header
	body   []byte
}

func (c cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	h := c.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: c.status, Header: h, Body: io.NopCloser(bytes.NewReader(c.body)), Request: r}, nil
}

// newFuzzClient is a client with key (and, when headerValue is not empty,
// the header X-Access-Token: headerValue) whose every request gets status,
// header and body. A key or header value the client refuses is skipped:
// nothing is ever sent with it (the refusal itself must not repeat it).
func newFuzzClient(t *testing.T, key, headerValue string, status int, header http.Header, body []byte) *Client {
	t.Helper()
	opts := Options{Transport: cannedTransport{status, header, body}, Timeout: time.Second}
	if headerValue != "" {
		opts.Headers = map[string]string{"X-Access-Token": headerValue}
	}
	c, err := New("https://analytics.example.com", key, opts)
	if err != nil {
		checkChannels(t, err, "New's refusal", key, headerValue)
		t.Skip("the client refuses the key or the header value")
	}
	return c
}

// formOf is one of the forms of secret a server may send back (as sent,
// JSON-escaped as Go or PHP write it, URL-escaped, HTML-escaped, ...),
// chosen by which.
func formOf(secret string, which uint8) string {
	forms := redact.FormsOf(secret)
	return forms[int(which)%len(forms)]
}

// plant inserts secret into b at pos (modulo its length).
func plant(b []byte, pos uint, secret string) []byte {
	i := int(pos % uint(len(b)+1))
	return append(append(append([]byte{}, b[:i]...), secret...), b[i:]...)
}

// errorChannels are the texts of err a user may see: its text and, for an
// *APIError, every field that holds text.
func errorChannels(err error) []leakcheck.Channel {
	if err == nil {
		return nil
	}
	out := []leakcheck.Channel{{Name: "the error's text", Text: err.Error()}}
	var e *APIError
	if !errors.As(err, &e) {
		return out
	}
	out = append(out, leakcheck.Channel{Name: "APIError.Message", Text: e.Message},
		leakcheck.Channel{Name: "APIError.Snippet", Text: e.Snippet},
		leakcheck.Channel{Name: "APIError.Location", Text: e.Location},
		leakcheck.Channel{Name: "APIError.BaseURL", Text: e.BaseURL},
		leakcheck.Channel{Name: "APIError.Method", Text: e.Method},
		leakcheck.Channel{Name: "APIError.Path", Text: e.Path})
	if e.Err != nil {
		out = append(out, leakcheck.Channel{Name: "APIError.Err", Text: e.Err.Error()})
	}
	names := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		out = append(out, leakcheck.Channel{Name: "an APIError.Fields name", Text: k})
		for i, m := range e.Fields[k] {
			out = append(out, leakcheck.Channel{Name: fmt.Sprintf("APIError.Fields[%q][%d]", k, i), Text: m})
		}
	}
	return out
}

// checkChannels fails when err, on any of its channels, holds a piece of
// any of secrets, in any form. Secrets that leakcheck.Skip sets aside (too
// short or too common to be told from other text, or already in the rest
// of the input the error may quote) are not checked.
func checkChannels(t *testing.T, err error, what string, secrets ...string) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range secrets {
		if leakcheck.Skip(s) != "" {
			continue
		}
		for _, p := range leakcheck.Check(s, errorChannels(err)...) {
			t.Errorf("%s: %s", what, p)
		}
	}
}

// meaningful returns the secrets that leakcheck checks, given the input
// they are checked against (a piece of a secret that the rest of the input
// already holds may be quoted from there).
func meaningful(clean []string, secrets ...string) []string {
	var out []string
	for _, s := range secrets {
		if leakcheck.Skip(s, clean...) == "" {
			out = append(out, s)
		}
	}
	return out
}

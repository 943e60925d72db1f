package client_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

func TestCheckHeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, value, err string
	}{
		{"CF-Access-Client-Id", "abc.access", ""},
		{"x-custom-token", "t0ken", ""},
		{"Cookie", "session=1", ""},
		{"Authorization", "Bearer other", "sends the API key in it"},
		{"authorization", "Basic xyz", "sends the API key in it"},
		{"Accept", "text/html", "asks for JSON"},
		{"Content-Type", "application/json", "sends forms"},
		{"User-Agent", "curl/8", "names the provider"},
		{"Host", "other.example.com", "put that name in base_url"},
		{"Proxy-Authorization", "Basic xyz", "HTTPS_PROXY"},
		{"Transfer-Encoding", "chunked", "transport"},
		{"Bad Header", "value-9z", "not a valid header name"},
		{"X-Colon:", "value-9z", "not a valid header name"},
		{"", "value-9z", "name is empty"},
		{"X-Token", "", "is empty"},
		{"X-Token", "secret\r\nX-Injected: 1", "line break"},
	} {
		err := client.CheckHeader(tc.name, tc.value)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: got %v, want an error with %q", tc.name, err, tc.err)
		case err != nil && tc.value != "" && strings.Contains(err.Error(), tc.value):
			t.Errorf("%q: the error quotes the value: %v", tc.name, err)
		}
	}
}

// Extra headers go with every request, beside (never instead of) the
// client's own; their values are redacted from errors like the API key.
func TestHeadersSentAndRedacted(t *testing.T) {
	t.Parallel()
	const token = "proxy-service-token-4f2a9c"
	var seen http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "proxy refused token " + r.Header.Get("X-Access-Token")})
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "the-api-key-123", client.Options{Headers: map[string]string{
		"x-access-token": token, "X-Short": "1",
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWebsites(ctx(t), client.ListOptions{})
	if err == nil {
		t.Fatal("want an error")
	}
	if got := seen.Get("X-Access-Token"); got != token {
		t.Errorf("X-Access-Token = %q, want the token", got)
	}
	if seen.Get("X-Short") != "1" || seen.Get("Authorization") != "Bearer the-api-key-123" || seen.Get("Accept") != "application/json" {
		t.Errorf("headers: %v", seen)
	}
	if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("the error does not redact the header's value: %v", err)
	}

	if _, err := client.New(srv.URL, "k", client.Options{Headers: map[string]string{"AUTHORIZATION": "Bearer x"}}); err == nil {
		t.Error("an Authorization header was accepted")
	}
	if _, err := client.New(srv.URL, "k", client.Options{Headers: map[string]string{"x-a": "1", "X-A": "2"}}); err == nil {
		t.Error("one header given twice in different cases was accepted")
	}
}

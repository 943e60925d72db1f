package main

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestLogURI(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"/api/v1/websites", "/api/v1/websites"},
		{"/api/v1/websites?per_page=50&page=2", "/api/v1/websites?per_page=50&page=2"},
		{"/api/v1/websites?api_token=SECRET&page=2", "/api/v1/websites?api_token=REDACTED&page=2"},
		{"/api/v1/websites/1?password=pw&api%5Ftoken=SECRET", "/api/v1/websites/1?password=REDACTED&api%5Ftoken=REDACTED"},
		{"/api/v1/websites?api_token", "/api/v1/websites?api_token"},
		{"/api/v1/websites?my_api_token=x", "/api/v1/websites?my_api_token=x"},
	} {
		u, err := url.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := logURI(u); got != tc.want {
			t.Errorf("logURI(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The -v log shows each request, but no key or password.
func TestLogRequestsPrintsNoSecret(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	h := logRequests(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}), log.New(&buf, "", 0))
	req := httptest.NewRequest(http.MethodPost, "/api/v1/websites?api_token="+testKey+"&password=hunter2", nil)
	req.Header.Set("Authorization", "Bearer "+testKey)
	h.ServeHTTP(httptest.NewRecorder(), req)
	line := buf.String()
	if strings.Contains(line, testKey) || strings.Contains(line, "hunter2") ||
		!strings.Contains(line, "POST /api/v1/websites?api_token=REDACTED&password=REDACTED 418") {
		t.Errorf("log line %q", line)
	}
}

package client_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

const (
	apiNotFound = `{"message":"Resource not found.","status":404}`
	emptyList   = `{"data":[],"links":{"next":null},"meta":{"current_page":1,"last_page":1,"per_page":10,"total":0},"status":200}`
)

// The application's "not found" counts only once the base URL has answered
// as the API: the client proves it with one list request, once.
func TestNotFoundNeedsProof(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(404, apiNotFound), answer(200, emptyList), answer(404, apiNotFound))
	c := newClient(t, u, "key")
	if _, err := c.GetWebsite(ctx(t), 5); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("first: %v, want ErrNotFound", err)
	}
	if !c.APIVerified() || s.count() != 2 {
		t.Fatalf("verified %v after %d requests, want true after 2", c.APIVerified(), s.count())
	}
	if _, err := c.GetWebsite(ctx(t), 6); !errors.Is(err, client.ErrNotFound) || s.count() != 3 {
		t.Fatalf("second: %v after %d requests, want ErrNotFound after 3 (the proof is kept)", err, s.count())
	}
}

// Any unknown path under /api/v1 answers like a missing website; when the
// list answers the same, the base URL is wrong.
func TestNotFoundAtFallbackRoute(t *testing.T) {
	t.Parallel()
	_, u := serve(t, answer(404, apiNotFound))
	c := newClient(t, u+"/api/v1/v2", "key")
	err := c.DeleteWebsite(ctx(t), 5)
	if !errors.Is(err, client.ErrNotAPI) || errors.Is(err, client.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotAPI only", err)
	}
	for _, want := range []string{u + "/api/v1/v2/api/v1", "Resource not found.", "any unknown path under /api/v1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

// Other 404s are never "not found": they name the base URL and what
// answered.
func TestOther404sAreNotTheAPI(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ body, want string }{
		"wrong path prefix": {`{"message":"The route analytics/api/v1/websites/5 could not be found."}`, "could not be found"},
		"proxy HTML page":   {"<html><head><title>404 Not Found</title></head></html>", "404 Not Found"},
		"other JSON":        {`{"error":"no such thing"}`, "no such thing"},
		"empty body":        {"", "which is not the analytics API's answer"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, u := serve(t, answer(404, tc.body))
			c := newClient(t, u, "key")
			_, err := c.GetWebsite(ctx(t), 5)
			if !errors.Is(err, client.ErrNotAPI) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), u+"/api/v1") {
				t.Errorf("err = %v", err)
			}
			if s.count() != 1 {
				t.Errorf("%d requests, want 1", s.count())
			}
		})
	}
}

func TestRedirectNamesTheBaseURL(t *testing.T) {
	t.Parallel()
	var target string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.RequestURI(), http.StatusMovedPermanently)
	}))
	t.Cleanup(srv.Close)
	target = "https://" + strings.TrimPrefix(srv.URL, "http://")
	c := newClient(t, srv.URL+"/analytics", "key")
	_, err := c.GetWebsite(ctx(t), 5)
	if !errors.Is(err, client.ErrNotAPI) {
		t.Fatalf("err = %v, want ErrNotAPI", err)
	}
	want := "set base_url to " + target + "/analytics"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "redirect to "+target+"/analytics/api/v1/websites/5") {
		t.Errorf("%q lacks %q", err, want)
	}
	// The login page stays "unauthenticated".
	_, u := serve(t, answer(302, "", "Location", "https://example.test/login"))
	if _, err := newClient(t, u, "key").GetWebsite(ctx(t), 5); !errors.Is(err, client.ErrUnauthenticated) {
		t.Errorf("login redirect: %v", err)
	}
}

type failingTransport struct{ msg string }

func (f failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New(f.msg)
}

// The API key never appears in an error, even when a transport-level
// failure repeats it.
func TestTransportErrorsRedactTheKey(t *testing.T) {
	t.Parallel()
	const key = "SuperSecretKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
	c, err := client.New("https://analytics.example.test", key, client.Options{
		Transport: failingTransport{msg: "proxy refused the request with Authorization: Bearer " + key},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetWebsite(ctx(t), 1)
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("err = %v", err)
	}
}

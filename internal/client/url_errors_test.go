package client_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A message about a URL names it without its query and user information
// (a URL may hold a password): Go's net/http reports a failed request as
// `Get "https://host/path?query": ...`, and a redirect's Location is the
// server's to choose.
func TestErrorsNameURLsWithoutQueryOrUserinfo(t *testing.T) {
	t.Parallel()
	const search = "query-marker-7f3a"
	hidden := []string{search, "search=", "?", "per_page", "hunter2pw", "user:", "tok-marker", "#frag"}
	check := func(t *testing.T, what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		for _, h := range hidden {
			if strings.Contains(err.Error(), h) {
				t.Errorf("%s: %q repeats %q", what, err, h)
			}
		}
		if !strings.Contains(err.Error(), "/websites") {
			t.Errorf("%s: %q does not name the path", what, err)
		}
	}
	list := func(c *client.Client, ctx context.Context) error {
		_, err := c.ListWebsites(ctx, client.ListOptions{Search: search, PerPage: 100, Page: 2})
		return err
	}

	t.Run("dropped connection", func(t *testing.T) {
		t.Parallel()
		_, u := serve(t, reset)
		check(t, "one attempt", list(newClient(t, u, "key"), ctx(t)))
		check(t, "with retries", list(newRetryClient(t, u, "key", fastRetry(1), nil), ctx(t)))
	})
	t.Run("closed port", func(t *testing.T) {
		t.Parallel()
		_, u := serve(t, reset)
		c := newClient(t, u, "key")
		closed := newClient(t, "http://127.0.0.1:1", "key") // no one listens on port 1
		check(t, "connection refused", list(closed, ctx(t)))
		cancelled, cancel := context.WithCancel(ctx(t))
		cancel()
		err := list(c, cancelled)
		check(t, "cancelled", err)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v does not match context.Canceled", err)
		}
	})
	for _, loc := range []string{
		"https://user:hunter2pw@elsewhere.example/login?token=tok-marker#frag",
		"https://user:hunter2pw@elsewhere.example/api/v1/websites?token=tok-marker#frag",
	} {
		t.Run("redirect "+loc[strings.LastIndex(loc, "/")-5:], func(t *testing.T) {
			t.Parallel()
			_, u := serve(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Location", loc)
				w.WriteHeader(http.StatusFound)
			})
			err := list(newClient(t, u, "key"), ctx(t))
			check(t, "redirect", err)
			if !strings.Contains(err.Error(), "elsewhere.example/") {
				t.Errorf("redirect: %q does not name where", err)
			}
		})
	}
}

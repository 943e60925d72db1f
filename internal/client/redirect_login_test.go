package client_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A 302 to the login page means the key was refused
// (ErrUnauthenticated). The client now decides that from the Location as
// redact.URL cuts it for messages, and redact.URL, for an authority with a
// port, takes an "@" anywhere after it for the end of a password cut short
// (userinfo.Hidden): a login page on a port whose query holds an "@" (an
// e-mail address, a return URL) is cut to the text after that "@". The
// key's refusal becomes "the server redirects the API elsewhere; set
// base_url to https://mail.test", a host the server never named. Before
// the change the whole Location was judged (passes on 1f859a8).
func TestRedirectToLoginOnPortWithAtInQueryIsUnauthenticated(t *testing.T) {
	t.Parallel()
	for _, loc := range []string{
		"https://analytics.example.com:8443/login?email=me@mail.test",
		"http://[::1]:8080/login?return=%2Fapi&user=a@b.example",
	} {
		t.Run(loc, func(t *testing.T) {
			t.Parallel()
			_, u := serve(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Location", loc)
				w.WriteHeader(http.StatusFound)
			})
			_, err := newClient(t, u, "key").ListWebsites(ctx(t), client.ListOptions{PerPage: 100})
			if !errors.Is(err, client.ErrUnauthenticated) {
				t.Errorf("a redirect to the login page %q: %v; want ErrUnauthenticated", loc, err)
			}
			if err != nil && strings.Contains(err.Error(), "set base_url to") {
				t.Errorf("the message sends the user to a host the server never redirected to: %v", err)
			}
		})
	}
}

package provider

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The diagnostics of a failed request name its URL without the query (a
// search by domain) and without the user information a redirect's
// Location may hold.
func TestAddAPIError_urlWithoutQueryOrUserinfo(t *testing.T) {
	t.Parallel()
	const search = "query-marker-7f3a"
	drop := func(w http.ResponseWriter, _ *http.Request) {
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic("no http.Hijacker")
		}
		conn, _, err := hj.Hijack()
		if err != nil {
			panic(err)
		}
		if tcp, ok := conn.(*net.TCPConn); ok {
			_ = tcp.SetLinger(0)
		}
		_ = conn.Close()
	}
	redirect := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Location", "https://user:hunter2pw@elsewhere.example/login?token=tok-marker")
		w.WriteHeader(http.StatusFound)
	}
	for name, h := range map[string]http.HandlerFunc{"dropped": drop, "redirect": redirect} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			c, err := client.New(srv.URL, "key", client.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ListWebsites(t.Context(), client.ListOptions{Search: search, PerPage: 100})
			var diags diag.Diagnostics
			addAPIError(&diags, "import", "the website", err)
			if len(diags) == 0 {
				t.Fatalf("no diagnostic for %v", err)
			}
			for _, d := range diags {
				text := d.Summary() + " " + d.Detail()
				for _, s := range []string{search, "search=", "hunter2pw", "user:", "tok-marker"} {
					if strings.Contains(text, s) {
						t.Errorf("diagnostic repeats %q: %s", s, text)
					}
				}
			}
		})
	}
}

package client_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// TestCreateWebsite_oneRequestDeletesNoOtherWebsite: the application has
// no unique index on domains, so two clients that store one domain at
// about the same time can both succeed. Here this create's POST is stored
// (website 1) but its answer is lost (a proxy's 502), and right after,
// another pipeline's create of the same domain, with the same settings, is
// stored too (website 2) and recorded in that pipeline's state. The lookup
// that settles the lost answer finds both, alike. One request stores at
// most one website, so one of them is another client's: nothing is
// deleted, and the create fails saying so.
func TestCreateWebsite_oneRequestDeletesNoOtherWebsite(t *testing.T) {
	t.Parallel()
	srv, proxy, serve := proxiedEmulator(t)
	other := emulator.Website{Domain: "example.com", Settings: alikeSettings}
	var otherID int64
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method == http.MethodPost && strings.HasSuffix(resp.Request.URL.Path, "/websites") && otherID == 0 {
			otherID = srv.Seed(emulator.DefaultAPIKey, other).ID // the other pipeline's store, answered to it
			_ = resp.Body.Close()
			resp.StatusCode, resp.Status = http.StatusBadGateway, "502 Bad Gateway"
			resp.Header = http.Header{"Content-Type": {"text/html"}}
			resp.Body = io.NopCloser(strings.NewReader("<html><body>502 Bad Gateway</body></html>"))
			resp.ContentLength = -1
		}
		return nil
	}
	c := newRetryClient(t, serve(proxy), emulator.DefaultAPIKey, fastRetry(3), &testLogger{})
	res, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
	var dup *client.DuplicateCreateError
	if !errors.As(err, &dup) {
		t.Errorf("the create of a domain that two alike websites hold: want a *DuplicateCreateError, got %+v, %v", res, err)
	}
	if otherID == 0 {
		t.Fatal("the POST never went through the proxy")
	}
	if len(srv.Websites()) != 2 {
		t.Errorf("the create sent one POST, yet deleted a website (left: %d of 2); website %d is "+
			"another client's", len(srv.Websites()), otherID)
	}
}

// alikeSettings are the settings of the two alike websites of these tests.
var alikeSettings = wire.Settings{Privacy: ptr(1), Email: ptr(1), ExcludeBots: ptr(1), ExcludeIPs: "10.0.0.0/8\n203.0.113.7"}

// proxiedEmulator is an emulator and a reverse proxy to it; serve starts a
// server of its own with the handler given (the proxy, or a handler in
// front of it) and returns the API's base URL through it.
func proxiedEmulator(t *testing.T) (srv *emulator.Server, proxy *httputil.ReverseProxy, serve func(http.Handler) string) {
	t.Helper()
	srv = emulator.NewServer(t, emulator.Options{})
	target, err := url.Parse(srv.HTTP.URL)
	if err != nil {
		t.Fatal(err)
	}
	return srv, httputil.NewSingleHostReverseProxy(target), func(h http.Handler) string {
		front := httptest.NewServer(h)
		t.Cleanup(front.Close)
		return front.URL + strings.TrimPrefix(srv.URL, srv.HTTP.URL)
	}
}

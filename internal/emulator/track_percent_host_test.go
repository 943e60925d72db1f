package emulator

import (
	"net/http"
	"net/url"
	"testing"
)

// The tracking endpoint matches the page URL's host literally (the
// README: "Only a page URL written exactly as the stored domain
// matches"). PHP's parse_url keeps a percent-encoded host as written
// ("http://b%C3%BCcher.example/" has the host "b%C3%BCcher.example", PHP
// 8.2 measured), so the application finds no website "bücher.example" for
// it: 404. The emulator reads the host with Go's url.Parse, which decodes
// it to "bücher.example", and records the pageview: 200.
func TestTrack_percentEncodedHostIsNotTheStoredDomain(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	create(t, s, keyA, url.Values{"domain": {"bücher.example"}})
	resp := trackFrom(t, s, "203.0.113.5:1", url.Values{"page": {"http://b%C3%BCcher.example/"}}, browserUA)
	if resp.Status != http.StatusOK || string(resp.Body) != "404" {
		t.Errorf("got %d %q, want 200 \"404\"", resp.Status, resp.Body)
	}
}

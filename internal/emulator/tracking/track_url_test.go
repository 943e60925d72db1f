package tracking

import "testing"

// The tracking endpoint matches the page URL's host literally (the
// README: "Only a page URL written exactly as the stored domain
// matches"). PHP's parse_url keeps a percent-encoded host as written
// ("http://b%C3%BCcher.example/" has the host "b%C3%BCcher.example", PHP
// 8.2 measured), so the application finds no website "bücher.example" for
// it: 404. Go's url.Parse decodes it to "bücher.example", which recorded
// the pageview.
func TestTrack_percentEncodedHostIsNotTheStoredDomain(t *testing.T) {
	t.Parallel()
	store := &memStore{sites: []Site{{ID: 1, Domain: "bücher.example"}}}
	if got := record(t, store, pageview("http://b%C3%BCcher.example/", "", DesktopUserAgent)); got != "404" {
		t.Errorf("a percent-encoded host: %q, want 404", got)
	}
	if got := record(t, store, pageview("http://bücher.example/", "", DesktopUserAgent)); got != "200" {
		t.Errorf("the host as stored: %q, want 200", got)
	}
}

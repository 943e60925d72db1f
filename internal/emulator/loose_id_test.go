package emulator

import (
	"net/http"
	"strconv"
	"testing"
)

// TestLooseIDSelectsTheWebsite: the application compares a website's id
// loosely (MySQL reads the path's string as a number): GET /websites/5abc
// returns website 5, as do " 5" and "5.0"; "5.5" and "abc" select none.
// So a DELETE /websites/5abc deletes website 5 there, and here.
func TestLooseIDSelectsTheWebsite(t *testing.T) {
	s, _ := newTestServer(t, Options{})
	id := create(t, s, keyA, map[string][]string{"domain": {"loose-id.example.com"}})
	n := strconv.FormatInt(id, 10)
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/api/v1/websites/" + n + "abc", http.StatusOK},
		{"/api/v1/websites/" + n + ".0", http.StatusOK},
		{"/api/v1/websites/%20" + n, http.StatusOK},
		{"/api/v1/websites/" + n + "e0", http.StatusOK},
		{"/api/v1/stats/" + n + "abc?name=pageviews&from=2000-01-01&to=2100-12-31", http.StatusOK},
		{"/api/v1/websites/" + n + ".5", http.StatusNotFound},
		{"/api/v1/websites/abc", http.StatusNotFound},
		{"/api/v1/websites/" + n + "/x", http.StatusNotFound},
	} {
		if r := do(t, s, call{method: "GET", path: tc.path, key: keyA}); r.status != tc.want {
			t.Errorf("GET %s: %d %s, want %d", tc.path, r.status, r.body, tc.want)
		}
	}
}

package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const (
	notFound     = `{"message":"Resource not found.","status":404}`
	unauthorized = `{"message":"Unauthenticated."}`
	serverErr    = "{\n    \"message\": \"Server Error\"\n}"
	noAccess     = `{"message":"You don't have access to this feature.","status":403}`
	forbiddenUID = `{"message":"This action is unauthorized.","status":403}`
	tooMany      = "{\n    \"message\": \"Too Many Attempts.\"\n}"
	keyNoAccess  = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
)

func TestErrorAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		opts   Options
		call   call
		status int
		body   string
		header map[string]string
	}{
		{name: "show unknown id", call: call{path: "/api/v1/websites/999", key: keyA},
			status: 404, body: notFound},
		{name: "show foreign id", call: call{path: "/api/v1/websites/1", key: keyB},
			status: 404, body: notFound},
		{name: "delete unknown id", call: call{method: "DELETE", path: "/api/v1/websites/999", key: keyA, accept: "-"},
			status: 404, body: notFound},
		{name: "delete foreign id", call: call{method: "DELETE", path: "/api/v1/websites/1", key: keyB},
			status: 404, body: notFound},
		{name: "non-numeric id", call: call{path: "/api/v1/websites/abc", key: keyA},
			status: 404, body: notFound},
		// The route takes any id (ids are compared loosely: looseID), so a
		// method it does not have is a 405 for any id.
		{name: "non-numeric id with POST", call: call{method: "POST", path: "/api/v1/websites/abc", key: keyA},
			status: 405, body: laravelJSON("The POST method is not supported for route api/v1/websites/abc. Supported methods: GET, HEAD, PUT, PATCH, DELETE.")},
		{name: "unknown route", call: call{path: "/api/v1/stats", key: keyA},
			status: 404, body: notFound},
		{name: "unknown route without key", call: call{path: "/api/v1/websites/1/stats"},
			status: 404, body: notFound},
		{name: "api root", call: call{path: "/api/v1", key: keyA},
			status: 404, body: notFound},
		{name: "update unknown id", call: call{method: "PUT", path: "/api/v1/websites/999", key: keyA, form: url.Values{"privacy": {"1"}}},
			status: 500, body: serverErr},
		{name: "update foreign id", call: call{method: "PATCH", path: "/api/v1/websites/1", key: keyB, form: url.Values{"privacy": {"1"}}},
			status: 500, body: serverErr},
		{name: "legacy update unknown id", opts: Options{LegacyUpdateNotFound: true},
			call:   call{method: "PATCH", path: "/api/v1/websites/999", key: keyA, form: url.Values{"privacy": {"1"}}},
			status: 404, body: notFound},
		{name: "update unknown id, validation first", call: call{method: "PATCH", path: "/api/v1/websites/999", key: keyA, form: url.Values{"privacy": {"7"}}},
			status: 422, body: `{"message":{"privacy":["The privacy field must be between 0 and 2."]},"status":422}`},
		{name: "update with user_id", call: call{method: "PATCH", path: "/api/v1/websites/1", key: keyA, form: url.Values{"user_id": {"2"}}},
			status: 403, body: forbiddenUID},
		{name: "update unknown id with user_id", call: call{method: "PATCH", path: "/api/v1/websites/999", key: keyA, form: url.Values{"user_id": {""}, "privacy": {"9"}}},
			status: 403, body: forbiddenUID},
		{name: "missing key", call: call{path: "/api/v1/websites"},
			status: 401, body: unauthorized},
		{name: "wrong key", call: call{path: "/api/v1/websites/1", key: "nope"},
			status: 401, body: unauthorized},
		{name: "lowercase bearer", call: call{path: "/api/v1/websites", header: map[string]string{"Authorization": "bearer " + keyA}},
			status: 401, body: unauthorized},
		{name: "vendor json accept", call: call{path: "/api/v1/websites", accept: "application/vnd.api+json"},
			status: 401, body: unauthorized},
		{name: "xhr without accept", call: call{path: "/api/v1/websites", accept: "-", header: map[string]string{"X-Requested-With": "XMLHttpRequest"}},
			status: 401, body: unauthorized},
		{name: "no API access", call: call{path: "/api/v1/websites", key: keyNoAccess},
			status: 403, body: noAccess},
		{name: "no API access on store", call: call{method: "POST", path: "/api/v1/websites", key: keyNoAccess, form: url.Values{"domain": {"x.com"}}},
			status: 403, body: noAccess},
		{name: "POST on item", call: call{method: "POST", path: "/api/v1/websites/1", key: keyA},
			status: 405, body: laravelJSON("The POST method is not supported for route api/v1/websites/1. Supported methods: GET, HEAD, PUT, PATCH, DELETE."),
			header: map[string]string{"Allow": "GET, HEAD, PUT, PATCH, DELETE"}},
		{name: "PUT on collection", call: call{method: "PUT", path: "/api/v1/websites", key: keyA},
			status: 405, body: laravelJSON("The PUT method is not supported for route api/v1/websites. Supported methods: GET, HEAD, POST."),
			header: map[string]string{"Allow": "GET, HEAD, POST"}},
		{name: "405 before auth", call: call{method: "DELETE", path: "/api/v1/websites/"},
			status: 405, body: laravelJSON("The DELETE method is not supported for route api/v1/websites. Supported methods: GET, HEAD, POST.")},
		{name: "trailing slash matches", call: call{path: "/api/v1/websites/1/", key: keyA},
			status: 200, body: withEveryColumn(`{"data":{"id":1,"domain":"a.example.com","privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"},"status":200}`)},
		{name: "outside the API", call: call{path: "/nothing", key: keyA},
			status: 404, body: laravelJSON("The route nothing could not be found.")},
		{name: "unknown path under the API", call: call{path: "/api/v1/nothing", key: keyA},
			status: 404, body: notFound},
		{name: "array domain is a server error", call: call{method: "POST", path: "/api/v1/websites", key: keyA, body: "domain[]=x.com", ctype: "application/x-www-form-urlencoded"},
			status: 500, body: serverErr},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			opts.Users = []User{{Key: keyA}, {Key: keyB}, {Key: keyNoAccess, NoAPIAccess: true}}
			s, _ := newTestServer(t, opts)
			create(t, s, keyA, url.Values{"domain": {"a.example.com"}})
			r := do(t, s, tc.call)
			expect(t, r, tc.status, tc.body)
			if strings.HasPrefix(tc.body, "{") && r.header.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type = %q", r.header.Get("Content-Type"))
			}
			for k, v := range tc.header {
				if got := r.header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if _, ok := s.Website(1); !ok {
				t.Errorf("website 1 disappeared")
			}
		})
	}
}

func TestUnauthenticatedWithoutAcceptRedirects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, accept, loginURL, prefix, wantLocation string
	}{
		{name: "no accept", accept: "-", wantLocation: "https://HOST/login"},
		{name: "html accept", accept: "text/html,application/json;q=0.9", wantLocation: "https://HOST/login"},
		{name: "any", accept: "*/*", wantLocation: "https://HOST/login"},
		{name: "login url option", accept: "-", loginURL: "https://example.com/login", wantLocation: "https://example.com/login"},
		{name: "path prefix", accept: "-", prefix: "/analytics", wantLocation: "https://HOST/analytics/login"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{LoginURL: tc.loginURL, PathPrefix: tc.prefix})
			r := do(t, s, call{method: "DELETE", path: "/api/v1/websites/1", key: "wrong", accept: tc.accept})
			if r.status != http.StatusFound {
				t.Fatalf("status %d %s", r.status, r.body)
			}
			want := strings.ReplaceAll(tc.wantLocation, "HOST", s.HTTP.Listener.Addr().String())
			if got := r.header.Get("Location"); got != want {
				t.Errorf("Location = %q, want %q", got, want)
			}
			if !strings.Contains(r.body, "Redirecting to") || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
				t.Errorf("body %q, Content-Type %q", r.body, r.header.Get("Content-Type"))
			}
		})
	}
}

func TestUnhandledErrorsAreHTMLWithoutAccept(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	r := do(t, s, call{method: "PATCH", path: "/api/v1/websites/5", key: keyA, accept: "-", form: url.Values{"email": {"1"}}})
	if r.status != 500 || !strings.Contains(r.body, "500 | Server Error") {
		t.Fatalf("got %d %q", r.status, r.body)
	}
	// The application's own errors stay JSON.
	r = do(t, s, call{path: "/api/v1/websites/5", key: keyA, accept: "-"})
	expect(t, r, 404, notFound)
}

func TestOptionsAndHead(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	r := do(t, s, call{method: "OPTIONS", path: "/api/v1/websites/3"})
	if r.status != 200 || r.header.Get("Allow") != "GET,HEAD,PUT,PATCH,DELETE" || r.body != "" {
		t.Fatalf("OPTIONS: %d %v %q", r.status, r.header, r.body)
	}
	r = do(t, s, call{method: "HEAD", path: "/api/v1/websites", key: keyA})
	if r.status != 200 || r.body != "" {
		t.Fatalf("HEAD: %d %q", r.status, r.body)
	}
}

// notFoundPage is Laravel's HTML 404 page, as the emulator renders it.
const notFoundPage = `<!DOCTYPE html>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        <title>Not Found</title>
    </head>
    <body class="antialiased">
        <div class="flex items-center">404 | Not Found</div>
    </body>
</html>
`

// Any unknown path under <PathPrefix>/api/v1 is the API's fallback route
// (throttled and counted like the API); any other path is Laravel's route
// 404, which names the path below the installation (neither throttled nor
// counted in Stats).
func TestRouteNotFound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		prefix string
		c      call
		status int
		body   string
		api    bool // answered by the API's fallback route
	}{
		{name: "unknown path under /api/v1", c: call{path: "/api/v1/nothing/here", key: keyA},
			status: 404, body: notFound, api: true},
		{name: "base URL ending in /api/v1", c: call{path: "/api/v1/api/v1/websites/5", key: keyA},
			status: 404, body: notFound, api: true},
		{name: "fallback without key nor Accept", c: call{path: "/api/v1/api/v1/websites/5", accept: "-"},
			status: 404, body: notFound, api: true},
		{name: "wrong prefix", c: call{path: "/wrongprefix/api/v1/websites/5", key: keyA},
			status: 404, body: laravelJSON("The route wrongprefix/api/v1/websites/5 could not be found.")},
		{name: "trailing slash trimmed", c: call{path: "/wrongprefix/api/v1/websites/5/", key: keyA},
			status: 404, body: laravelJSON("The route wrongprefix/api/v1/websites/5 could not be found.")},
		{name: "query not shown", c: call{path: "/wrongprefix/api/v1/websites?per_page=50", key: keyA},
			status: 404, body: laravelJSON("The route wrongprefix/api/v1/websites could not be found.")},
		{name: "path kept encoded", c: call{path: "/a%20b/api/v1", key: keyA},
			status: 404, body: laravelJSON("The route a%20b/api/v1 could not be found.")},
		{name: "root", c: call{path: "/"},
			status: 404, body: laravelJSON("The route / could not be found.")},
		{name: "without Accept: HTML", c: call{path: "/wrongprefix/api/v1/websites/5", key: keyA, accept: "-"},
			status: 404, body: notFoundPage},
		{name: "HTML first in Accept", c: call{path: "/wrongprefix/api/v1/websites/5", key: keyA, accept: "text/html,application/json"},
			status: 404, body: notFoundPage},
		{name: "below the installation", prefix: "/analytics", c: call{path: "/wrong/api/v1/websites/5", key: keyA},
			status: 404, body: laravelJSON("The route wrong/api/v1/websites/5 could not be found.")},
		{name: "installation root", prefix: "/analytics", c: call{path: "/", key: keyA},
			status: 404, body: laravelJSON("The route / could not be found.")},
		{name: "prefix missing", prefix: "/analytics", c: call{path: "/api/v1/websites/5", root: true, key: keyA},
			status: 404, body: laravelJSON("The route api/v1/websites/5 could not be found.")},
		{name: "prefix misspelt", prefix: "/analytics", c: call{path: "/analyticsx/api/v1/websites", root: true, key: keyA},
			status: 404, body: laravelJSON("The route analyticsx/api/v1/websites could not be found.")},
		{name: "unknown path under the prefix's /api/v1", prefix: "/analytics", c: call{path: "/api/v1/v2/websites", key: keyA},
			status: 404, body: notFound, api: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{PathPrefix: tc.prefix, RateLimit: 60})
			r := do(t, s, tc.c)
			expect(t, r, tc.status, tc.body)
			wantType, wantRemaining, wantTotal := "application/json", "", 0
			if tc.body == notFoundPage {
				wantType = "text/html; charset=UTF-8"
			}
			if tc.api {
				wantRemaining, wantTotal = "59", 1
			}
			if got := r.header.Get("Content-Type"); got != wantType {
				t.Errorf("Content-Type %q, want %q", got, wantType)
			}
			if got := r.header.Get("X-RateLimit-Remaining"); got != wantRemaining {
				t.Errorf("X-RateLimit-Remaining %q, want %q", got, wantRemaining)
			}
			if st := s.Stats(); st.Total != wantTotal || (tc.api && st.ByRoute["GET (unknown)"] != 1) {
				t.Errorf("Stats %+v", st)
			}
		})
	}
}

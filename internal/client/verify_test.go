package client_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
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

func TestAccount(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey, Name: "Alice", Email: "a@example.test", WebsiteLimit: 5}}})
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	for range 2 {
		a, err := c.Account(ctx(t))
		if err != nil || a.ID != 1 || a.Name != "Alice" || a.Email != "a@example.test" || !a.HasWebsiteLimit || a.WebsiteLimit != 5 {
			t.Fatalf("Account = %+v, %v", a, err)
		}
	}
	if n := srv.Stats().Total; n != 1 {
		t.Errorf("%d requests, want 1 (the account is fetched once)", n)
	}
	if !c.APIVerified() {
		t.Error("an account answer proves the base URL")
	}

	old := emulator.NewServer(t, emulator.Options{NoAccountEndpoint: true})
	oc := newClient(t, old.URL, emulator.DefaultAPIKey)
	for range 2 {
		if _, err := oc.Account(ctx(t)); !errors.Is(err, client.ErrAccountUnsupported) {
			t.Fatalf("older build: %v", err)
		}
	}
	if n := old.Stats().Total; n != 2 {
		t.Errorf("older build: %d requests, want 2 (account, then the proof; then remembered)", n)
	}
}

// listPage renders a list page of ids first..last; meta fields are left
// out when their value is < 0.
func listPage(ids []int, lastPage, total int, next bool) string {
	var data []string
	for _, id := range ids {
		data = append(data, fmt.Sprintf(`{"id":%d,"domain":"d%d.example"}`, id, id))
	}
	meta := `"current_page":1`
	if lastPage >= 0 {
		meta += fmt.Sprintf(`,"last_page":%d`, lastPage)
	}
	if total >= 0 {
		meta += fmt.Sprintf(`,"total":%d`, total)
	}
	nextURL := "null"
	if next {
		nextURL = `"https://example.test/next"`
	}
	return fmt.Sprintf(`{"data":[%s],"links":{"next":%s},"meta":{%s},"status":200}`, strings.Join(data, ","), nextURL, meta)
}

func seq(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

func TestListAllWebsitesToTheEnd(t *testing.T) {
	t.Parallel()
	// links.next, no last_page, no total
	s, u := serve(t, answer(200, listPage(seq(1, 100), -1, -1, true)), answer(200, listPage(seq(101, 100), -1, -1, true)),
		answer(200, listPage(seq(201, 7), -1, -1, false)))
	ws, err := client.ListAllWebsites(newClient(t, u, "key"), ctx(t), client.ListOptions{})
	if err != nil || len(ws) != 207 || s.count() != 3 {
		t.Errorf("links.next: %d websites in %d requests, %v; want 207 in 3", len(ws), s.count(), err)
	}
	// no links, no last_page: a full page asks for the next
	full := func(ids []int) string {
		return strings.Replace(listPage(ids, -1, -1, false), `"links":{"next":null},`, "", 1)
	}
	s, u = serve(t, answer(200, full(seq(1, 100))), answer(200, full(seq(101, 100))), answer(200, full(nil)))
	ws, err = client.ListAllWebsites(newClient(t, u, "key"), ctx(t), client.ListOptions{})
	if err != nil || len(ws) != 200 || s.count() != 3 {
		t.Errorf("full pages: %d websites in %d requests, %v; want 200 in 3", len(ws), s.count(), err)
	}
}

// When meta.total shifts during a sweep, it starts again once; a second
// shift is an error, never a silent partial list.
func TestListAllWebsitesNoticesChanges(t *testing.T) {
	t.Parallel()
	s, u := serve(t,
		answer(200, listPage(seq(1, 100), 2, 150, true)), answer(200, listPage(seq(101, 49), 2, 149, false)), // shifted
		answer(200, listPage(seq(1, 100), 2, 149, true)), answer(200, listPage(seq(101, 49), 2, 149, false)))
	ws, err := client.ListAllWebsites(newClient(t, u, "key"), ctx(t), client.ListOptions{})
	if err != nil || len(ws) != 149 || s.count() != 4 {
		t.Errorf("one shift: %d websites in %d requests, %v; want 149 in 4", len(ws), s.count(), err)
	}
	var total atomic.Int32
	total.Store(150)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(total.Add(1)) // changes on every request
		page := 1
		if r.URL.Query().Get("page") == "2" {
			page = 2
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, strings.Replace(listPage(seq(page*100-99, 50), 2, n, page == 1), `"current_page":1`, fmt.Sprintf(`"current_page":%d`, page), 1))
	}))
	t.Cleanup(srv.Close)
	if _, err := client.ListAllWebsites(newClient(t, srv.URL, "key"), ctx(t), client.ListOptions{}); !errors.Is(err, client.ErrListChanged) {
		t.Errorf("always shifting: %v, want ErrListChanged", err)
	}
}

func TestFindWebsiteByDomainDuplicates(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	a := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "twice.example"})
	b := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "twice.example"})
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	ws, err := client.FindWebsitesByDomain(c, ctx(t), "twice.example")
	if err != nil || len(ws) != 2 || ws[0].ID != a.ID || ws[1].ID != b.ID {
		t.Fatalf("FindWebsitesByDomain = %v, %v", ws, err)
	}
	_, err = c.FindWebsiteByDomain(ctx(t), "twice.example")
	if !errors.Is(err, client.ErrDuplicateDomain) || !strings.Contains(err.Error(), fmt.Sprintf("ids %d, %d", a.ID, b.ID)) {
		t.Errorf("FindWebsiteByDomain: %v", err)
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

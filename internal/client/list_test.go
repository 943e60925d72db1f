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

func TestListPaginationOver250(t *testing.T) {
	t.Parallel()
	// the server default page size is 10: the client must send per_page
	srv, c := newEnv(t, emulator.Options{DefaultPerPage: 10})
	for i := range 250 {
		srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("site-%03d.example.com", i)})
	}
	srv.ResetStats()
	all, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{SortBy: client.SortByDomain, Sort: client.SortAsc})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 250 || all[0].Domain != "site-000.example.com" || all[249].Domain != "site-249.example.com" {
		t.Fatalf("got %d websites, first %q", len(all), all[0].Domain)
	}
	// Three pages read twice, newest first, and ordered here: only the
	// order by id checks the pages against each other.
	if n := srv.Stats().ByRoute["GET /api/v1/websites"]; n != 6 {
		t.Errorf("listing 250 at 100 per page by domain took %d requests, want 6", n)
	}
	srv.ResetStats()
	if all, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{}); err != nil || len(all) != 250 {
		t.Fatalf("newest first: %d websites, %v", len(all), err)
	}
	// Three pages, read twice: what each website held must hold at one
	// moment (list_sweep.go).
	if n := srv.Stats().ByRoute["GET /api/v1/websites"]; n != 6 {
		t.Errorf("listing 250 at 100 per page newest first took %d requests, want 6", n)
	}

	page, err := c.ListWebsites(ctx(t), client.ListOptions{PerPage: 25, Page: 3, Search: "SITE-0", Sort: client.SortAsc})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 100 || page.LastPage != 4 || page.CurrentPage != 3 || page.PerPage != 25 || len(page.Websites) != 25 ||
		page.Websites[0].Domain != "site-050.example.com" {
		t.Errorf("page = %+v (first %q)", page, page.Websites[0].Domain)
	}
	if _, err := c.ListWebsites(ctx(t), client.ListOptions{PerPage: 30}); err == nil {
		t.Error("per_page 30 was accepted; the server would silently fall back")
	}

	empty, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{Search: "nothing-matches"})
	if err != nil || len(empty) != 0 {
		t.Errorf("empty search: %d websites, %v", len(empty), err)
	}
}

func TestFindWebsiteByDomainIsExact(t *testing.T) {
	t.Parallel()
	srv, c := newEnv(t, emulator.Options{})
	for i := range 120 {
		srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("x%d.shop.example.com", i)})
	}
	want := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "shop.example.com"})
	w, err := c.FindWebsiteByDomain(ctx(t), "shop.example.com")
	if err != nil || w.ID != want.ID {
		t.Fatalf("FindWebsiteByDomain = %+v, %v; want id %d", w, err, want.ID)
	}
	if _, err := c.FindWebsiteByDomain(ctx(t), "hop.example.com"); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("substring-only match: %v, want ErrNotFound", err)
	}
}

func TestListAllWebsitesToTheEnd(t *testing.T) {
	t.Parallel()
	// links.next, no last_page, no total: without a total a delete
	// between two pages is not seen, so every page is read twice, all of
	// them and then all of them again, and must be the same both times.
	p1, p2 := answer(200, listPage(seq(1000, 100), -1, -1, true)), answer(200, listPage(seq(900, 100), -1, -1, true))
	p3 := answer(200, listPage(seq(800, 7), -1, -1, false))
	s, u := serve(t, p1, p2, p3, p1, p2, p3)
	ws, err := client.ListAllWebsites(newClient(t, u, "key"), ctx(t), client.ListOptions{})
	if err != nil || len(ws) != 207 || s.count() != 6 {
		t.Errorf("links.next: %d websites in %d requests, %v; want 207 in 6", len(ws), s.count(), err)
	}
	// no links, no last_page: a full page asks for the next
	full := func(ids []int) string {
		return strings.Replace(listPage(ids, -1, -1, false), `"links":{"next":null},`, "", 1)
	}
	f1, f2 := answer(200, full(seq(1000, 100))), answer(200, full(seq(900, 100)))
	f3 := answer(200, full(nil))
	s, u = serve(t, f1, f2, f3, f1, f2, f3)
	ws, err = client.ListAllWebsites(newClient(t, u, "key"), ctx(t), client.ListOptions{})
	if err != nil || len(ws) != 200 || s.count() != 6 {
		t.Errorf("full pages: %d websites in %d requests, %v; want 200 in 6", len(ws), s.count(), err)
	}
}

// When meta.total shifts during a sweep, it starts again once; a second
// shift is an error, never a silent partial list.
func TestListAllWebsitesNoticesChanges(t *testing.T) {
	t.Parallel()
	s, u := serve(t,
		answer(200, listPage(seq(1000, 100), 2, 150, true)), answer(200, listPage(seq(900, 49), 2, 149, false)), // shifted
		answer(200, listPage(seq(1000, 100), 2, 149, true)), answer(200, listPage(seq(900, 49), 2, 149, false)),
		answer(200, listPage(seq(1000, 100), 2, 149, true)), answer(200, listPage(seq(900, 49), 2, 149, false)))
	ws, err := client.ListAllWebsites(newClient(t, u, "key"), ctx(t), client.ListOptions{})
	if err != nil || len(ws) != 149 || s.count() != 6 {
		t.Errorf("one shift: %d websites in %d requests, %v; want 149 in 6", len(ws), s.count(), err)
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
		_, _ = fmt.Fprint(w, strings.Replace(listPage(seq(1000-page*100, 50), 2, n, page == 1), `"current_page":1`, fmt.Sprintf(`"current_page":%d`, page), 1))
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

// seq returns n ids from `from` down, the order of the list's pages
// (newest first).
func seq(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from - i
	}
	return out
}

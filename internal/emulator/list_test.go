package emulator

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// listPage is the decoded list body.
type listPage struct {
	Data []struct {
		ID     int64  `json:"id"`
		Domain string `json:"domain"`
	} `json:"data"`
	Meta struct {
		CurrentPage int  `json:"current_page"`
		From        *int `json:"from"`
		LastPage    int  `json:"last_page"`
		Links       []struct {
			URL    *string `json:"url"`
			Label  string  `json:"label"`
			Active bool    `json:"active"`
		} `json:"links"`
		PerPage int  `json:"per_page"`
		To      *int `json:"to"`
		Total   int  `json:"total"`
	} `json:"meta"`
}

func (p listPage) ids() []int64 {
	var ids []int64
	for _, d := range p.Data {
		ids = append(ids, d.ID)
	}
	return ids
}

func (p listPage) labels() string {
	var ls []string
	for _, l := range p.Meta.Links {
		ls = append(ls, l.Label)
	}
	return strings.Join(ls, " ")
}

// jsonURL escapes "/" as PHP does.
func jsonURL(s string) string { return strings.ReplaceAll(s, "/", `\/`) }

func seedMany(s *Server, owner string, n int) {
	for i := 1; i <= n; i++ {
		s.Seed(owner, Website{Domain: fmt.Sprintf("site%02d.example", i)})
	}
}

func TestListPaginationEnvelope(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	seedMany(s, keyA, 25)
	s.Seed(keyB, Website{Domain: "someone-else.example"})
	base := jsonURL(s.URL + "/api/v1/websites")
	u := func(q string, p int) string { return fmt.Sprintf(`"%s?%spage=%d"`, base, q, p) }

	r := do(t, s, call{path: "/api/v1/websites?per_page=10&page=2", key: keyA})
	var page listPage
	decode(t, r, &page)
	if got := fmt.Sprint(page.ids()); got != "[15 14 13 12 11 10 9 8 7 6]" {
		t.Errorf("ids %s", got)
	}
	q := "per_page=10&"
	wantTail := `],"links":{"first":` + u(q, 1) + `,"last":` + u(q, 3) + `,"prev":` + u(q, 1) + `,"next":` + u(q, 3) + `},` +
		`"meta":{"current_page":2,"from":11,"last_page":3,"links":[` +
		`{"url":` + u(q, 1) + `,"label":"&laquo; Previous","active":false},` +
		`{"url":` + u(q, 1) + `,"label":"1","active":false},` +
		`{"url":` + u(q, 2) + `,"label":"2","active":true},` +
		`{"url":` + u(q, 3) + `,"label":"3","active":false},` +
		`{"url":` + u(q, 3) + `,"label":"Next &raquo;","active":false}],` +
		`"path":"` + base + `","per_page":10,"to":20,"total":25},"status":200}`
	if r.status != 200 || !strings.HasSuffix(r.body, wantTail) || !strings.HasPrefix(r.body, `{"data":[{"id":15,`) {
		t.Fatalf("got %d %s\nwant tail %s", r.status, r.body, wantTail)
	}

	// The last page, with another parameter carried into the links and
	// an empty one dropped as null.
	r = do(t, s, call{path: "/api/v1/websites?sort=asc&search=&page=3", key: keyA})
	q = "sort=asc&"
	wantTail = `],"links":{"first":` + u(q, 1) + `,"last":` + u(q, 3) + `,"prev":` + u(q, 2) + `,"next":null},` +
		`"meta":{"current_page":3,"from":21,"last_page":3,"links":[` +
		`{"url":` + u(q, 2) + `,"label":"&laquo; Previous","active":false},` +
		`{"url":` + u(q, 1) + `,"label":"1","active":false},` +
		`{"url":` + u(q, 2) + `,"label":"2","active":false},` +
		`{"url":` + u(q, 3) + `,"label":"3","active":true},` +
		`{"url":null,"label":"Next &raquo;","active":false}],` +
		`"path":"` + base + `","per_page":10,"to":25,"total":25},"status":200}`
	if r.status != 200 || !strings.HasSuffix(r.body, wantTail) || !strings.HasPrefix(r.body, `{"data":[{"id":21,`) {
		t.Fatalf("got %d %s\nwant tail %s", r.status, r.body, wantTail)
	}

	// Past the end.
	r = do(t, s, call{path: "/api/v1/websites?page=9", key: keyA})
	decode(t, r, &page)
	if len(page.Data) != 0 || page.Meta.From != nil || page.Meta.To != nil || page.Meta.CurrentPage != 9 || page.Meta.LastPage != 3 ||
		!strings.Contains(r.body, `"data":[]`) || !strings.Contains(r.body, `"prev":`+u("", 8)) {
		t.Errorf("past the end: %s", r.body)
	}
}

func TestListEmpty(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	seedMany(s, keyA, 3)
	base := jsonURL(s.URL + "/api/v1/websites")
	r := do(t, s, call{path: "/api/v1/websites", key: keyB})
	expect(t, r, 200, `{"data":[],"links":{"first":"`+base+`?page=1","last":"`+base+`?page=1","prev":null,"next":null},`+
		`"meta":{"current_page":1,"from":null,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","active":false},`+
		`{"url":"`+base+`?page=1","label":"1","active":true},{"url":null,"label":"Next &raquo;","active":false}],`+
		`"path":"`+base+`","per_page":10,"to":null,"total":0},"status":200}`)
}

func TestListSliderWindow(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	seedMany(s, keyA, 200)
	tests := []struct {
		page int
		want string
	}{
		{1, "&laquo; Previous 1 2 3 4 5 6 7 8 9 10 ... 19 20 Next &raquo;"},
		{7, "&laquo; Previous 1 2 3 4 5 6 7 8 9 10 ... 19 20 Next &raquo;"},
		{8, "&laquo; Previous 1 2 ... 5 6 7 8 9 10 11 ... 19 20 Next &raquo;"},
		{13, "&laquo; Previous 1 2 ... 10 11 12 13 14 15 16 ... 19 20 Next &raquo;"},
		{14, "&laquo; Previous 1 2 ... 11 12 13 14 15 16 17 18 19 20 Next &raquo;"},
		{20, "&laquo; Previous 1 2 ... 11 12 13 14 15 16 17 18 19 20 Next &raquo;"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.page), func(t *testing.T) {
			t.Parallel()
			var page listPage
			decode(t, do(t, s, call{path: fmt.Sprintf("/api/v1/websites?page=%d", tc.page), key: keyA}), &page)
			if got := page.labels(); got != tc.want {
				t.Errorf("labels %q\nwant      %q", got, tc.want)
			}
			for _, l := range page.Meta.Links {
				if l.Active != (l.Label == fmt.Sprint(tc.page)) || (l.Label == "..." && l.URL != nil) {
					t.Errorf("link %+v", l)
				}
			}
		})
	}
	// 13 pages still use the small slider.
	s2, _ := newTestServer(t, Options{})
	seedMany(s2, keyA, 130)
	var page listPage
	decode(t, do(t, s2, call{path: "/api/v1/websites?page=7", key: keyA}), &page)
	if got := page.labels(); got != "&laquo; Previous 1 2 3 4 5 6 7 8 9 10 11 12 13 Next &raquo;" {
		t.Errorf("13 pages: %q", got)
	}
}

func TestListParameters(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{DefaultPerPage: 2})
	for _, d := range []string{"alpha.com", "beta.com", "alphabet.org", "gamma.net", "a-pha.io"} {
		create(t, s, keyA, url.Values{"domain": {d}})
	}
	s.Seed(keyB, Website{Domain: "alpha-of-b.com"})
	s.UpdateWebsite(2, func(w *Website) { w.Favorite = true })
	tests := []struct {
		name, query string
		opts        Options
		want        string // ids
		perPage     int
	}{
		{name: "defaults: id desc, server page size", query: "", want: "[5 4]", perPage: 2},
		{name: "invalid values fall back", query: "?per_page=7&sort_by=created_at&sort=ASC&search_by=name&page=x", want: "[5 4]", perPage: 2},
		{name: "per_page as numeric string", query: "?per_page=10.0", want: "[5 4 3 2 1]", perPage: 10},
		{name: "sort by domain asc", query: "?sort_by=domain&sort=asc&per_page=25", want: "[5 1 3 2 4]", perPage: 25},
		{name: "sort by domain desc", query: "?sort_by=domain&per_page=25", want: "[4 2 3 1 5]", perPage: 25},
		{name: "search is a case-insensitive substring", query: "?search=ALPHA&per_page=25", want: "[3 1]", perPage: 25},
		{name: "search underscore is a LIKE wildcard", query: "?search=a_pha&per_page=25", want: "[5 3 1]", perPage: 25},
		{name: "search 0 is no search", query: "?search=0&per_page=25", want: "[5 4 3 2 1]", perPage: 25},
		{name: "search with no match", query: "?search=zzz", want: "[]", perPage: 2},
		{name: "favorite filter", query: "?favorite=1&per_page=25", want: "[2]", perPage: 25},
		{name: "not favorite", query: "?favorite=0&per_page=25", want: "[5 4 3 1]", perPage: 25},
		{name: "invalid favorite ignored", query: "?favorite=yes&per_page=25", want: "[5 4 3 2 1]", perPage: 25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var page listPage
			r := do(t, s, call{path: "/api/v1/websites" + tc.query, key: keyA})
			decode(t, r, &page)
			if got := fmt.Sprint(page.ids()); got != tc.want || page.Meta.PerPage != tc.perPage {
				t.Errorf("ids %s per_page %d, want %s %d\n%s", got, page.Meta.PerPage, tc.want, tc.perPage, r.body)
			}
		})
	}
	t.Run("older build ignores favorite", func(t *testing.T) {
		t.Parallel()
		s, _ := newTestServer(t, Options{OmitFavorite: true})
		s.Seed(keyA, Website{Domain: "a.com", Favorite: true})
		s.Seed(keyA, Website{Domain: "b.com"})
		r := do(t, s, call{path: "/api/v1/websites?favorite=1", key: keyA})
		var page listPage
		decode(t, r, &page)
		if len(page.Data) != 2 || strings.Contains(r.body, `"favorite`) {
			t.Errorf("got %s", r.body)
		}
	})
}

func TestPathPrefix(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{PathPrefix: "/analytics/"})
	if !strings.HasSuffix(s.URL, "/analytics") {
		t.Fatalf("URL %s", s.URL)
	}
	create(t, s, keyA, url.Values{"domain": {"x.com"}})
	r := do(t, s, call{path: "/api/v1/websites", key: keyA})
	if r.status != 200 || !strings.Contains(r.body, `"path":"`+jsonURL(s.URL)+`\/api\/v1\/websites"`) {
		t.Errorf("got %d %s", r.status, r.body)
	}
	expect(t, do(t, s, call{method: "POST", path: "/api/v1/websites/1", key: keyA}), 405,
		laravelJSON("The POST method is not supported for route api/v1/websites/1. Supported methods: GET, HEAD, PUT, PATCH, DELETE."))
	req := call{path: "/api/v1/websites", key: keyA}
	s.URL = strings.TrimSuffix(s.URL, "/analytics")
	expect(t, do(t, s, req), 404, laravelJSON("The route api/v1/websites could not be found."))
}

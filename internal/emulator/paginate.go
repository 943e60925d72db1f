package emulator

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// pageQuery is what every list of the API reads from its input: search,
// sort_by, sort, per_page and page.
type pageQuery struct {
	search  string // "" for no search
	sortBy  string // one of the list's columns
	desc    bool
	perPage int
	page    int
}

// parsePageQuery reads the parameters every list of the API takes; invalid
// values silently fall back to the defaults (sortBys[0], descending, the
// installation's page size, page 1), as the controllers do. It reports
// false for a search given as an array ("Array to string conversion").
func (e *Emulator) parsePageQuery(in *input, sortBys ...string) (pageQuery, bool) {
	q := pageQuery{sortBy: sortBys[0], desc: true, perPage: e.opts.DefaultPerPage, page: 1}
	switch v := in.get("search").(type) {
	case phpArray:
		return q, false
	case string:
		if !phpEmpty(v) { // ->when($search, ...) is a truthiness test
			q.search = v
		}
	}
	if s, _ := in.get("sort_by").(string); slices.Contains(sortBys, s) {
		q.sortBy = s
	}
	if s, _ := in.get("sort").(string); s == "asc" || s == "desc" {
		q.desc = s == "desc"
	}
	if f, ok := phpNumeric(in.get("per_page")); ok {
		switch f {
		case 10, 25, 50, 100:
			q.perPage = int(f)
		}
	}
	if n, ok := filterInt(in.get("page")); ok && n >= 1 && n <= 1<<40 {
		q.page = int(n)
	}
	return q, true
}

// listQuery is the websites list's request after the controller's
// fallbacks.
type listQuery struct {
	pageQuery     // sort_by "id" or "domain"
	favorite  int // -1 for no filter
}

// parseListQuery reads the list parameters; invalid values silently fall
// back to the defaults, as the controller does.
func (e *Emulator) parseListQuery(in *input) (listQuery, bool) {
	pq, ok := e.parsePageQuery(in, "id", "domain")
	q := listQuery{pageQuery: pq, favorite: -1}
	if !ok {
		return q, false
	}
	if !e.opts.OmitFavorite {
		if f, ok := phpNumeric(in.get("favorite")); ok && (f == 0 || f == 1) {
			q.favorite = int(f)
		}
	}
	return q, true
}

// index is GET /websites: the caller's websites, rendered as a Laravel
// resource collection over a LengthAwarePaginator.
func (e *Emulator) index(req *request) *Response {
	q, ok := e.parseListQuery(req.in)
	if !ok {
		return serverError(req)
	}
	var like []rune
	if q.search != "" {
		like = []rune("%" + strings.ToLower(q.search) + "%")
	}

	from := (q.page - 1) * q.perPage
	rows, total := e.selectWebsites(func(w *Website) bool {
		return w.Owner == req.user.Key &&
			(like == nil || likeMatch([]rune(strings.ToLower(w.Domain)), like)) &&
			(q.favorite < 0 || w.Favorite == (q.favorite == 1))
	}, func(a, b *Website) int {
		c := 0
		if q.sortBy == "domain" {
			c = strings.Compare(strings.ToLower(a.Domain), strings.ToLower(b.Domain))
		}
		if c == 0 {
			c = cmp.Compare(a.ID, b.ID)
		}
		if q.desc {
			return -c
		}
		return c
	}, from, q.perPage)

	data := []object{}
	for _, w := range rows {
		data = append(data, e.record(w, nil))
	}

	p := paginator{
		path:    requestURL(req.r),
		query:   linkQuery(req.in.query),
		total:   total,
		perPage: q.perPage,
		current: q.page,
		count:   len(data),
	}
	return jsonResponse(http.StatusOK, object{
		{"data", data},
		{"links", p.links()},
		{"meta", p.meta()},
		{"status", 200},
	})
}

// selectWebsites sorts the websites for which keep is true by order, and
// returns copies of n of them from the index from on (none past the end),
// and how many there are. Only the rows returned are copied: a page of a
// list of thousands of websites costs a page of copies.
func (e *Emulator) selectWebsites(keep func(*Website) bool, order func(a, b *Website) int, from, n int) ([]*Website, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var rows []*Website
	for _, w := range e.websites {
		if keep(w) {
			rows = append(rows, w)
		}
	}
	slices.SortFunc(rows, order)
	var page []*Website
	if from < len(rows) {
		for _, w := range rows[from:min(from+n, len(rows))] {
			c := w.clone()
			page = append(page, &c)
		}
	}
	return page, len(rows)
}

// likeMatch matches s against a MySQL LIKE pattern ("%" any run, "_" one
// character, "\" escapes).
func likeMatch(s, p []rune) bool {
	// Iterative wildcard matching with backtracking on the last "%".
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; {
			case c == '%':
				star, mark = pi, si
				pi++
				continue
			case c == '_':
				si++
				pi++
				continue
			case c == '\\' && pi+1 < len(p):
				if p[pi+1] == s[si] {
					si++
					pi += 2
					continue
				}
			case c == s[si]:
				si++
				pi++
				continue
			}
		}
		if star < 0 {
			return false
		}
		mark++
		si, pi = mark, star+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}

// requestURL is Laravel's $request->url(): scheme, host and path, without
// the query string or a trailing slash.
func requestURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := strings.ToLower(r.Host)
	if h, ok := strings.CutSuffix(host, ":80"); ok && scheme == "http" {
		host = h
	} else if h, ok := strings.CutSuffix(host, ":443"); ok && scheme == "https" {
		host = h
	}
	return scheme + "://" + host + strings.TrimRight(r.URL.EscapedPath(), "/")
}

// linkQuery is the request's query string as the paginator carries it into
// its links (Laravel's withQueryString): "page" removed, null values (empty
// strings) dropped, arrays skipped.
func linkQuery(p *params) []member {
	var out []member
	for _, k := range p.keys {
		if k == "page" {
			continue
		}
		if s, ok := p.vals[k].(string); ok {
			out = append(out, member{k, s})
		}
	}
	return out
}

// paginator renders Laravel's LengthAwarePaginator.
type paginator struct {
	path    string
	query   []member
	total   int
	perPage int
	current int
	count   int // items on the current page
}

func (p paginator) lastPage() int {
	return max((p.total+p.perPage-1)/p.perPage, 1)
}

// url is AbstractPaginator::url: the path, the query and page, encoded like
// http_build_query with PHP_QUERY_RFC3986.
func (p paginator) url(page int) string {
	var b strings.Builder
	b.WriteString(p.path)
	b.WriteByte('?')
	for _, m := range p.query {
		b.WriteString(rawURLEncode(m.key))
		b.WriteByte('=')
		s, _ := m.value.(string)
		b.WriteString(rawURLEncode(s))
		b.WriteByte('&')
	}
	b.WriteString("page=")
	b.WriteString(strconv.Itoa(max(page, 1)))
	return b.String()
}

func (p paginator) prevURL() any {
	if p.current > 1 {
		return p.url(p.current - 1)
	}
	return nil
}

func (p paginator) nextURL() any {
	if p.current < p.lastPage() {
		return p.url(p.current + 1)
	}
	return nil
}

func (p paginator) links() object {
	return object{
		{"first", p.url(1)},
		{"last", p.url(p.lastPage())},
		{"prev", p.prevURL()},
		{"next", p.nextURL()},
	}
}

func (p paginator) meta() object {
	var from, to any
	if p.count > 0 {
		f := (p.current-1)*p.perPage + 1
		from, to = f, f+p.count-1
	}
	return object{
		{"current_page", p.current},
		{"from", from},
		{"last_page", p.lastPage()},
		{"links", p.linkCollection()},
		{"path", p.path},
		{"per_page", p.perPage},
		{"to", to},
		{"total", p.total},
	}
}

// linkCollection is LengthAwarePaginator::linkCollection with Laravel's
// UrlWindow (3 pages on each side of the current one).
func (p paginator) linkCollection() []object {
	const onEachSide = 3
	last := p.lastPage()
	var ranges [][2]int // page ranges; {0,0} stands for "..."
	dots := [2]int{}
	switch window := onEachSide + 4; {
	case last < onEachSide*2+8:
		ranges = [][2]int{{1, last}}
	case p.current <= window:
		ranges = [][2]int{{1, window + onEachSide}, dots, {last - 1, last}}
	case p.current > last-window:
		ranges = [][2]int{{1, 2}, dots, {last - (window + (onEachSide - 1)), last}}
	default:
		ranges = [][2]int{{1, 2}, dots, {p.current - onEachSide, p.current + onEachSide}, dots, {last - 1, last}}
	}
	out := []object{{{"url", p.prevURL()}, {"label", "&laquo; Previous"}, {"active", false}}}
	for _, r := range ranges {
		if r == dots {
			out = append(out, object{{"url", nil}, {"label", "..."}, {"active", false}})
			continue
		}
		for page := r[0]; page <= r[1]; page++ {
			out = append(out, object{
				{"url", p.url(page)}, {"label", strconv.Itoa(page)}, {"active", page == p.current},
			})
		}
	}
	return append(out, object{{"url", p.nextURL()}, {"label", "Next &raquo;"}, {"active", false}})
}

// rawURLEncode is PHP's rawurlencode (RFC 3986).
func rawURLEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[c>>4])
		b.WriteByte("0123456789ABCDEF"[c&15])
	}
	return b.String()
}

package client

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzListOptions: the filters of analytics_websites and the list resource
// (search, sort_by, sort) as the client sends them (ListOptions.query). No
// panic; a refusal names the parameter; an accepted search is sent as a
// literal of the server's LIKE pattern: the query string reads back with
// the same sort_by and sort, and a search that the pattern matches as
// written, without wildcards.
func FuzzListOptions(f *testing.F) {
	for _, p := range [][3]string{{"example", "id", "desc"}, {"", "domain", "asc"}, {"a&b=c", "", ""}, {"%zz", "x", "up"},
		{"ünï", "ID", "DESC"}} {
		f.Add(p[0], p[1], p[2])
	}
	f.Fuzz(func(t *testing.T, search, sortBy, sort string) {
		q, err := ListOptions{Search: search, SortBy: sortBy, Sort: sort}.query()
		if err != nil {
			if !strings.Contains(err.Error(), "sort") {
				t.Errorf("%q, %q: the error names no parameter: %v", sortBy, sort, err)
			}
			return
		}
		back, err := url.ParseQuery(q.Encode())
		if err != nil {
			t.Fatalf("%q: the query %q does not parse: %v", search, q.Encode(), err)
		}
		if got, ok := likeLiteralOf(back.Get("search")); !ok || got != search || back.Get("sort_by") != sortBy ||
			back.Get("sort") != sort {
			t.Errorf("%q, %q, %q: the query %q reads back as %v", search, sortBy, sort, q.Encode(), back)
		}
	})
}

// likeLiteralOf is the text a LIKE pattern with the backslash as its escape
// matches literally; false when it holds a wildcard ("%", "_") or ends in
// a lone backslash.
func likeLiteralOf(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case c == '\\' || c == '%' || c == '_':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

package client

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzListOptions: the filters of analytics_websites and the list resource
// (search, sort_by, sort) as the client sends them (ListOptions.query). No
// panic; a refusal names the parameter; an accepted search is sent as it
// is: the query string reads back with the same search, sort_by and sort.
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
		if back.Get("search") != search || back.Get("sort_by") != sortBy || back.Get("sort") != sort {
			t.Errorf("%q, %q, %q: the query %q reads back as %v", search, sortBy, sort, q.Encode(), back)
		}
	})
}

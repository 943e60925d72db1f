package client_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The application has no unique index on domains, so two websites can
// share one, and it sorts by domain alone (ORDER BY domain LIMIT/OFFSET):
// MySQL and MariaDB may order rows with equal keys differently from one
// query to the next. A tie split by a page boundary can then come back as
// one website twice and the other never, or a page can read differently
// the second time, although nothing was created, deleted or renamed. A
// full list sorted by domain, with or without a search, must hand over
// every website once, ordered by domain and then id, without an error.
func TestListAllByDomainTies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		at   int // positions at-1 and at share a domain
		// reversed reports whether the server orders the tie of a query
		// for page, asked for the n-th time, by id descending.
		reversed func(page, n int) bool
	}{
		{"across pages, page 2 the other way", 100, func(page, _ int) bool { return page == 2 }},
		{"across pages, each repeat the other way", 100, func(_, n int) bool { return n%2 == 0 }},
		{"within a page, each repeat the other way", 51, func(_, n int) bool { return n%2 == 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sites, url := tieServer(t, tc.at, tc.reversed)
			c := newClient(t, url, emulator.DefaultAPIKey)
			for _, search := range []string{"", "example.com"} {
				ws, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{Search: search, SortBy: client.SortByDomain, Sort: client.SortAsc})
				if err != nil {
					t.Fatalf("search %q: nothing changed, yet: %v", search, err)
				}
				checkTieList(t, sites, ws)
			}
		})
	}
}

// tieServer serves 150 websites (ids 1000 down to 851, domains
// s000.example.com up, positions at-1 and at sharing a domain). Sorted by
// domain, it orders that tie by id, or by id descending when reversed says
// so for the page and the number of times that query was asked; sorted by
// id, newest first. It returns the ids and the server's URL.
func tieServer(t *testing.T, at int, reversed func(page, n int) bool) ([]int64, string) {
	t.Helper()
	type site struct {
		ID     int64  `json:"id"`
		Domain string `json:"domain"`
		Create string `json:"created_at"`
		Update string `json:"updated_at"`
	}
	var (
		sites []site
		ids   []int64
	)
	for i := range 150 {
		d := fmt.Sprintf("s%03d.example.com", i)
		if i == at {
			d = fmt.Sprintf("s%03d.example.com", at-1)
		}
		sites = append(sites, site{ID: int64(1000 - i), Domain: d, Create: "2024-01-01T00:00:00.000000Z", Update: "2024-01-01T00:00:00.000000Z"})
		ids = append(ids, int64(1000-i))
	}
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/api/v1/websites" {
			http.NotFound(w, r)
			return
		}
		page, _ := strconv.Atoi(q.Get("page"))
		page = max(page, 1)
		per, _ := strconv.Atoi(q.Get("per_page"))
		rows := slices.Clone(sites)
		if q.Get("sort_by") == "domain" {
			mu.Lock()
			asked[r.URL.RawQuery]++
			tie := 1
			if reversed(page, asked[r.URL.RawQuery]) {
				tie = -1 // another query, another order of equal keys
			}
			mu.Unlock()
			slices.SortFunc(rows, func(a, b site) int {
				if c := cmp.Compare(a.Domain, b.Domain); c != 0 {
					if q.Get("sort") == "desc" {
						return -c
					}
					return c
				}
				return tie * cmp.Compare(a.ID, b.ID)
			})
		} else {
			slices.SortFunc(rows, func(a, b site) int { return cmp.Compare(b.ID, a.ID) })
		}
		from := min((page-1)*per, len(rows))
		last := (len(rows) + per - 1) / per
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"data":  rows[from:min(from+per, len(rows))],
			"links": map[string]any{"next": nil},
			"meta":  map[string]any{"current_page": page, "last_page": last, "per_page": per, "total": len(rows)},
		})
	}))
	t.Cleanup(srv.Close)
	return ids, srv.URL
}

// checkTieList fails t unless ws holds each of the websites want names
// once, ordered by domain, then id.
func checkTieList(t *testing.T, want []int64, ws []client.Website) {
	t.Helper()
	seen := map[int64]bool{}
	for _, w := range ws {
		if seen[w.ID] {
			t.Errorf("website %d (%s) listed twice, and no error", w.ID, w.Domain)
		}
		seen[w.ID] = true
	}
	for _, id := range want {
		if !seen[id] {
			t.Errorf("website %d missing from the list of %d, and no error", id, len(ws))
		}
	}
	// Ordered by domain, the tie by id.
	if !slices.IsSortedFunc(ws, func(a, b client.Website) int {
		return cmp.Or(cmp.Compare(a.Domain, b.Domain), cmp.Compare(a.ID, b.ID))
	}) {
		t.Errorf("the list is not ordered by domain, then id: %v", ws)
	}
}

// From page 2 of 50, sorted by domain: the tie at positions 99 and 100
// (the last of page 2, the first of page 3) comes back the other way on
// each repeat of a query. The list from page 2 is the websites from
// position 50 on, each once, without an error.
func TestListFromPage2ByDomainTie(t *testing.T) {
	t.Parallel()
	ids, url := tieServer(t, 100, func(_, n int) bool { return n%2 == 0 })
	c := newClient(t, url, emulator.DefaultAPIKey)
	ws, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{SortBy: client.SortByDomain, Sort: client.SortAsc, PerPage: 50, Page: 2})
	if err != nil {
		t.Fatalf("from page 2 by domain: nothing changed, yet: %v", err)
	}
	checkTieList(t, ids[50:], ws)
	if len(ws) != 100 {
		t.Errorf("%d websites, want 100", len(ws))
	}
}

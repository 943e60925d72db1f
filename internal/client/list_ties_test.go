package client_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The application has no unique index on domains, so
// two websites can share one, and it sorts by domain alone (ORDER BY
// domain LIMIT/OFFSET): MySQL and MariaDB may order rows with equal keys
// differently from one query to the next, so a tie split by a page
// boundary can come back as one website twice and the other never,
// although nothing was created or deleted (the marks and totals agree).
// Here the server orders the tie by id on page 1 and the other way on
// page 2. A full list sorted by domain must then not hand over one
// website twice and miss the other without a word.
func TestListAllByDomainTieAcrossPages(t *testing.T) {
	t.Parallel()
	type site struct {
		ID     int64  `json:"id"`
		Domain string `json:"domain"`
		Create string `json:"created_at"`
	}
	var sites []site
	for i := range 150 {
		d := fmt.Sprintf("s%03d.example.com", i)
		if i == 100 {
			d = "s099.example.com" // positions 99 and 100 share a domain
		}
		sites = append(sites, site{ID: int64(1000 - i), Domain: d, Create: "2024-01-01T00:00:00.000000Z"})
	}
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
			tie := 1
			if page == 2 {
				tie = -1 // another query, another order of equal keys
			}
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
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	// A search is read twice and must come out the same.
	for _, search := range []string{"", "example.com"} {
		ws, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{Search: search, SortBy: client.SortByDomain, Sort: client.SortAsc})
		if err != nil {
			t.Fatalf("search %q: nothing changed, yet: %v", search, err)
		}
		var want []int64
		for _, s := range sites {
			want = append(want, s.ID)
		}
		checkTieList(t, want, ws)
	}
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

package client_test

// A search sorted by domain, read twice, on a server that orders equal
// domains differently from one query to the next.

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

// Two websites share a domain, both inside page 1 (positions 50 and 51 by
// domain). The server (ORDER BY domain alone) orders that tie one way the
// first time a page is requested and the other way the next time, as
// list_ties_test.go's server orders it differently on two pages. Nothing
// is created, deleted or renamed. The whole list sorted by domain comes
// out (its pages are read once, between two marks); the same list with a
// search that every website matches fails with "websites were created,
// deleted or renamed": its pages are read twice and page 1's second read
// orders the tie the other way, so samePage refuses it, twice (retry), and
// the fallback that list_sweep.go keeps for ties (sweepLocally) is never
// reached.
func TestSearchByDomainTieWithinPage(t *testing.T) {
	t.Parallel()
	type site struct {
		ID     int64  `json:"id"`
		Domain string `json:"domain"`
		Create string `json:"created_at"`
		Update string `json:"updated_at"`
	}
	var sites []site
	for i := range 150 {
		d := fmt.Sprintf("s%03d.example.com", i)
		if i == 51 {
			d = "s050.example.com" // positions 50 and 51 share a domain
		}
		sites = append(sites, site{ID: int64(1000 - i), Domain: d, Create: "2024-01-01T00:00:00.000000Z", Update: "2024-01-01T00:00:00.000000Z"})
	}
	var mu sync.Mutex
	asked := map[string]int{} // times each domain-sorted page was asked for
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
			key := fmt.Sprintf("%s/%d/%d/%s", q.Get("search"), page, per, q.Get("sort"))
			mu.Lock()
			asked[key]++
			tie := 1
			if asked[key]%2 == 0 {
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
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	for _, search := range []string{"", "example.com"} {
		ws, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{Search: search, SortBy: client.SortByDomain, Sort: client.SortAsc})
		if err != nil {
			t.Errorf("search %q: nothing changed, yet: %v", search, err)
			continue
		}
		if len(ws) != len(sites) {
			t.Errorf("search %q: %d websites, want %d", search, len(ws), len(sites))
		}
	}
}

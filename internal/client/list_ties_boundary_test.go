package client_test

// A tie in domain order split by a page boundary, on the
// server model of list_ties_page_test.go (each query may order equal keys
// differently from the previous one). Nothing changes.

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

// Two websites share a domain at positions 99 and 100 by domain: page 1
// ends with one of them, page 2 begins with the other. The server orders
// the tie one way the first time a page is requested and the other way the
// next time (list_ties_page_test.go's server). Nothing is created,
// deleted or renamed, yet the list sorted by domain fails with "websites
// were created, deleted or renamed": the second read of page 1 holds the
// other website of the tie, samePage (a set comparison) refuses it, and
// pageUnchanged runs before the check for a website seen twice, so the
// fallback for ties (sweepLocally) is never reached.
func TestListByDomainTieAcrossPagesReadTwice(t *testing.T) {
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
		if i == 100 {
			d = "s099.example.com" // positions 99 and 100 share a domain
		}
		sites = append(sites, site{ID: int64(1000 - i), Domain: d, Create: "2024-01-01T00:00:00.000000Z", Update: "2024-01-01T00:00:00.000000Z"})
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
			key := fmt.Sprintf("%s/%d/%d/%s", q.Get("search"), page, per, q.Get("sort"))
			mu.Lock()
			asked[key]++
			tie := 1
			if asked[key]%2 == 0 {
				tie = -1
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
		seen := map[int64]bool{}
		for _, w := range ws {
			seen[w.ID] = true
		}
		if len(ws) != len(sites) || len(seen) != len(sites) {
			t.Errorf("search %q: %d websites (%d distinct), want %d", search, len(ws), len(seen), len(sites))
		}
	}
}

package client_test

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// sweepLocally reads the whole list newest first, twice, with the
// caller's per_page: oldest first, 10 per page, on 1000 websites costs
// 200 requests (from page 1 or from page 95 alike), where the same whole
// list read 100 per page costs 20, and it is ordered and cut here anyway
// (the caller's per_page only decides the cut).
func TestLocalSweepPerPageCost(t *testing.T) {
	t.Parallel()
	for _, page := range []int{1, 95} {
		t.Run(fmt.Sprint(page), func(t *testing.T) {
			env := newBulkEnv(t)
			env.seed(1000)
			opts := client.ListOptions{SortBy: client.SortByID, Sort: client.SortAsc, PerPage: 10, Page: page}
			n := 0
			for _, err := range env.c.AllWebsites(ctx(t), opts) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			_, list, _ := env.requests()
			t.Logf("page %d: %d websites, %d list requests", page, n, list)
			if list > 22 {
				t.Errorf("oldest first from page %d, 10 per page, on 1000 websites: %d list requests; the whole list read twice 100 per page is 20", page, list)
			}
		})
	}
}

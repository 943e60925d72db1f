package client_test

import (
	"net/http"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A page that fails (404 from a proxy: not retried) during a local
// order's read: the error alone is yielded, no website before it; for
// each starting page.
func TestLocalErrorYieldsNothing(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(230)
	for _, failAt := range []int{1, 2, 3} {
		env.fail(func(page int) int {
			if page == failAt {
				return http.StatusBadRequest
			}
			return 0
		})
		for _, page := range []int{0, 2, 3} {
			opts := client.ListOptions{SortBy: client.SortByDomain, Sort: client.SortAsc, PerPage: 100, Page: page}
			n, errs := 0, 0
			for _, err := range env.c.AllWebsites(ctx(t), opts) {
				if err != nil {
					errs++
					continue
				}
				n++
			}
			if n != 0 || errs != 1 {
				t.Errorf("fail page %d, from page %d: %d websites, %d errors", failAt, page, n, errs)
			}
		}
	}
}

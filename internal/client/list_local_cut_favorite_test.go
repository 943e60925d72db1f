package client_test

import (
	"slices"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The cut with the favorite filter, each order, each page size.
func TestLocalCutFavorite(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(260) // every fifth a favourite: 52
	for _, fav := range []bool{true, false} {
		for _, order := range []client.ListOptions{{SortBy: client.SortByID, Sort: client.SortAsc}, {SortBy: client.SortByDomain, Sort: client.SortAsc}, {SortBy: client.SortByDomain}} {
			for _, per := range []int{10, 25, 50} {
				for _, page := range []int{2, 3, 6, 9} {
					opts := order
					opts.Favorite, opts.PerPage = &fav, per
					want := serverPages(t, env.c, opts, page)
					opts.Page = page
					var got []int64
					for w, err := range env.c.AllWebsites(ctx(t), opts) {
						if err != nil {
							t.Fatal(err)
						}
						got = append(got, w.ID)
					}
					if !slices.Equal(got, want) {
						t.Errorf("fav %v %+v: %d vs server %d", fav, opts, len(got), len(want))
					}
				}
			}
		}
	}
}

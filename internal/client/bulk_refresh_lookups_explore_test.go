package client_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Explorer (BULK_EXPLORE=1, timing): a refresh of 500 with k lookups
// among its reads, default options.
func TestExploreRefreshWithLookups(t *testing.T) {
	if os.Getenv("BULK_EXPLORE") == "" {
		t.Skip("explorer")
	}
	for _, k := range []int{0, 1, 3, 6} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			env := newBulkEnv(t)
			ids := env.seed(500)
			doms := domainsOf(env, ids[:k])
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
			keys := make([]int, 0, 500+k)
			for i := range 500 + k {
				keys = append(keys, i)
			}
			for _, err := range runAll(t, keys, 20, 0, func(c context.Context, i int) error {
				if i >= 500 {
					_, err := b.FindByDomain(c, doms[i-500])
					return err
				}
				_, err := b.Read(c, ids[i])
				return err
			}) {
				if err != nil {
					t.Fatal(err)
				}
			}
			total, list, show := env.requests()
			t.Logf("refresh of 500 + %d lookups: %d requests (%d list, %d show); %+v", k, total, list, show, b.Stats())
		})
	}
}

package client_test

// How often a list is read when another client keeps
// renaming websites. The data source's description says: "when another
// client creates, deletes or renames websites meanwhile, it is read once
// more, then fails".

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestListUnderChurnReadOnceMore(t *testing.T) {
	t.Parallel()
	for _, opts := range []client.ListOptions{
		{PerPage: client.MaxPerPage},
		{PerPage: client.MaxPerPage, SortBy: client.SortByDomain, Sort: client.SortAsc},
		{PerPage: client.MaxPerPage, Sort: client.SortAsc},
	} {
		t.Run(fmt.Sprintf("%s-%s", opts.SortBy, opts.Sort), func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(250) // 3 pages
			var lists, renames atomic.Int64
			env.hook(func(page int, after bool) {
				if after {
					return
				}
				lists.Add(1)
				if page == 2 { // another client renames a page-3 website each time
					n := renames.Add(1)
					env.emu.UpdateWebsite(ids[10], func(w *emulator.Website) { w.Domain = fmt.Sprintf("churn-%d.example.org", n) })
				}
			})
			_, err := client.ListAllWebsites(env.c, ctx(t), opts)
			if !errors.Is(err, client.ErrListChanged) {
				t.Fatalf("err %v", err)
			}
			// One list of 3 pages read twice: 6 requests (8 by domain);
			// read once more: twice that.
			per := int64(6)
			if opts.SortBy == client.SortByDomain {
				per = 8
			}
			t.Logf("%d list requests, %d renames", lists.Load(), renames.Load())
			if n := lists.Load(); n > 2*per {
				t.Errorf("a list of 3 pages under churn cost %d list requests: read %d times, not \"once more, then fails\"", n, (n+per-1)/per)
			}
		})
	}
}

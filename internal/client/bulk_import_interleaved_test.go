package client_test

// Imports by domain as Terraform runs them (each import
// looks its domain up, then reads its id), 10 at a time.

import (
	"context"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

func TestImportsByDomainInterleavedAtTheFloor(t *testing.T) {
	t.Parallel()
	for _, linger := range []int{-1, 0} {
		t.Run(map[int]string{-1: "nolinger", 0: "linger"}[linger], func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(500)
			env.emu.ResetStats()
			// The linger's timer never fires: the lookups gather because
			// they arrive, not because they arrive in time (on a loaded
			// machine, a real timer fired before the others came).
			never := make(chan time.Time)
			opts := client.BulkReaderOptions{Clock: newFakeClock().Now, After: func(time.Duration) <-chan time.Time { return never }}
			if linger < 0 {
				opts.Linger = -1
			}
			b := client.NewBulkReader(env.c, opts)
			doms := domainsOf(env, ids)
			byDomain := map[string]int64{}
			for i, d := range doms {
				byDomain[d] = ids[i]
			}
			res := runAll(t, doms, 10, 0, func(c context.Context, d string) error {
				w, err := b.FindByDomain(c, d)
				if err != nil {
					return err
				}
				if w.ID != byDomain[d] {
					t.Errorf("%s: %d", d, w.ID)
				}
				_, err = b.Read(c, w.ID)
				return err
			})
			for d, err := range res {
				if err != nil {
					t.Errorf("%s: %v", d, err)
				}
			}
			total, list, show := env.requests()
			t.Logf("%d requests (%d list, %d show); %+v", total, list, show, b.Stats())
			if total > 10 {
				t.Errorf("500 imports by domain cost %d requests, want at most 10", total)
			}
		})
	}
}

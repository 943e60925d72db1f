package client_test

// A verify fetch that fails, or finds a change.

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestVerifyFetchFails(t *testing.T) {
	t.Parallel()
	for _, status := range []int{404, 500, 401} {
		t.Run(http_status(status), func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(450)
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
			if _, err := b.Read(ctx(t), ids[0]); err != nil {
				t.Fatal(err)
			}
			for id, r := range readAll(t, b, ids[1:], 20) {
				if r.err != nil {
					t.Fatalf("read %d: %v", id, r.err)
				}
			}
			var lists atomic.Int64
			env.fail(func(page int) int {
				if lists.Add(1) == 3 { // the verify's page 3
					return status
				}
				return 0
			})
			dup := domainsOf(env, ids[400:401])[0]
			// Another client renames a page-4 website into dup after the sweep.
			env.emu.UpdateWebsite(ids[120], func(w *emulator.Website) { w.Domain = dup })
			w, err := b.FindByDomain(ctx(t), dup)
			var de *client.DuplicateDomainError
			if !errors.As(err, &de) {
				t.Errorf("lookup with a failing verify: %v, %v; want a DuplicateDomainError (stats %+v)", w, err, b.Stats())
			}
			w, err = b.FindByDomain(ctx(t), dup)
			if !errors.As(err, &de) {
				t.Errorf("second lookup: %v, %v; want a DuplicateDomainError (stats %+v)", w, err, b.Stats())
			}
			for id, r := range readAll(t, b, ids[100:140], 4) {
				if r.err != nil {
					t.Errorf("read %d after the failed verify: %v", id, r.err)
				}
			}
			t.Logf("stats %+v", b.Stats())
		})
	}
}

func http_status(s int) string { return map[int]string{404: "404", 500: "500", 401: "401"}[s] }

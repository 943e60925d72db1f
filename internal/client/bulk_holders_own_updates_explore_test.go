package client_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// An apply with -parallelism=1 on 1000 websites: n times, a held-domain
// check (FindHolders) then an update of an existing website through the
// reader (Write). Explorer (BULK_EXPLORE=1): its bound, twice
// min(n searches, 20 pages), leaves out the GET that each website updated
// since the sweep costs at the next check (40 checks: 21 pages, 19
// searches, 20 GETs = 60; 40 searches would do).
func TestSequentialChecksWithOwnUpdates(t *testing.T) {
	if os.Getenv("BULK_EXPLORE") == "" {
		t.Skip("explorer")
	}
	for _, n := range []int{5, 10, 15, 25, 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			env := newBulkEnv(t)
			ids := env.seed(1000)
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
			for i := range n {
				d := fmt.Sprintf("new-%d.example.net", i)
				if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
					t.Fatal(err)
				}
				id := ids[i*7]
				if err := b.Write(ctx(t), id, func() (*client.Website, error) {
					env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
					return env.c.GetWebsite(ctx(t), id)
				}); err != nil {
					t.Fatal(err)
				}
			}
			total, list, show := env.requests()
			better := min(n, 20)
			t.Logf("%d checks + own updates: %d requests (%d list, %d show); better %d; %+v", n, total, list, show, better, b.Stats())
			if total > 2*better+2 {
				t.Errorf("%d checks between own updates cost %d requests; better %d", n, total, better)
			}
		})
	}
}

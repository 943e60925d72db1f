package client_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// After two failed sweeps (page 3 answered 404 twice, a TTL apart), the
// server answers again. The back-off (two TTLs after the second
// failure) makes every read and lookup of the next burst, 6 s after the
// failure (more than a TTL), go to the server one by one, however many
// come: 100 reads cost 100 GETs where a sweep costs 3 pages (4 requests
// with the probe), and 60 create checks cost 60 searches where a sweep
// read twice answers them all after a few (about 12 requests). Before
// the back-off (8d4d696) the window was one TTL, and the same burst
// swept. The failed sweeps spent the reads counted toward them (ski
// rental), so the reads that come later could pay for the next attempt;
// the time window on top is paid for by requests without bound.
// Deterministic (standing clock moved by the test, Linger off,
// PageConcurrency 1).
func TestRev44abBackoffOutlastsFailures(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"reads", "lookups"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(250) // 3 pages
			clock := newFakeClock()
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
			var failing atomic.Bool
			failing.Store(true)
			env.fail(func(page int) int {
				if page == 3 && failing.Load() {
					return http.StatusNotFound
				}
				return 0
			})
			read := func(id int64) {
				t.Helper()
				if _, err := b.Read(ctx(t), id); err != nil {
					t.Fatalf("read %d: %v", id, err)
				}
			}
			// Two failed sweeps of reads, a TTL apart.
			for _, id := range []int64{ids[249], ids[248], ids[149]} {
				read(id)
			}
			clock.Advance(6 * time.Second)
			for _, id := range []int64{ids[247], ids[246], ids[148]} {
				read(id)
			}
			if s := b.Stats(); s.PageErrors != 2 || s.Sweeps != 0 {
				t.Fatalf("premise: two failed sweeps; %+v", s)
			}
			failing.Store(false) // the server recovered
			clock.Advance(6 * time.Second)
			before, _, _ := env.requests()
			n, want := 0, 0
			if kind == "reads" {
				n, want = 100, 2*4
				for _, id := range ids[:n] {
					read(id)
				}
			} else {
				n, want = 60, 2*12
				for i := range n {
					d := fmt.Sprintf("new-%02d.example.net", i)
					if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
						t.Fatalf("FindHolders(%s): %v", d, err)
					}
				}
			}
			after, _, _ := env.requests()
			t.Logf("%d %s 6 s after the second failed sweep: %d requests; %+v", n, kind, after-before, b.Stats())
			if got := after - before; got > want {
				t.Errorf("%d %s after the server recovered cost %d requests, want at most %d (about twice a sweep): "+
					"the back-off keeps them going one by one for two TTLs whatever they cost", n, kind, got, want)
			}
		})
	}
}

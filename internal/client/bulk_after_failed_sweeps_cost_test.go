package client_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// After two failed sweeps (page 3 answered 404 twice, a TTL apart), the
// server answers again. The next burst, 6 s after the failure, sweeps as
// any burst does: 100 reads cost about a sweep (3 pages and the probe),
// 60 create checks a sweep read twice after a few searches. A back-off
// counted in time (two TTLs after the second failure) once sent every
// one of them to the server alone (100 GETs, 60 searches). Deterministic
// (standing clock moved by the test, Linger off, PageConcurrency 1).
func TestBurstAfterFailedSweepsCost(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"reads", "lookups"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			env, ids, clock, b := stepReader(t, 250) // 3 pages
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
					"a failure must not keep them going one by one whatever they cost", n, kind, got, want)
			}
		})
	}
}

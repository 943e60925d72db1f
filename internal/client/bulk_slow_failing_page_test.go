package client_test

// A page that keeps failing, when each failure takes as long as the
// default retry policy makes it take.

import (
	"net/http"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestSlowFailingPageKeepsItsBurst: page 2 of 5 fails on every
// request (a row the list cannot render), and each failure takes 8s, as
// the provider's default retries of a 500 take (4 retries from 1s,
// doubling, with jitter: at least 0.5+1+2+4 s), longer than the TTL that
// separates bursts of reads. 100 reads of its websites, one after the
// other (-parallelism=1, or ten at a time, all waiting for the fetch):
// the reader documents that a server that keeps failing "is asked for
// pages at most about log2 of the reads times" (7 here). The failed
// fetch lasts longer than the TTL, but the reads that waited for it were
// not pausing: their burst goes on. Before, the read after it began a new
// burst, which forgot what the failure owed and the count of failures
// that doubles it: the page was requested 20 times. Deterministic (standing clock moved by the failing page only,
// Linger off, PageConcurrency 1, no retries in the client).
func TestSlowFailingPageKeepsItsBurst(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500) // 5 pages, newest first: ids[300:400] on page 2
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
	env.fail(func(page int) int {
		if page == 2 {
			clock.Advance(8 * time.Second) // the retries' waits
			return http.StatusInternalServerError
		}
		return 0
	})
	before, _, _ := env.requests()
	for _, id := range ids[300:400] {
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatalf("read %d: %v", id, err)
		}
	}
	after, list, show := env.requests()
	s := b.Stats()
	t.Logf("100 reads of page 2's websites: %d requests (list %d, show %d); %+v", after-before, list, show, s)
	if s.PageErrors > 14 {
		t.Errorf("a page that keeps failing was requested %d times for 100 reads (each failure costing the "+
			"retries' waits, here %s in all), want about log2(100) = 7: each failed fetch outlasts the TTL, so "+
			"the next read begins a new burst that owes nothing", s.PageErrors, time.Duration(s.PageErrors)*8*time.Second)
	}
}

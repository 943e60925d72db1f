package client_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A lookup's search (FindHolders) of a domain whose search spans
// two pages (an apex domain: the search is a substring match) runs while
// this process's own creates (Write) are in flight (two: the search reads its list a
// second time after a change): the server has stored
// the website, but the create's answer has not come back yet, so b.seq
// has not moved when the search ends with ErrListChanged. The lookup
// retries with writes held only when b.seq moved (bulk_lookup.go), so it
// fails, although the only change to the list was this process's own
// write, which is exactly what the retry is there for ("the creates of the
// same apply"). In the provider a failed held-domain check is not tried
// again: every later create check of the run fails with it.
//
// Deterministic: the hook holds the search's page 2 until the create has
// been stored, and the create's answer is held until the lookup returned
// (in reality: a POST whose answer is slower than the search's pages).
func TestSearchBesideInFlightOwnCreate(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(150) // site-NNNNN.example.com: the search "example.com" has 2 pages
	// The retry's hold waits out WriteWait (the creates' answers are held
	// until the lookup returns), then searches unheld.
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now, WriteWait: 200 * time.Millisecond})

	// Two creates of the apply (the search reads its list twice before
	// it gives up: one create in each attempt).
	stored := make(chan int64)
	lookupDone := make(chan struct{})
	writeDone := make(chan error, 2)
	var (
		mu      sync.Mutex
		created int
	)
	env.hook(func(page int, after bool) {
		if page != 2 || after {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if created == 2 {
			return
		}
		created++
		n := created
		go func() {
			writeDone <- b.Write(ctx(t), 0, func() (*client.Website, error) {
				w := env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("new-%d.example.com", n)})
				stored <- w.ID
				<-lookupDone // the POST's answer is still on its way
				return env.c.GetWebsite(ctx(t), w.ID)
			})
		}()
		<-stored
	})
	const d = "example.com"
	ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
	close(lookupDone)
	for range created {
		if werr := <-writeDone; werr != nil {
			t.Fatalf("Write: %v", werr)
		}
	}
	t.Logf("FindHolders(%q) = %v, %v; %+v", d, ws, err, b.Stats())
	if err != nil {
		t.Errorf("FindHolders(%q) failed beside this process's own create in flight: %v", d, err)
	}
}

package client_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A lookup's search (FindHolders of an apex domain whose search
// answers several pages, read twice: list_sweep.go) does not hold this
// process's own writes, where ListAll and every fetch do ("the list is
// read twice, and must read the same"). Creates of this process that
// land while it reads (an apply creating subdomains, parallelism 10)
// make both of its attempts see a change: FindHolders fails with
// ErrListChanged, and heldDomains then gives up the held-domain checks of
// the whole run. Here each of the search's reads of page 2 lets one
// create of this process through (it waits at most a second for it).
func TestLookupSearchBesideOwnCreates(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	const apex = "shop.example"
	for i := range 250 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("s%03d.%s", i, apex)})
	}
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	var n atomic.Int64
	env.hook(func(page int, after bool) {
		if page != 2 || after {
			return
		}
		k := n.Add(1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = env.create(t, b, fmt.Sprintf("new%d.%s", k, apex))
		}()
		select {
		case <-done:
		case <-time.After(time.Second):
		}
	})
	ws, err := b.FindHolders(ctx(t), apex, func(s string) bool { return s == apex })
	if err != nil {
		t.Errorf("the held check of %s, while this process created two of its subdomains: %v; %+v", apex, err, b.Stats())
	} else if len(ws) != 0 {
		t.Errorf("FindHolders(%s) = %v", apex, ws)
	}
}

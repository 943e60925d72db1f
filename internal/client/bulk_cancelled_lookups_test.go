package client_test

// Lookups cancelled while they wait (for a fetch, or for
// more lookups) leave no trace on the refresh that follows.

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

func TestCancelledLookupsLeaveRefreshAtFloor(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500)
	clock := newFakeClock()
	never := make(chan time.Time)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: clock.Now, After: func(time.Duration) <-chan time.Time { return never }})
	blocked, release, served := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once, onceServed sync.Once
	env.hook(func(page int, after bool) {
		if !after {
			once.Do(func() { close(blocked); <-release })
		} else {
			onceServed.Do(func() { close(served) })
		}
	})
	doms := domainsOf(env, ids[10:14])
	var wg sync.WaitGroup
	cctx, cancel := context.WithCancel(ctx(t))
	errs := make(chan error, 4)
	// A FindHolders gathers (its timers never fire), then a FindByDomain
	// starts the first page's fetch, which blocks; two more wait for it.
	wg.Go(func() {
		_, err := b.FindHolders(cctx, doms[0], func(d string) bool { return d == doms[0] })
		errs <- err
	})
	time.Sleep(20 * time.Millisecond)
	for _, d := range doms[1:] {
		wg.Go(func() {
			_, err := b.FindByDomain(cctx, d)
			errs <- err
		})
	}
	<-blocked
	time.Sleep(50 * time.Millisecond)
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Logf("lookup: %v", err)
		}
	}
	close(release)
	// The server counts the blocked request once it answers it, which
	// may be after the fetch that every lookup gave up has ended.
	<-served
	// Let the blocked fetch end, then a new burst: a refresh alone.
	deadline := time.Now().Add(5 * time.Second)
	for client.WritesHeld(b) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	clock.Advance(time.Minute)
	before, _, _ := env.requests()
	if _, err := b.Read(ctx(t), ids[0]); err != nil {
		t.Fatal(err)
	}
	for id, r := range readAll(t, b, ids[1:], 20) {
		if r.err != nil {
			t.Fatalf("read %d: %v", id, r.err)
		}
	}
	after, list, show := env.requests()
	t.Logf("refresh after cancelled lookups: %d requests (%d list, %d show in all); %+v", after-before, list, show, b.Stats())
	if n := after - before; n > 6 {
		t.Errorf("refresh of 500 after cancelled lookups cost %d requests; its floor is 6", n)
	}
}

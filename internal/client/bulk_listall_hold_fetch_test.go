package client_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A refresh's sweep is under way (its page 2 is slow: a long Retry-After,
// held here by the test). ListAll (the websites data source, with its read
// timeout) waits for the sweep's hold on writes (holdWrites) on
// context.Background: its ctx ending does not end the wait. The 10s guard
// only bounds the failing test.
func TestListAllCancelledWhileFetchRuns(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(300)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	blocked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	env.hook(func(page int, after bool) {
		if page == 2 && !after {
			once.Do(func() { close(blocked) })
			select {
			case <-release:
			case <-time.After(30 * time.Second):
			}
		}
	})
	refreshed := make(chan struct{})
	go func() { defer close(refreshed); readAll(t, b, ids, 20) }() // the refresh: probe, page 1, then pages 2-3
	<-blocked
	c, cancel := context.WithTimeout(ctx(t), 500*time.Millisecond)
	defer cancel()
	after := listAllEnds(t, b, c, context.DeadlineExceeded, "whose ctx ended at 0.5s, for the sweep under way")
	close(release)
	after()
	<-refreshed
}

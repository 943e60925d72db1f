package client_test

// Review rev44ai of 646fa8b: what a fetch whose waiters' deadlines passed
// is charged when it never asked the server.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestFetchHeldByOwnWriteNotChargedAsServerFailure: a write of this
// process is under way (Write's callback held) when read A (100ms left)
// starts the fetch of page 1. The fetch waits for the write (holdWrites,
// up to WriteWait) and A's deadline passes meanwhile: the fetch ends with
// its only waiter, having sent nothing the server could fail. 646fa8b
// charges it as a failed page ("Callers whose deadlines passed waited for
// the server"): they waited for this process's own write. The charge
// (b.reads = -1, one failure, doubling the next) makes the reads that
// follow the write pay again with individual GETs: 3 reads of a
// 6-website user cost 2 requests here, 1 (one list page) at fa70ed3.
// Deterministic: the write is held until A has returned and the fetch has
// ended.
func TestFetchHeldByOwnWriteNotChargedAsServerFailure(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 6)
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			requests.Add(1)
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 1, WriteWait: time.Minute,
		Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe: one GET
		t.Fatal(err)
	}
	hold, writing, wrote := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		wrote <- b.Write(ctx(t), ids[5], func() (*client.Website, error) {
			close(writing)
			<-hold
			return nil, context.Canceled // nothing written: the test's write changes nothing
		})
	}()
	<-writing
	actx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, errA := b.Read(actx, ids[1])
	cancel()
	if errA == nil {
		t.Fatal("premise: read A waits for the fetch held by the write until its deadline")
	}
	for client.Fetching(b) { // the fetch has ended
		time.Sleep(time.Millisecond)
	}
	close(hold)
	if err := <-wrote; err == nil {
		t.Fatal("premise: the test's write fails, writing nothing")
	}
	before := requests.Load()
	for _, id := range ids[2:5] {
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	n := requests.Load() - before
	t.Logf("A: %v; requests for 3 reads after the write: %d; stats %+v", errA, n, b.Stats())
	if n > 1 {
		t.Errorf("3 reads after a fetch that never asked the server (it waited for this process's write until its "+
			"reader's deadline) cost %d requests, want 1 list page: the fetch was charged as a server failure; "+
			"stats %+v", n, b.Stats())
	}
}

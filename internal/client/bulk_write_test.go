package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// This process's own deletes between the first page and the rest of the
// sweep (a destroy: the first reads are answered, their websites deleted,
// while the others wait for the sweep) do not spoil the sweep: it reads
// page 1 again first instead of comparing the old one last, so its pages
// agree and the reads after it are not each an individual GET. Another
// writer's deletes still do (TestBulkReaderSweepAfterOldFirstPage).
func TestBulkReaderOwnWritesKeepTheSweep(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450) // 5 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	readAll(t, b, ids[200:202], 1) // the probe GET, then the first page alone
	deleted := []int64{ids[5], ids[445]}
	for _, id := range deleted {
		if err := b.Write(ctx(t), id, func() (*client.Website, error) { return nil, env.c.DeleteWebsite(ctx(t), id) }); err != nil {
			t.Fatalf("Write(delete %d): %v", id, err)
		}
	}
	var order []int64
	for _, id := range slices.Concat(ids[202:], ids[:200]) {
		if !slices.Contains(deleted, id) {
			order = append(order, id)
		}
	}
	got := readAll(t, b, order, 1) // one at a time: the counts are exact
	checkSameAsGet(t, env.c, got)
	// The probe GET, then three more until the reads pay for the four
	// pages left.
	if s := b.Stats(); s.Changed != 0 || s.Sweeps != 1 || s.Pages != 6 || s.Gets != 4 {
		t.Errorf("stats: %+v; want one sweep that held (page 1, then 5 pages with page 1 again first) and 4 GETs", s)
	}
}

// A fetch of list pages keeps this process's writes waiting while it
// reads, so that none lands between two of its pages.
func TestBulkReaderFetchHoldsWrites(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	var pages, free atomic.Int32
	hook := func(page int, after bool) {
		if after {
			return
		}
		pages.Add(1)
		if !client.WritesHeld(b) {
			free.Add(1)
		}
	}
	env.listHook.Store(&hook)
	readAll(t, b, ids, 10)
	if pages.Load() == 0 || free.Load() != 0 {
		t.Errorf("%d of %d list pages were read while a write could run; want none", free.Load(), pages.Load())
	}
	if client.WritesHeld(b) {
		t.Error("writes still held after the reads")
	}
}

// A fetch of list pages runs detached from every caller's
// deadline (context.WithoutCancel), and a 503's Retry-After is honoured
// whatever its length. A list page that the server (or a proxy in front
// of it) answers with 503 and Retry-After: 3600 keeps the fetch sleeping
// for an hour: a write waits for it only WriteWait, then is sent (the
// server answers the delete at once); it failed with "context deadline
// exceeded" at its own time limit.
func TestBulkReaderWriteSentPastStuckFetch(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages
	entered := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && r.URL.Query().Get("page") != "" {
			select {
			case entered <- struct{}{}:
			default:
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
			return
		}
		env.emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newRetryClient(t, srv.URL, emulator.DefaultAPIKey, fastRetry(2), nil)
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, WriteWait: 100 * time.Millisecond})
	for _, id := range ids[:3] {
		go func() {
			// The probe GET, then the first page: a fetch.
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _ = b.Read(rctx, id)
		}()
	}
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("no fetch of list pages began")
	}
	wctx, cancel := context.WithTimeout(ctx(t), time.Minute)
	defer cancel()
	err := b.Write(wctx, ids[100], func() (*client.Website, error) { return nil, c.DeleteWebsite(wctx, ids[100]) })
	if err != nil {
		t.Errorf("a delete while a list page waits out a Retry-After of an hour: %v; want it sent (the server answers it at once)", err)
	}
}

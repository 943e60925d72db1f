package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// seededEmulator returns an emulator holding n websites of the default
// key, and their ids, oldest first.
func seededEmulator(t *testing.T, n int) (*emulator.Emulator, []int64) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, n)
	for i := range n {
		ids[i] = emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("w%02d.example.com", i)}).ID
	}
	return emu, ids
}

// TestSharedFetchEndsWhenItsWaitersGiveUp: two reads without deadline
// (an interrupted run's) wait for a fetch of page 1 that the server holds;
// both are cancelled, as Ctrl-C cancels every operation. The fetch has no
// one left to wait for it: its request is cancelled (the server sees the
// client go) instead of running on in the background, as a fetch that its
// starter's cancellation did not stop did before.
func TestSharedFetchEndsWhenItsWaitersGiveUp(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 3)
	listed, gone := make(chan struct{}), make(chan struct{})
	var lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/websites" && lists.Add(1) == 1 {
			close(listed)
			select {
			case <-r.Context().Done():
				close(gone)
			case <-time.After(time.Minute):
			}
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(0), Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe: one GET
		t.Fatal(err)
	}
	rctx, interrupt := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	for _, id := range ids[1:] {
		go func() {
			_, err := b.Read(rctx, id)
			errs <- err
		}()
	}
	<-listed
	for b.Stats().Reads < 3 {
		time.Sleep(time.Millisecond)
	}
	interrupt()
	for range 2 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("an interrupted read: %v, want context.Canceled", err)
		}
	}
	select {
	case <-gone:
	case <-time.After(30 * time.Second):
		t.Fatalf("the fetch every waiter gave up on still waits for the server 30s after the interrupt; %+v", b.Stats())
	}
}

// TestWaitersKeepAShortDeadlineFetch (review rev44af): read A, with 1.5s
// left, starts the fetch of page 1 that 20 reads with minutes left wait
// for; the server answers that page 429, Retry-After: 2 (a rate limit
// window), then answers again. A fails at once, as alone. The fetch is
// the 20 reads' too: it waits the 2s, and its page answers them all. When
// it carried A's deadline, it failed with A, and the 20 reads fell back to
// 20 individual GETs to a server that had just said it was throttling.
// The outcome does not depend on timing beyond A's 1.5s (the reads join
// the fetch before the server answers it: it holds the page until they
// have).
func TestWaitersKeepAShortDeadlineFetch(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 22)
	var (
		lists, shows atomic.Int32
		b            *client.BulkReader
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && lists.Add(1) == 1 {
			for b.Stats().Reads < 22 { // the 20 reads wait for this fetch
				time.Sleep(time.Millisecond)
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
			return
		}
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
			shows.Add(1)
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b = client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe: one GET
		t.Fatal(err)
	}
	actx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	aErr := make(chan error, 1)
	go func() {
		_, err := b.Read(actx, ids[1])
		aErr <- err
	}()
	for lists.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	errs := make(chan error, 20)
	for _, id := range ids[2:] {
		go func() {
			_, err := b.Read(ctx(t), id)
			errs <- err
		}()
	}
	for range 20 {
		if err := <-errs; err != nil {
			t.Errorf("a read with minutes left: %v", err)
		}
	}
	if err := <-aErr; err == nil {
		t.Errorf("premise: read A (1.5s) failed at once on the server's 2s wait, got a website")
	}
	got := shows.Load() - 1 // the probe's
	t.Logf("GETs for the 20 reads that waited: %d, list requests %d; %+v", got, lists.Load(), b.Stats())
	if got > 2 {
		t.Errorf("the 20 reads with minutes left cost %d individual GETs after the fetch they waited for failed at "+
			"the deadline of the read that started it (the server asked for 2s; one page holds all of them)", got)
	}
}

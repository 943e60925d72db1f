package client_test

// Waits of shared requests: each attempt keeps its own time limit.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestSharedGetAttemptKeepsItsTimeLimit: read A, with 1s left,
// starts a GET that read B (a minute left) joins; the server never answers.
// The attempt's context is context.WithTimeout(shared, Options.Timeout =
// 3s): the shared context's deadline (A's, 1s) was earlier then, so
// WithTimeout set no timer of its own and relies on the parent's Done at
// that deadline. But shared's Done closes only when the last waiter gives
// up: A leaves at 1s, B still waits, and the attempt runs without the
// time limit of one request until B's deadline (for an untimed data
// source: forever). Alone, B's attempts end at 3s each: 2 attempts, about
// 6s. (A false pass is possible on a machine so slow that B joins after
// A's 1s; never a false failure.)
func TestSharedGetAttemptKeepsItsTimeLimit(t *testing.T) {
	t.Parallel()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "hung-shared.example.com"}).ID
	var (
		gets     atomic.Int32
		received = make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
			if gets.Add(1) == 1 {
				close(received)
			}
			<-r.Context().Done() // never answers
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
	actx, cancelA := context.WithTimeout(context.Background(), time.Second)
	defer cancelA()
	bctx, cancelB := context.WithTimeout(context.Background(), time.Minute)
	defer cancelB()
	aErr, bErr := make(chan error, 1), make(chan error, 1)
	go func() {
		_, err := b.Read(actx, id)
		aErr <- err
	}()
	<-received
	go func() {
		_, err := b.Read(bctx, id)
		bErr <- err
	}()
	start := time.Now()
	if err := <-aErr; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read A: %v, want its deadline", err)
	}
	select {
	case err := <-bErr:
		t.Logf("read B after %s: %v (%d GETs)", time.Since(start).Round(time.Millisecond), err, gets.Load())
	case <-time.After(25 * time.Second):
		t.Errorf("read B still waits %s after joining a GET to a server that never answers; each attempt is "+
			"bounded by 3s (Options.Timeout) and there are 2: the attempt lost its time limit; stats %+v",
			time.Since(start).Round(time.Second), b.Stats())
		cancelB()
		if err := <-bErr; err != nil {
			t.Logf("the cancelled read: %v", err)
		}
	}
}

// TestHungListPageOwedAfterItsReadersGaveUp: a refresh whose reads
// have timeouts { read = "1s" } (each read its own deadline), of a server
// whose list page does not answer (a slow list of many websites, a proxy
// that holds it) while GET /websites/{id} answers at once. The first read
// is the probe (a GET). The second starts the fetch of page 1 and gives up
// at its deadline: the fetch ended because its every waiter gave up, and
// fa70ed3 charges no debt for it. So every later read starts the same
// fetch again and fails at its deadline too: a refresh where one GET each
// would have served every website fails them all. 213f587 charged the
// failed fetch (its starter's deadline ended it): the next reads were
// individual GETs and succeeded. (No timing beyond the reads' 1s.)
func TestHungListPageOwedAfterItsReadersGaveUp(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 6)
	var lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			lists.Add(1)
			<-r.Context().Done() // never answers
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	var failed []int
	for i, id := range ids {
		rctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := b.Read(rctx, id)
		cancel()
		if err != nil {
			failed = append(failed, i)
		}
	}
	t.Logf("failed reads %v, list requests %d, stats %+v", failed, lists.Load(), b.Stats())
	if len(failed) > 2 {
		t.Errorf("%d of %d reads with 1s each failed (reads %v) while each GET answers at once: every read after "+
			"the probe waited for a new fetch of the hung list page, its predecessor's costing nothing; stats %+v",
			len(failed), len(ids), failed, b.Stats())
	}
}

// TestSharedFetchAttemptKeepsItsTimeLimit: the list-sweep form of
// TestSharedGetAttemptKeepsItsTimeLimit, as in a refresh. Read A
// (1s left) starts the fetch of page 1, read B (a minute left) joins it,
// and the server never answers the list. The attempt, made while A's 1s
// was the shared deadline, has no time limit of its own: when A gives up,
// B waits for it until B's own deadline, and fails. With the attempt
// bounded (Options.Timeout = 3s, 2 attempts) the fetch fails in about 6s
// and B reads its website with one GET, which the server answers. (A false
// pass is possible on a machine so slow that B joins after A's 1s; never
// a false failure.)
func TestSharedFetchAttemptKeepsItsTimeLimit(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 3)
	received := make(chan struct{})
	var lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			if lists.Add(1) == 1 {
				close(received)
			}
			<-r.Context().Done() // never answers
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe: one GET
		t.Fatal(err)
	}
	actx, cancelA := context.WithTimeout(context.Background(), time.Second)
	defer cancelA()
	bctx, cancelB := context.WithTimeout(context.Background(), time.Minute)
	defer cancelB()
	aErr, bErr := make(chan error, 1), make(chan error, 1)
	go func() {
		_, err := b.Read(actx, ids[1])
		aErr <- err
	}()
	<-received
	go func() {
		_, err := b.Read(bctx, ids[2])
		bErr <- err
	}()
	start := time.Now()
	if err := <-aErr; err != nil {
		t.Logf("the cancelled read: %v", err)
	}
	select {
	case err := <-bErr:
		if err != nil {
			t.Errorf("read B, with a minute left, failed after %s: %v; stats %+v", time.Since(start).Round(time.Second),
				err, b.Stats())
		}
	case <-time.After(25 * time.Second):
		t.Errorf("read B still waits %s for a fetch whose attempts are bounded by 3s (2 of them): the attempt "+
			"lost its time limit with A's deadline; stats %+v", time.Since(start).Round(time.Second), b.Stats())
		cancelB()
		if err := <-bErr; err != nil {
			t.Logf("the cancelled read: %v", err)
		}
	}
}

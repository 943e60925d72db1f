package client_test

// A failed GET is not asked again (review rev44ag of the shared requests).

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

// TestJoinedGetDeadlineErrorNotAskedAgain: reads A and B of the
// same website (a refresh and an analytics_website data source by id, both
// bounded by 5 minutes) share one GET. The server is in maintenance mode
// (php artisan down --retry=3600): 503 with Retry-After: 3600. The shared
// GET's deadline is the latest of A's and B's, so the client fails it at
// once with a *DeadlineError (it matches context.DeadlineExceeded). Read
// then takes that for "the GET ended when its waiters gave up" and A and
// B, each with as much time as the shared GET had, ask on their own:
// three requests instead of one, each answered 503 again, and the same
// error. 213f587 sent one request. (No timing: B joins before the server
// answers; the server holds the first GET until then.)
func TestJoinedGetDeadlineErrorNotAskedAgain(t *testing.T) {
	t.Parallel()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "down.example.com"}).ID
	var (
		gets     atomic.Int32
		received = make(chan struct{})
		joined   = make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
			if gets.Add(1) == 1 {
				close(received)
				<-joined
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message": "Service Unavailable"}`))
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	errs := make(chan error, 2)
	go func() {
		_, err := b.Read(rctx, id)
		errs <- err
	}()
	<-received
	go func() {
		_, err := b.Read(rctx, id)
		errs <- err
	}()
	for b.Stats().Reads < 2 {
		time.Sleep(time.Millisecond)
	}
	close(joined)
	for range 2 {
		err := <-errs
		var de *client.DeadlineError
		if !errors.As(err, &de) {
			t.Errorf("a read: %v, want the *DeadlineError of the server's hour", err)
		}
	}
	if n := gets.Load(); n != 1 {
		t.Errorf("two reads that shared one GET, answered 503 Retry-After: 3600 (a wait past the deadline of "+
			"both), sent %d GET requests, want 1: each asked again on its own after the shared GET's "+
			"*DeadlineError, though neither had more time than the shared GET; stats %+v", n, b.Stats())
	}
}

// TestJoinedGetAttemptTimeoutsNotRepeated: the same with a server
// that does not answer: every attempt of the shared GET ends at the
// client's time limit of one request (Options.Timeout), and after its
// retries the GET fails with "no complete answer within ...: context
// deadline exceeded", which matches context.DeadlineExceeded though no
// reader's deadline ended. Read takes it for a GET its waiters gave up,
// and each of the two reads starts all the attempts again on its own: 6
// requests and three times the wait (each of the provider's default 5
// attempts waits 30s: 2.5 minutes become 5) instead of 2 requests.
// 213f587 sent 2. Deterministic (the server holds each GET until the
// client gives it up; B joins before the first attempt ends).
func TestJoinedGetAttemptTimeoutsNotRepeated(t *testing.T) {
	t.Parallel()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "hung.example.com"}).ID
	var (
		gets     atomic.Int32
		received = make(chan struct{})
		joined   = make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
			if gets.Add(1) == 1 {
				close(received)
				<-joined
			}
			<-r.Context().Done() // never answers
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	errs := make(chan error, 2)
	go func() {
		_, err := b.Read(rctx, id)
		errs <- err
	}()
	<-received
	go func() {
		_, err := b.Read(rctx, id)
		errs <- err
	}()
	for b.Stats().Reads < 2 {
		time.Sleep(time.Millisecond)
	}
	close(joined)
	for range 2 {
		if err := <-errs; err == nil {
			t.Error("a read of a server that never answers succeeded")
		}
	}
	if n := gets.Load(); n != 2 {
		t.Errorf("two reads that shared one GET (2 attempts, each cut at the 300ms time limit of one request) "+
			"sent %d GET requests, want 2: each read started the attempts again on its own; stats %+v", n, b.Stats())
	}
}

// TestLoneGetNotRepeated: one read alone (a refresh of one website
// read individually: the reader's probe) of a server that does not answer
// (every attempt cut at the time limit of one request) or that is in
// maintenance mode (503, Retry-After: 3600, past the read's deadline). The
// read's own GET fails with an error that matches context.DeadlineExceeded
// while the read's context is alive, and Read asks again on its own: every
// individual read pays twice, in requests and (for the hung server) in time
// (the provider's default 5 attempts of 30s: 2.5 minutes become 5, past
// the default 5-minute timeouts.read). 213f587 sent 2 and 1 requests.
func TestLoneGetNotRepeated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want int32
	}{{"hung", 2}, {"maintenance", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu, err := emulator.New(emulator.Options{})
			if err != nil {
				t.Fatal(err)
			}
			id := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "lone.example.com"}).ID
			var gets atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
					gets.Add(1)
					if tc.name == "hung" {
						<-r.Context().Done()
						return
					}
					w.Header().Set("Content-Type", "application/json")
					w.Header().Set("Retry-After", "3600")
					w.WriteHeader(http.StatusServiceUnavailable)
					_, _ = w.Write([]byte(`{"message": "Service Unavailable"}`))
					return
				}
				emu.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			if _, err := b.Read(rctx, id); err == nil {
				t.Fatal("premise: the read fails")
			}
			if n := gets.Load(); n != tc.want {
				t.Errorf("one read alone sent %d GET requests, want %d: it asked again after its own GET failed; "+
					"stats %+v", n, tc.want, b.Stats())
			}
		})
	}
}

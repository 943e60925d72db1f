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

// TestFailedGetNotAskedAgain: reads of one website whose GET fails at a
// deadline-like error are not sent again (review rev44ag). The server
// does not answer (every attempt cut at the client's time limit of one
// request: "no complete answer within ...: context deadline exceeded",
// though no read's deadline ended), or is in maintenance mode (503,
// Retry-After: 3600, a wait past every read's deadline: a
// *DeadlineError). One read alone (the reader's probe), or two that share
// one GET (a refresh and a data source by id), each with minutes left:
// Read took such an error for a GET that its waiters gave up and asked
// again on its own, every read paying twice in requests and, for the
// hung server, in time (the provider's default 5 attempts of 30s: 2.5
// minutes became 5, past the default timeouts.read). Deterministic: the
// server holds the first GET until the second read has joined it.
func TestFailedGetNotAskedAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		hung  bool
		reads int
		want  int32 // GET requests: 2 attempts when hung, 1 answer in maintenance
	}{
		{"hung/alone", true, 1, 2}, {"hung/joined", true, 2, 2},
		{"maintenance/alone", false, 1, 1}, {"maintenance/joined", false, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu, ids := seededEmulator(t, 1)
			var (
				gets     atomic.Int32
				received = make(chan struct{})
				joined   = make(chan struct{})
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
					emu.ServeHTTP(w, r)
					return
				}
				if gets.Add(1) == 1 {
					close(received)
					<-joined
				}
				if tc.hung {
					<-r.Context().Done() // never answers
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Retry-After", "3600")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"message": "Service Unavailable"}`))
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(1), Timeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			errs := make(chan error, tc.reads)
			for range tc.reads {
				go func() {
					_, err := b.Read(rctx, ids[0])
					errs <- err
				}()
				if tc.reads > 1 {
					<-received // the second read joins the first one's GET
				}
			}
			for b.Stats().Reads < tc.reads {
				time.Sleep(time.Millisecond)
			}
			close(joined)
			for range tc.reads {
				err := <-errs
				var de *client.DeadlineError
				if err == nil || !tc.hung && !errors.As(err, &de) {
					t.Errorf("a read: %v, want the server's failure", err)
				}
			}
			if n := gets.Load(); n != tc.want {
				t.Errorf("%d read(s) sent %d GET requests, want %d: a read asked again on its own after the GET "+
					"failed; stats %+v", tc.reads, n, tc.want, b.Stats())
			}
		})
	}
}

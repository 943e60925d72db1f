package client_test

// A read that joins a GET started by a read with a shorter deadline (the
// reader's shared requests keep their starter's deadline).

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

// TestJoinedGetOutlivesStartersDeadline: read A (deadline 2s)
// starts the individual GET of website 1; read B of the same website,
// with a five-minute deadline (as a data source, a plan-time check or an
// import, which have none), joins
// it. The server is slow: it answers that GET once A's deadline has
// passed (or after 4s at most). A fails at its deadline, as it would
// alone. B has minutes left: alone it would get the website; the reader
// documents "Errors are those of GetWebsite". The shared GET carries A's
// deadline: B, with time left, then asks on its own. Before, B failed
// with A's "context deadline exceeded".
//
// The outcome does not depend on timing except that B must join the GET
// within A's 2s (microseconds normally); if it did not, B starts a GET of
// its own and the test passes (it can miss the defect, never invent it).
func TestJoinedGetOutlivesStartersDeadline(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 1)
	id := ids[0]
	var (
		shows    atomic.Int32
		received = make(chan struct{})
		aDone    = make(chan struct{})
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") && shows.Add(1) == 1 {
			close(received)
			<-aDone // A's deadline has passed
			select {
			case <-r.Context().Done(): // the client gave up on the request
				return
			case <-time.After(4 * time.Second): // slow, but it answers
			}
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(0), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})

	actx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	aErr := make(chan error, 1)
	go func() {
		_, err := b.Read(actx, id)
		aErr <- err
	}()
	<-received
	bRes := make(chan error, 1)
	var got *client.Website
	go func() {
		w, err := b.Read(ctx(t), id)
		got = w
		bRes <- err
	}()
	for b.Stats().Reads < 2 { // B has joined A's GET (same lock hold)
		time.Sleep(time.Millisecond)
	}
	if s := b.Stats(); s.Gets != 1 {
		t.Fatalf("premise: B joined A's GET; %+v", s)
	}
	<-actx.Done()
	close(aDone)
	if err := <-aErr; err == nil {
		t.Fatalf("premise: A (2s) failed at its deadline, got a website")
	}
	err = <-bRes
	if err != nil {
		var de *client.DeadlineError
		t.Fatalf("read B, with minutes left, failed with the deadline of read A that started the GET it "+
			"joined: %v (DeadlineError: %v, context.DeadlineExceeded: %v); stats %+v",
			err, errors.As(err, &de), errors.Is(err, context.DeadlineExceeded), b.Stats())
	}
	if got == nil || got.ID != id {
		t.Fatalf("read B got %+v", got)
	}
}

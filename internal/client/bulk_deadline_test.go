package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestBulkReadsKeepTheirDeadline: the reader's fetches and GETs run
// apart from the read that started them (others wait for them too), but
// not past its deadline: a server that asks for an hour's wait (429,
// Retry-After: 3600) fails every read of a refresh at once, saying so,
// as it fails a read made without the reader. Before, the detached
// request waited out the hour and each read its own deadline (a refresh
// of 40 websites, 10 at a time, took four read timeouts). The outcome
// does not depend on timing: the reads fail at once or after an hour;
// the watchdog only ends the test.
func TestBulkReadsKeepTheirDeadline(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
	}))
	t.Cleanup(srv.Close)
	c := newRetryClient(t, srv.URL, "key", fastRetry(4), nil)
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	cx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	errs := make(chan error, 20)
	var wg sync.WaitGroup
	for id := range int64(20) {
		wg.Go(func() {
			_, err := b.Read(cx, id+1)
			errs <- err
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("reads still waiting after a minute for a server that asked for an hour's wait, with 10 minutes left")
	}
	close(errs)
	for err := range errs {
		var de *client.DeadlineError
		if !errors.As(err, &de) {
			t.Errorf("err = %v, want a *DeadlineError (the server's wait is past the deadline)", err)
		}
	}
	t.Logf("%+v", b.Stats())
}

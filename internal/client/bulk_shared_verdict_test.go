package client_test

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

// throttledGets serves the emulator, except GET /websites/{id}: the first
// is held until release is closed, and each is answered 429 with
// Retry-After: retryAfter seconds.
func throttledGets(t *testing.T, retryAfter string) (srvURL string, id int64, received, release chan struct{}) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id = emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "shared-wait.example.com"}).ID
	received, release = make(chan struct{}), make(chan struct{})
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
			if gets.Add(1) == 1 {
				close(received)
				<-release
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, id, received, release
}

// deadlineCtx is a context with a deadline d from now, or none for 0.
func deadlineCtx(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if d > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), d)
	}
	t.Cleanup(cancel)
	return ctx
}

// verdict is what one of two reads sharing a GET must get when the server
// throttles it: a wait (the read is still waiting once the GET settled),
// or its own *DeadlineError at once, for a deadline (timed) or for
// UntimedWaitLimit (untimed).
type verdict int

const (
	waits verdict = iota
	timed
	untimed
)

// TestSharedGetJudgesEachWaiter: a refresh (timeouts.read) and a data
// source (no deadline) that share one GET, as they do in one plan, each
// get what they would alone when the server answers 429: a read that can
// wait for the Retry-After waits, whoever else waits with it; one that
// cannot is told at once, with its own time left and in its own words
// (an operation without a time limit is not told of a deadline, nor one
// with a deadline of the untimed cap). No timing decides: the server holds
// the GET until both reads share it, and SharedGet sees the wait settled.
func TestSharedGetJudgesEachWaiter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		retryAfter string
		a, b       time.Duration // deadlines (0: none); A starts the GET, B joins it
		wantA      verdict
		wantB      verdict
	}{
		{"refresh of 5m, data source; an hour", "3600", 5 * time.Minute, 0, timed, untimed},
		{"refresh of 1h, data source; 30 minutes", "1800", time.Hour, 0, waits, untimed},
		{"data source, refresh of 1h; 10 minutes", "600", 0, time.Hour, untimed, waits},
		{"refresh of 1h, data source; three hours", "10800", time.Hour, 0, timed, untimed},
		{"refreshes of 1m and 2h; three hours", "10800", time.Minute, 2 * time.Hour, timed, timed},
		{"refresh of 1h, data source; a minute", "60", time.Hour, 0, waits, waits},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url, id, received, release := throttledGets(t, tc.retryAfter)
			c, err := client.New(url, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
			actx, bctx := deadlineCtx(t, tc.a), deadlineCtx(t, tc.b)
			errs := [2]chan error{make(chan error, 1), make(chan error, 1)}
			read := func(ctx context.Context, i int) {
				_, err := b.Read(ctx, id)
				errs[i] <- err
			}
			go read(actx, 0)
			<-received
			go read(bctx, 1)
			for b.Stats().Reads < 2 { // B counted and joined under one hold of the reader's lock
				time.Sleep(time.Millisecond)
			}
			close(release)
			waiting := 0
			for i, want := range []verdict{tc.wantA, tc.wantB} {
				if want == waits {
					waiting++
					continue
				}
				err := <-errs[i]
				var de *client.DeadlineError
				if !errors.As(err, &de) {
					t.Fatalf("read %c: want a *DeadlineError, got %v", 'A'+i, err)
				}
				limit := []time.Duration{tc.a, tc.b}[i]
				switch {
				case de.Untimed != (want == untimed):
					t.Errorf("read %c (deadline %s): Untimed = %v: %v", 'A'+i, limit, de.Untimed, err)
				case want == timed && (de.Left > limit || de.Left < limit-time.Minute):
					t.Errorf("read %c (deadline %s) is told %s left: %v", 'A'+i, limit, de.Left, err)
				case !strings.Contains(err.Error(), "/websites/"):
					t.Errorf("read %c: the error does not name the request: %v", 'A'+i, err)
				}
			}
			for {
				n, settled := client.SharedGet(b, id)
				if settled {
					if n != waiting {
						t.Errorf("%d read(s) wait for the Retry-After, want %d", n, waiting)
					}
					break
				}
				time.Sleep(time.Millisecond)
			}
		})
	}
}

// TestSharedGetTellsLateJoiner: a data source (no deadline) that comes
// while a refresh's shared GET waits out a Retry-After longer than
// UntimedWaitLimit is told at once, and the refresh waits on.
func TestSharedGetTellsLateJoiner(t *testing.T) {
	t.Parallel()
	url, id, received, release := throttledGets(t, "1800")
	c, err := client.New(url, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
	aErr := make(chan error, 1)
	go func() {
		_, err := b.Read(deadlineCtx(t, time.Hour), id)
		aErr <- err
	}()
	<-received
	close(release)
	for {
		if _, settled := client.SharedGet(b, id); settled {
			break
		}
		time.Sleep(time.Millisecond)
	}
	_, err = b.Read(deadlineCtx(t, 0), id)
	var de *client.DeadlineError
	if !errors.As(err, &de) || !de.Untimed || de.Wait > 30*time.Minute+2*time.Second {
		t.Fatalf("the data source that joins a 30-minute wait: want its untimed *DeadlineError, got %v", err)
	}
	if n, _ := client.SharedGet(b, id); n != 1 {
		t.Errorf("%d read(s) wait for the Retry-After, want the refresh's", n)
	}
	select {
	case err := <-aErr:
		t.Errorf("the refresh ended: %v", err)
	default:
	}
}

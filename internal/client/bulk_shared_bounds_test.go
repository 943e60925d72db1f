package client_test

// Review rev44ak of ec7a9bc: each waiter of a shared request judged by its
// own bound.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// sweepOf3 is a reader of a user with 300 websites (3 list pages, newest
// first: ids[200:] on page 1, ids[100:200] on page 2, ids[:100] on page
// 3), with page 1 read and enough reads counted that the next read of a
// page-2 website sweeps pages 2 and 3 at once. serve answers list pages
// 2 and 3 (false: the emulator answers).
func sweepOf3(t *testing.T, retry *client.RetryOptions, serve func(w http.ResponseWriter, page int) bool) (*client.BulkReader, []int64) {
	t.Helper()
	emu, ids := seededEmulator(t, 300)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && serve(w, p) {
				return
			}
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: retry, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 1, Clock: newFakeClock().Now})
	for _, id := range []int64{ids[0], ids[250], ids[260]} { // a probe GET, page 1, a hit
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.Pages != 1 || s.Gets != 1 {
		t.Fatalf("premise: a probe GET and page 1; stats %+v", s)
	}
	return b, ids
}

func answerWithRetryAfter(w http.ResponseWriter, status int, retryAfter string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", retryAfter)
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
}

// TestSweepJoinerToldOfLongWaitOfOtherPage: a sweep reads pages 2 and 3
// at once for refresh A (timeouts.read = 2h). Page 2 is answered 503,
// Retry-After: 3600 (maintenance): A can wait, so the sweep waits an
// hour for it. Page 3 is answered 503, Retry-After: 1 after that, and
// then served. Read B (5s left) then comes for a page-2 website: the
// sweep it joins will not end for an hour, so B must be told at once with
// its *DeadlineError, as a caller that joins during a long wait is
// (behaviour.md: "one that cannot wait so long fails at once"). ec7a9bc keeps one wait per shared request, the
// latest recorded (pending): page 3's second, already over, hides page
// 2's hour. B is judged against a wait that is over, joins, and waits its
// whole 5s for a sweep that cannot end in time, to fail with a bare
// "context deadline exceeded" (no DeadlineError: no advice about the
// server's wait). A data source (no deadline) in B's place waits the hour
// for page 2, far past UntimedWaitLimit (the test cancels it after 10s).
// The same holds whenever a sweep's pages wait differently (a 503 on one,
// a network error's backoff or requests_per_minute on another).
// Deterministic: page 3 is held until page 2's wait is recorded, and B
// comes once page 3's has been.
func TestSweepJoinerToldOfLongWaitOfOtherPage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		b    time.Duration // B's deadline; 0: none (a data source)
	}{{"refresh of 5s", 5 * time.Second}, {"data source", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			var page3 atomic.Int32
			b, ids := sweepOf3(t, fastRetry(4), func(w http.ResponseWriter, page int) bool {
				switch {
				case page == 2:
					answerWithRetryAfter(w, http.StatusServiceUnavailable, "3600")
					return true
				case page == 3 && page3.Add(1) == 1:
					<-release
					answerWithRetryAfter(w, http.StatusServiceUnavailable, "1")
					return true
				}
				return false
			})
			actx := deadlineCtx(t, 2*time.Hour)
			aErr := make(chan error, 1)
			go func() {
				_, err := b.Read(actx, ids[150])
				aErr <- err
			}()
			waitForState(t, "page 2's wait of an hour recorded", func() bool {
				_, until, ok := client.FetchWait(b)
				return ok && time.Until(until) > 30*time.Minute
			})
			close(release)
			waitForState(t, "page 3 asked again after its wait of a second", func() bool {
				return page3.Load() >= 2
			})
			start := time.Now()
			bctx, cancel := context.WithCancel(deadlineCtx(t, tc.b))
			defer cancel()
			bErr := make(chan error, 1)
			go func() {
				_, err := b.Read(bctx, ids[120])
				bErr <- err
			}()
			var err error
			select {
			case err = <-bErr:
			case <-time.After(10 * time.Second): // far past the refusal's moment
				cancel()
				err = fmt.Errorf("still waiting after 10s (then cancelled: %w)", <-bErr)
			}
			took := time.Since(start)
			var de *client.DeadlineError
			if !errors.As(err, &de) || de.Untimed != (tc.b == 0) || took > 2*time.Second {
				t.Errorf("read B (%s) that joins a sweep waiting an hour for page 2: want its own "+
					"*DeadlineError at once, got after %s: %v", tc.name, took.Round(time.Millisecond), err)
			}
			select {
			case err := <-aErr:
				t.Errorf("refresh A (2h left) ended: %v", err)
			default:
			}
		})
	}
}

// waitFor polls cond (a state the code under test reaches by itself, not
// a time).
func waitForState(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("premise not reached: %s", what)
		}
	}
}

var _ = context.Background

// TestFetchRefusedByRequestsPerMinuteNotCharged: requests_per_minute = 6
// (a request every 10s) and the reader's probe GET just sent: the fetch
// of page 1 that read A (1s left) starts cannot be sent before A's
// deadline, and the provider's own limiter refuses it at once (A gets its
// *DeadlineError, Limiter set). Nothing was asked of the server, yet the
// fetch is charged as a failed page (failedLocked: the reads counted are
// lost, one failure that doubles the next charge), because the page was
// counted (stats.Pages) before the limiter refused it: the reads after it
// pay again with individual GETs. bulk_fetch.go says a fetch that "gave
// up before it asked the server anything" is not charged. Deterministic:
// the limiter's wait (10s) is far past A's second.
func TestFetchRefusedByRequestsPerMinuteNotCharged(t *testing.T) {
	t.Parallel()
	emu, ids := seededEmulator(t, 6)
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Timeout: time.Minute,
		Retry: &client.RetryOptions{MaxRetries: 4, WaitMin: 5 * time.Millisecond, WaitMax: 20 * time.Millisecond,
			RequestsPerMinute: 6}})
	if err != nil {
		t.Fatal(err)
	}
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 1, Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe: one GET
		t.Fatal(err)
	}
	before := sent.Load()
	_, errA := b.Read(deadlineCtx(t, time.Second), ids[1])
	var de *client.DeadlineError
	if !errors.As(errA, &de) || !de.Limiter {
		t.Fatalf("premise: read A is refused by requests_per_minute, got %v", errA)
	}
	waitForState(t, "the fetch ended", func() bool { return !client.Fetching(b) })
	reads, failures := client.FetchCharge(b)
	t.Logf("A: %v; requests sent for it: %d; reads counted %d, failures %d; stats %+v", errA,
		sent.Load()-before, reads, failures, b.Stats())
	if sent.Load() != before {
		t.Fatalf("premise: nothing sent for A")
	}
	if failures != 0 || reads < 0 {
		t.Errorf("a fetch that requests_per_minute refused before anything was sent is charged as a server "+
			"failure: reads counted %d, failures %d", reads, failures)
	}
}

// TestSharedGetVerdictHidesEchoedKey: the server (a proxy in maintenance)
// answers 503, Retry-After: 3600, with a message that echoes the API key.
// A read through the reader (a refresh, 5 minutes left) cannot wait the
// hour and is told at once. The client's own errors pass through
// redactErr, which hides the key (GetWebsite alone); the error a waiter of
// a shared request is told (pendingWait.told) does not: it quotes the
// last attempt's answer, key and all. Deterministic.
func TestSharedGetVerdictHidesEchoedKey(t *testing.T) {
	t.Parallel()
	const key = "Rev44akSecretKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"message":"maintenance; token ` + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + `"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, key, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	_, alone := c.GetWebsite(deadlineCtx(t, 5*time.Minute), 7)
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
	_, shared := b.Read(deadlineCtx(t, 5*time.Minute), 7)
	for _, e := range []struct {
		name string
		err  error
	}{{"GetWebsite alone", alone}, {"a read of the reader", shared}} {
		if e.err == nil {
			t.Fatalf("premise: %s fails", e.name)
		}
		t.Logf("%s: %v", e.name, e.err)
		if strings.Contains(e.err.Error(), key[10:40]) {
			t.Errorf("%s: the error prints the API key: %v", e.name, e.err)
		}
	}
}

// TestUntimedRetryAfterJustPastFiveMinutesFails: UntimedWaitLimit (5
// minutes) says a server that asks for longer fails an operation without
// a deadline at once, and the guide says such an operation "waits at most
// 5 minutes at once". untimedLimit leaves 2s for the retry's jitter, but
// compares the wait with its jitter, not what the server asked: a 429
// with Retry-After: 301 (5m1s) is waited (301s plus a jitter under 1s is
// before the 302s limit), and the rate limit window, which adds no jitter,
// is waited up to 5m2s: the second GET, held by the window that the first
// one's 429 opened, waits it. Deterministic: a refusal is immediate, so a
// call still waiting after 3s waits (then it is cancelled); the jitter
// would have to be exactly WaitMin for the first case to refuse.
func TestUntimedRetryAfterJustPastFiveMinutesFails(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "301")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name    string
		retries int
	}{{"the retry's wait", 4}, {"the window's wait", 0}} {
		c := newRetryClient(t, srv.URL, "k", &client.RetryOptions{MaxRetries: tc.retries, WaitMin: time.Second,
			WaitMax: 30 * time.Second}, nil)
		if tc.retries == 0 {
			_, _ = c.GetWebsite(ctx(t), 7) // answered 429: the window of 301s begins
		}
		rctx, cancel := context.WithCancel(context.Background()) // no deadline
		errc := make(chan error, 1)
		go func() {
			_, err := c.GetWebsite(rctx, 7)
			errc <- err
		}()
		select {
		case err := <-errc:
			var de *client.DeadlineError
			if !errors.As(err, &de) || !de.Untimed {
				t.Errorf("%s: want the untimed *DeadlineError, got %v", tc.name, err)
			}
		case <-time.After(3 * time.Second):
			t.Errorf("%s: an operation without a deadline waits a Retry-After of 301s, more than %s",
				tc.name, client.UntimedWaitLimit)
		}
		cancel()
	}
}

// TestUntimedRetryAfterOfFiveMinutesWaitsWhateverWaitMin: a server that
// asks an operation without a deadline for exactly UntimedWaitLimit
// (Retry-After: 300) is waited, as documented ("Waits that the server
// asks for within it add up"). untimedLimit leaves 2s of room for the
// retry's jitter, which is up to WaitMin (capped at a tenth of the
// Retry-After): with RetryOptions.WaitMin = 30s the jitter is up to 30s
// and the wait is refused at once unless it drew under 2s. Not timing:
// 8 clients each draw a jitter; the chance that all draw under 2s is
// (2/30)^8, about 4e-10. A call still waiting after 3s waits.
func TestUntimedRetryAfterOfFiveMinutesWaitsWhateverWaitMin(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "300")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
	}))
	t.Cleanup(srv.Close)
	rctx, cancel := context.WithCancel(context.Background()) // no deadline
	defer cancel()
	errc := make(chan error, 8)
	for range 8 {
		c := newRetryClient(t, srv.URL, "k", &client.RetryOptions{MaxRetries: 4, WaitMin: 30 * time.Second,
			WaitMax: time.Minute}, nil)
		go func() {
			_, err := c.GetWebsite(rctx, 7)
			errc <- err
		}()
	}
	deadline := time.After(3 * time.Second)
	for refused := 0; ; {
		select {
		case err := <-errc:
			refused++
			t.Errorf("a Retry-After of exactly %s refused at once (WaitMin 30s): %v", client.UntimedWaitLimit, err)
		case <-deadline:
			return
		}
		if refused == 8 {
			return
		}
	}
}

// TestVerifyAPIWaitHoldsOtherReadsPastTheirBound: before the base URL has
// answered as the API, a 404 is confirmed by VerifyAPI's list request,
// which runs under a mutex (proof.mu) that every caller takes without
// its context. Read A (an hour left) gets a 404 and verifies; the list is
// answered 503, Retry-After: 600, which A can wait, holding the mutex.
// Read B (5s left) of another website gets a 404 too and waits for the
// mutex: no bound of its own applies, so it waits A's ten minutes (here,
// until the test cancels A after 10s), where alone its own list request
// would have been refused at once (503 for 600s, 5s left). Deterministic:
// A's wait is settled before B starts; a refusal is immediate.
func TestVerifyAPIWaitHoldsOtherReadsPastTheirBound(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/websites" {
			w.Header().Set("Retry-After", "600")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"Resource not found.","status":404}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	actx, acancel := context.WithTimeout(context.Background(), time.Hour)
	defer acancel()
	aErr := make(chan error, 1)
	go func() {
		_, err := c.GetWebsite(actx, 1)
		aErr <- err
	}()
	select {
	case err := <-aErr:
		t.Fatalf("premise: read A waits the 503's ten minutes, got %v", err)
	case <-time.After(time.Second):
	}
	start := time.Now()
	bctx, bcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer bcancel()
	bErr := make(chan error, 1)
	go func() {
		_, err := c.GetWebsite(bctx, 2)
		bErr <- err
	}()
	var got error
	select {
	case got = <-bErr:
	case <-time.After(10 * time.Second):
		acancel() // A gives up: B gets the mutex
		got = fmt.Errorf("still waiting after 10s; once A gave up: %w", <-bErr)
	}
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("read B (5s left) waited %s, past its deadline, for another read's verification: %v",
			took.Round(time.Second), got)
	}
}

// TestAccountWaitHoldsOtherCallersPastTheirBound: Account ("concurrent
// callers wait for the one request") holds c.account.mu, taken without a
// context, for its whole request. Caller A (an hour left: a refresh of
// timeouts.read = 1h checking the key's owner) is answered 503,
// Retry-After: 600, and waits. Caller B (5s left) waits for the mutex past
// its deadline, judged by no bound (the account data source, without a
// deadline, would wait the ten minutes past UntimedWaitLimit), where its
// own request would have been refused at once. Deterministic as
// TestVerifyAPIWaitHoldsOtherReadsPastTheirBound.
func TestAccountWaitHoldsOtherCallersPastTheirBound(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		answerWithRetryAfter(w, http.StatusServiceUnavailable, "600")
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(4), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	actx, acancel := context.WithTimeout(context.Background(), time.Hour)
	defer acancel()
	aErr := make(chan error, 1)
	go func() {
		_, err := c.Account(actx)
		aErr <- err
	}()
	select {
	case err := <-aErr:
		t.Fatalf("premise: caller A waits the 503's ten minutes, got %v", err)
	case <-time.After(time.Second):
	}
	start := time.Now()
	bctx, bcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer bcancel()
	bErr := make(chan error, 1)
	go func() {
		_, err := c.Account(bctx)
		bErr <- err
	}()
	var got error
	select {
	case got = <-bErr:
	case <-time.After(10 * time.Second):
		acancel()
		got = fmt.Errorf("still waiting after 10s; once A gave up: %w", <-bErr)
	}
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("caller B (5s left) waited %s, past its deadline, for another caller's request: %v",
			took.Round(time.Second), got)
	}
}

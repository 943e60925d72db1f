package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

func siteInput(domain string) client.WebsiteInput {
	return client.WebsiteInput{Domain: domain, Privacy: client.PrivacyPrivate, Email: true, ExcludeBots: true,
		ExcludeIPs: []string{"10.0.0.0/8", "203.0.113.7"}, ExcludeParams: []string{"utm_source"}}
}

func faultyEnv(t *testing.T, f emulator.Faults, opts emulator.Options) (*emulator.Server, *client.Client, *testLogger) {
	t.Helper()
	opts.Faults = &f
	srv := emulator.NewServer(t, opts)
	log := &testLogger{}
	return srv, newRetryClient(t, srv.URL, emulator.DefaultAPIKey, fastRetry(3), log), log
}

func TestCreateWebsiteAdoptsWhatItStored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		faults       emulator.Faults
		wantAttempts int
	}{
		// The first POST is stored but its answer lost: the lookup that
		// follows finds it, and nothing is sent again.
		{"reset after commit", emulator.Faults{ResetAfterRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, 1},
		{"502 after commit", emulator.Faults{ErrorAfterCommitRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, 1},
		{"every answer lost", emulator.Faults{ResetAfterRate: 1, Methods: []string{"POST"}}, 1},
		// A success whose body is cut or spoiled was stored: no repeat.
		{"truncated 201", emulator.Faults{TruncateRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, 1},
		{"malformed 201", emulator.Faults{MalformedRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, c, log := faultyEnv(t, tc.faults, emulator.Options{})
			res, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
			if err != nil {
				t.Fatalf("err = %v\nlogs:\n%s", err, log.all())
			}
			if !res.Adopted || res.Attempts != tc.wantAttempts || res.Website.Domain != "example.com" {
				t.Errorf("result %+v, want adopted after %d attempts", res, tc.wantAttempts)
			}
			ws := srv.Websites()
			if len(ws) != 1 || ws[0].ID != res.Website.ID {
				t.Errorf("server holds %+v", ws)
			}
			if !strings.Contains(log.all(), "adopted the website this create stored") {
				t.Errorf("logs:\n%s", log.all())
			}
		})
	}
}

func TestCreateWebsiteRepeatsWhenNothingWasStored(t *testing.T) {
	t.Parallel()
	for _, f := range []emulator.Faults{
		{ResetBeforeRate: 1, MaxFaults: 2, Methods: []string{"POST"}},
		{ErrorRate: 1, MaxFaults: 2, Methods: []string{"POST"}},
	} {
		srv := emulator.NewServer(t, emulator.Options{Faults: &f})
		// A settle window short of the default (twice the 2 s time limit):
		// each attempt is still looked up before it is sent again, but a
		// reset attempt, which may still run on the server, is not waited
		// out for 4 s when nothing can be stored.
		c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(3), Logger: &testLogger{},
			Timeout: 2 * time.Second, CreateSettle: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
		if err != nil || res.Adopted || res.Attempts != 3 {
			t.Errorf("%+v: result %+v, err %v", f, res, err)
		}
		if n := len(srv.Websites()); n != 1 {
			t.Errorf("%d websites", n)
		}
	}
}

func TestCreateWebsiteDoesNotAdoptAnOlderWebsite(t *testing.T) {
	t.Parallel()
	srv, c, log := faultyEnv(t, emulator.Faults{ResetBeforeRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, emulator.Options{})
	old := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com", Settings: wire.Settings{Privacy: ptr(1), Email: ptr(1), ExcludeBots: ptr(1), ExcludeIPs: "10.0.0.0/8\n203.0.113.7"},
		CreatedAt: time.Now().Add(-time.Hour)})
	_, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
	apiErr, ok := client.AsAPIError(err)
	if !ok || !errors.Is(err, client.ErrValidation) || len(apiErr.Fields["domain"]) == 0 ||
		!strings.Contains(apiErr.Fields["domain"][0], "already been taken") {
		t.Fatalf("err = %v, want the server's \"already taken\"", err)
	}
	if ws := srv.Websites(); len(ws) != 1 || ws[0].ID != old.ID {
		t.Errorf("server holds %+v", ws)
	}
	if !strings.Contains(log.all(), "existed before this create") {
		t.Errorf("logs:\n%s", log.all())
	}

	// Without any lost answer, "already taken" is returned without a lookup.
	srv2, c2, _ := faultyEnv(t, emulator.Faults{}, emulator.Options{})
	srv2.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com"})
	if _, err := c2.CreateWebsite(ctx(t), siteInput("example.com")); !errors.Is(err, client.ErrValidation) {
		t.Errorf("err = %v", err)
	}
	if st := srv2.Stats(); st.ByRoute["GET /api/v1/websites"] != 0 {
		t.Errorf("looked up without a reason: %+v", st.ByRoute)
	}
}

func TestCreateWebsiteDoesNotAdoptAFreshWebsiteWithOtherSettings(t *testing.T) {
	t.Parallel()
	// Someone else's website, made this very second but differently: the
	// lost answers leave no "already taken", so the client reports it itself.
	srv, c, _ := faultyEnv(t, emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{503}, Methods: []string{"POST"}}, emulator.Options{})
	srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)}})
	_, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
	if !errors.Is(err, client.ErrValidation) || !strings.Contains(err.Error(), "already been taken") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Websites()); n != 1 {
		t.Errorf("%d websites", n)
	}
}

func TestCreateWebsiteCorrectsForTheServerClock(t *testing.T) {
	t.Parallel()
	for _, skew := range []time.Duration{-time.Hour, time.Hour, -3 * time.Second} {
		t.Run(skew.String(), func(t *testing.T) {
			t.Parallel()
			clock := func() time.Time { return time.Now().Add(skew) }
			srv, c, log := faultyEnv(t, emulator.Faults{ResetAfterRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, emulator.Options{Clock: clock})
			res, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
			if err != nil || !res.Adopted {
				t.Fatalf("result %+v, err %v\nlogs:\n%s", res, err, log.all())
			}
			if n := len(srv.Websites()); n != 1 {
				t.Errorf("%d websites", n)
			}
			// An older website is still refused, on a skewed clock too.
			srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "old.example.com", Settings: wire.Settings{Privacy: ptr(1), Email: ptr(1), ExcludeBots: ptr(1), ExcludeIPs: "10.0.0.0/8\n203.0.113.7"},
				CreatedAt: clock().Add(-10 * time.Second)})
			if err := srv.SetFaults(&emulator.Faults{ResetAfterRate: 1, MaxFaults: 1, Methods: []string{"POST"}}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.CreateWebsite(ctx(t), siteInput("old.example.com")); !errors.Is(err, client.ErrValidation) {
				t.Errorf("older website: err = %v", err)
			}
		})
	}
}

func TestCreateWebsiteLookupFails(t *testing.T) {
	t.Parallel()
	// Every POST answer is lost and every list fails: the outcome cannot
	// be told, and the error says so.
	srv, c, _ := faultyEnv(t, emulator.Faults{ResetAfterRate: 1}, emulator.Options{})
	_, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
	var unknown *client.CreateOutcomeUnknownError
	if !errors.As(err, &unknown) || unknown.Attempts != 1 {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{`could not tell whether the website "example.com" was created`, "may exist on the server"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if n := len(srv.Websites()); n != 1 {
		t.Errorf("%d websites", n)
	}
}

func TestCreateWebsiteRejectedWithoutDoubt(t *testing.T) {
	t.Parallel()
	_, c, _ := faultyEnv(t, emulator.Faults{}, emulator.Options{BannedWords: []string{"casino"}})
	_, err := c.CreateWebsite(ctx(t), siteInput("casino.example.com"))
	if !errors.Is(err, client.ErrValidation) {
		t.Errorf("err = %v", err)
	}
	// The server is down: nothing was sent, nothing to look up.
	c2 := newRetryClient(t, "http://127.0.0.1:1", "key", fastRetry(1), nil)
	_, err = c2.CreateWebsite(ctx(t), siteInput("example.com"))
	var unknown *client.CreateOutcomeUnknownError
	if err == nil || errors.As(err, &unknown) {
		t.Errorf("err = %v", err)
	}
}

func TestCreateWebsiteNeverDuplicatesUnderFaults(t *testing.T) {
	t.Parallel()
	f := emulator.Faults{Seed: 11, ErrorRate: 0.1, ResetBeforeRate: 0.05, ResetAfterRate: 0.1, ErrorAfterCommitRate: 0.1,
		TruncateRate: 0.05, MalformedRate: 0.05, Latency: time.Millisecond, LatencyJitter: 2 * time.Millisecond}
	srv := emulator.NewServer(t, emulator.Options{Faults: &f})
	c := newRetryClient(t, srv.URL, emulator.DefaultAPIKey, fastRetry(8), nil)
	const n = 30
	var wg sync.WaitGroup
	ids := make([]int64, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.CreateWebsite(ctx(t), siteInput(fmt.Sprintf("site%d.example.com", i)))
			if err != nil {
				t.Errorf("create %d: %v", i, err)
				return
			}
			ids[i] = res.Website.ID
		}()
	}
	wg.Wait()
	ws := srv.Websites()
	if len(ws) != n {
		t.Fatalf("the server holds %d websites, want %d", len(ws), n)
	}
	for i, id := range ids {
		if got, ok := srv.Website(id); !ok || got.Domain != fmt.Sprintf("site%d.example.com", i) {
			t.Errorf("create %d returned id %d, which is %+v", i, id, got)
		}
	}
	t.Logf("faults: %v", srv.FaultCounts())
}

// A store that outlives the client's time limit, on a server whose
// uniqueness check and insert are not atomic, leaves one website. The
// store's late commit and the client's time limit are driven by the test
// (heldStore), not by durations, so a loaded machine cannot reorder them.
func TestCreateWebsiteSlowCommit(t *testing.T) {
	t.Parallel()
	t.Run("lands within the settle window", func(t *testing.T) {
		t.Parallel()
		hs := newHeldStore(t)
		// The first lookup after the time limit releases the store and
		// answers once it has landed: the client, still waiting, adopts it.
		var gets atomic.Int32
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/websites") && hs.isWaiting() && gets.Add(1) == 1 {
				hs.land(t)
			}
			hs.srv.ServeHTTP(w, r)
		}))
		t.Cleanup(front.Close)
		// Release the store before front.Close waits for its handler, so
		// that a client that never looks up fails instead of hanging.
		t.Cleanup(func() { hs.once.Do(func() { close(hs.release) }) })
		c, err := client.New(front.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(3),
			Transport: hs.transport(0), CreateSettle: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.CreateWebsite(ctx(t), siteInput("slow.example"))
		if err != nil || !res.Adopted || res.Attempts != 1 {
			t.Fatalf("res %+v, err %v; want adopted after 1 attempt", res, err)
		}
		if n := len(hs.srv.Websites()); n != 1 {
			t.Errorf("%d websites, want 1", n)
		}
	})
	t.Run("lands after the store was sent again", func(t *testing.T) {
		t.Parallel()
		hs := newHeldStore(t)
		log := &testLogger{}
		// CreateSettle is past when the first lookup answers: the client
		// sends the store again. The second store commits at once, and its
		// answer comes after the first store landed.
		c, err := client.New(hs.srv.URL, emulator.DefaultAPIKey, client.Options{Retry: fastRetry(3),
			Transport: hs.transport(2), CreateSettle: time.Nanosecond, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.CreateWebsite(ctx(t), siteInput("slow.example"))
		if err != nil {
			t.Fatalf("err %v\n%s", err, log.all())
		}
		ws := hs.srv.Websites()
		if len(ws) != 1 || ws[0].ID != res.Website.ID {
			t.Errorf("server holds %d websites (%+v), want only %d\n%s", len(ws), ws, res.Website.ID, log.all())
		}
		if !strings.Contains(log.all(), "deleting a duplicate") || res.Attempts != 2 {
			t.Errorf("no duplicate was removed, or %d attempts (want 2):\n%s", res.Attempts, log.all())
		}
	})
}

// heldStore is an emulator whose first store passes validation and then
// waits to insert until the test lets it (land), with a transport that
// makes the client's first POST time out once that store is waiting.
type heldStore struct {
	srv     *emulator.Server
	waiting chan struct{} // closed when the first store waits to insert
	release chan struct{} // closed to let it insert
	landed  chan struct{} // closed when its answer came back
	once    sync.Once
}

func newHeldStore(t *testing.T) *heldStore {
	t.Helper()
	hs := &heldStore{waiting: make(chan struct{}), release: make(chan struct{}), landed: make(chan struct{})}
	hs.srv = emulator.NewServer(t, emulator.Options{Faults: &emulator.Faults{SlowCommitCount: 1, SlowCommitHold: func() {
		close(hs.waiting)
		<-hs.release
	}}})
	t.Cleanup(func() { hs.once.Do(func() { close(hs.release) }) })
	return hs
}

// isWaiting reports whether the first store waits to insert.
func (hs *heldStore) isWaiting() bool {
	select {
	case <-hs.waiting:
		return true
	default:
		return false
	}
}

// land lets the first store insert and returns once its answer came back
// (the insert is done).
func (hs *heldStore) land(t *testing.T) {
	t.Helper()
	hs.once.Do(func() { close(hs.release) })
	select {
	case <-hs.landed:
	case <-time.After(time.Minute):
		t.Error("the held store never landed")
	}
}

// transport sends the first POST to the server and, once that store waits
// to insert, fails it with a time limit error (its answer lands later, on
// landed). The POST numbered landOn (0: none) is answered only after the
// held store landed.
func (hs *heldStore) transport(landOn int32) http.RoundTripper {
	base := http.DefaultTransport
	var posts atomic.Int32
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Method != http.MethodPost {
			return base.RoundTrip(r)
		}
		switch n := posts.Add(1); n {
		case 1:
			body, err := io.ReadAll(r.Body)
			if err != nil {
				return nil, err
			}
			r2 := r.Clone(context.WithoutCancel(r.Context()))
			r2.Body = io.NopCloser(bytes.NewReader(body))
			go func() {
				defer close(hs.landed)
				if resp, err := base.RoundTrip(r2); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}()
			select {
			case <-hs.waiting:
			case <-r.Context().Done():
				return nil, r.Context().Err()
			}
			return nil, &url.Error{Op: "Post", URL: r.URL.String(), Err: timeoutError{}}
		case landOn:
			resp, err := base.RoundTrip(r)
			hs.once.Do(func() { close(hs.release) })
			<-hs.landed
			return resp, err
		}
		return base.RoundTrip(r)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// timeoutError is the error of a request that outlived its time limit.
type timeoutError struct{}

func (timeoutError) Error() string {
	return "net/http: request canceled (Client.Timeout exceeded while awaiting headers)"
}
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// A create whose answer was lost adopts what it stored, with a password
// (privacy "password", or another privacy: the server stores it too) or
// without: adoptionCheck compares whether one is set with what the store
// sent, never refusing what this create made.
func TestCreateWebsiteAdoptsWithOrWithoutPassword(t *testing.T) {
	t.Parallel()
	pw := "s3cret-pass"
	for name, tc := range map[string]struct {
		privacy  int
		password *string
	}{
		"privacy password": {client.PrivacyPassword, &pw},
		"private with one": {client.PrivacyPrivate, &pw},
		"none sent":        {client.PrivacyPrivate, nil},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, c, log := faultyEnv(t, emulator.Faults{ResetAfterRate: 1, MaxFaults: 1, Methods: []string{"POST"}}, emulator.Options{})
			in := siteInput("example.com")
			in.Privacy, in.Password = tc.privacy, tc.password
			res, err := c.CreateWebsite(ctx(t), in)
			if err != nil || !res.Adopted || res.Website.PasswordSet != (tc.password != nil) {
				t.Fatalf("result %+v, err %v, want adopted\nlogs:\n%s", res, err, log.all())
			}
		})
	}
}

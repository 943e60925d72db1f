package client_test

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

// Routes as counted by the emulator.
const (
	routeList = "GET /api/v1/websites"
	routeShow = "GET /api/v1/websites/{id}"
)

// bulkEnv is an emulator behind a handler that tests can hook into.
type bulkEnv struct {
	emu *emulator.Emulator
	url string
	c   *client.Client
	// listHook, if set, runs around every list request: before (with
	// after false) and after the emulator answered (after true).
	listHook atomic.Pointer[func(page int, after bool)]
	// failPage, if set, decides whether a list page is answered with
	// an error status instead (0 = no).
	failPage atomic.Pointer[func(page int) int]
	// showHook, if set, runs before the emulator answers a GET of one
	// website.
	showHook atomic.Pointer[func(id int64)]
}

func newBulkEnv(t *testing.T) *bulkEnv {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey}, {Key: otherKey}}})
	if err != nil {
		t.Fatal(err)
	}
	env := &bulkEnv{emu: emu}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := 0
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			page = 1
			if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil {
				page = p
			}
		}
		if h := env.showHook.Load(); h != nil && r.Method == http.MethodGet {
			if id, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/api/v1/websites/"), 10, 64); err == nil {
				(*h)(id)
			}
		}
		if page > 0 {
			if f := env.failPage.Load(); f != nil {
				if status := (*f)(page); status != 0 {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(status)
					_, _ = fmt.Fprintf(w, `{"message":"injected failure of page %d"}`, page)
					return
				}
			}
			if h := env.listHook.Load(); h != nil {
				(*h)(page, false)
				defer (*h)(page, true)
			}
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	env.url = srv.URL
	env.c = newClient(t, srv.URL, emulator.DefaultAPIKey)
	return env
}

const otherKey = "OtherUserApiKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"

func (env *bulkEnv) hook(f func(page int, after bool)) { env.listHook.Store(&f) }
func (env *bulkEnv) fail(f func(page int) int)         { env.failPage.Store(&f) }
func (env *bulkEnv) hookShow(f func(id int64))         { env.showHook.Store(&f) }

// create is this process's create of domain, through b.Write.
func (env *bulkEnv) create(t *testing.T, b *client.BulkReader, domain string) error {
	return b.Write(ctx(t), 0, func() (*client.Website, error) {
		res, err := env.c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: domain})
		if err != nil {
			return nil, err
		}
		return res.Website, nil
	})
}

// loseCreate is this process's create of domain through b.Write, answered
// 500: its outcome is unknown to b.
func (env *bulkEnv) loseCreate(t *testing.T, b *client.BulkReader, domain string) {
	t.Helper()
	if err := env.emu.SetFaults(&emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}, Methods: []string{"POST"}, MaxFaults: 1}); err != nil {
		t.Fatal(err)
	}
	if err := env.create(t, b, domain); err == nil {
		t.Fatal("premise: the create answered 500 succeeded")
	}
}

// rename is another client's rename of the website id to domain.
func (env *bulkEnv) rename(id int64, domain string) {
	env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Domain = domain; w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
}

// holders is how many websites hold domain on the server now.
func (env *bulkEnv) holders(domain string) (n int) {
	for _, w := range env.emu.Websites() {
		if w.Domain == domain {
			n++
		}
	}
	return n
}

// seed stores n websites of the default user with varied settings (NULLs,
// CRLF lists, passwords, favourites) and returns their ids in order.
func (env *bulkEnv) seed(n int) []int64 {
	ids := make([]int64, 0, n)
	base := len(env.emu.Websites())
	for i := range n {
		w := emulator.Website{Domain: fmt.Sprintf("site-%05d.example.com", base+i+1)}
		switch i % 5 {
		case 0: // every nullable column NULL
		case 1:
			w.Privacy, w.Email, w.ExcludeBots = ptr(2), ptr(1), ptr(0)
			w.Password = "s3cret"
			w.ExcludeIPs = "1.2.3.4\r\n10.0.0.0/8"
		case 2:
			w.Privacy, w.Email, w.ExcludeBots = ptr(1), ptr(0), ptr(1)
			w.Favorite = true
		case 3:
			w.Privacy, w.Email, w.ExcludeBots = ptr(0), ptr(7), ptr(1)
			w.ExcludeIPs = "2001:db8::/32\n"
		case 4:
			w.Privacy = ptr(0)
			w.ExcludeParams = "utm_source"
		}
		ids = append(ids, env.emu.Seed(emulator.DefaultAPIKey, w).ID)
	}
	return ids
}

func (env *bulkEnv) requests() (total, list, show int) {
	s := env.emu.Stats()
	return s.Total, s.ByRoute[routeList], s.ByRoute[routeShow]
}

// newFakeClock is a standing clock for TTL tests.
func newFakeClock() *testclock.Clock {
	return testclock.New(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
}

// lingerTimers are Linger's timers on a fake clock, for reads run by
// runAllThen: a timer fires, moving the clock on by its duration, only
// once every read has started (release). So a read lingers for as long as
// more reads are to come, whatever the machine's speed, and then stops
// lingering.
type lingerTimers struct {
	clock    *testclock.Clock
	released chan struct{}
	once     sync.Once
}

func newLingerTimers(t *testing.T, clock *testclock.Clock) *lingerTimers {
	l := &lingerTimers{clock: clock, released: make(chan struct{})}
	t.Cleanup(l.release)
	return l
}

func (l *lingerTimers) release() { l.once.Do(func() { close(l.released) }) }

func (l *lingerTimers) after(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		<-l.released
		l.clock.Advance(d)
		ch <- l.clock.Now()
	}()
	return ch
}

// readResult is the outcome of one Read.
type readResult struct {
	w   *client.Website
	err error
}

// readAll reads ids with the given number of workers, as Terraform does
// (each worker takes the next id when it is done with one).
func readAll(t *testing.T, b *client.BulkReader, ids []int64, workers int) map[int64]readResult {
	t.Helper()
	return readAllStaggered(t, b, ids, workers, 0)
}

// readAllStaggered is readAll with the workers starting stagger apart, as
// Terraform starts the reads of a refresh a few at a time.
func readAllStaggered(t *testing.T, b *client.BulkReader, ids []int64, workers int, stagger time.Duration) map[int64]readResult {
	t.Helper()
	return runAll(t, ids, workers, stagger, func(c context.Context, id int64) readResult {
		w, err := b.Read(c, id)
		return readResult{w, err}
	})
}

// runAll calls f for every key with the given number of workers, started
// stagger apart, each taking the next key when it is done with one, and
// returns the results by key.
func runAll[K comparable, R any](t *testing.T, keys []K, workers int, stagger time.Duration, f func(context.Context, K) R) map[K]R {
	t.Helper()
	return runAllThen(t, keys, workers, stagger, f, nil)
}

// runAllThen is runAll, calling taken (when not nil) once every key has
// been taken by a worker.
func runAllThen[K comparable, R any](t *testing.T, keys []K, workers int, stagger time.Duration, f func(context.Context, K) R, taken func()) map[K]R {
	t.Helper()
	var (
		mu   sync.Mutex
		out  = make(map[K]R, len(keys))
		next atomic.Int64
		wg   sync.WaitGroup
	)
	c := ctx(t)
	for worker := range workers {
		wg.Go(func() {
			time.Sleep(time.Duration(worker) * stagger)
			for {
				i := int(next.Add(1)) - 1
				if i == len(keys)-1 && taken != nil {
					taken()
				}
				if i >= len(keys) {
					return
				}
				r := f(c, keys[i])
				mu.Lock()
				out[keys[i]] = r
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// checkSameAsGet compares every result with a GetWebsite made now.
func checkSameAsGet(t *testing.T, c *client.Client, got map[int64]readResult) {
	t.Helper()
	for id, r := range got {
		want, wantErr := c.GetWebsite(ctx(t), id)
		switch {
		case wantErr != nil:
			if !errors.Is(wantErr, client.ErrNotFound) {
				t.Fatalf("GetWebsite(%d): %v", id, wantErr)
			}
			if !errors.Is(r.err, client.ErrNotFound) {
				t.Errorf("Read(%d) = %+v, %v; GetWebsite says not found", id, r.w, r.err)
			}
		case r.err != nil:
			t.Errorf("Read(%d) error %v; GetWebsite returned %+v", id, r.err, want)
		case !reflect.DeepEqual(*r.w, *want):
			t.Errorf("Read(%d) = %+v\nGetWebsite = %+v", id, *r.w, *want)
		}
	}
}

func TestBulkReaderMatchesGetWebsite(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	// Interleave another user's websites and leave holes, so that the
	// sweep's pages and the ids differ.
	var ids []int64
	for i := range 5 {
		ids = append(ids, env.seed(60)...)
		env.emu.Seed(otherKey, emulator.Website{Domain: fmt.Sprintf("other-%d.example.org", i)})
		env.emu.DeleteWebsite(env.seed(1)[0])
	}
	var all []int64
	for id := int64(1); id <= ids[len(ids)-1]+3; id++ {
		all = append(all, id)
	}
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
	got := readAll(t, b, all, 10)
	if _, list, _ := env.requests(); list == 0 {
		t.Errorf("no list sweep for %d reads", len(all))
	}
	checkSameAsGet(t, env.c, got)
	found := 0
	for _, r := range got {
		if r.err == nil {
			found++
		}
	}
	if found != len(ids) {
		t.Errorf("found %d websites, want %d", found, len(ids))
	}
}

func TestBulkReaderRequestCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		onServer int
		read     func(ids []int64) []int64
		workers  int
		stagger  time.Duration
		maxTotal int
		maxList  int
	}{
		// ⌈N/100⌉ pages and one GET, and page 1 once more when it was
		// read by an earlier fetch (before the reads paid for the rest):
		// the sweep then reads it again at the end to check it (7 for
		// 500; 6 when page 1 arrives after enough reads).
		{name: "500 of 500", onServer: 500, read: all, workers: 10, maxTotal: 7, maxList: 6},
		// Terraform starts its reads a few at a time: page 1 arrives when
		// only some have started, and they wait for the others.
		{name: "500 of 500 staggered", onServer: 500, read: shuffled, workers: 10, stagger: 5 * time.Millisecond, maxTotal: 7, maxList: 6},
		// Page 1 holds the newest websites, and these reads begin with the
		// oldest: the last page, read next, holds them; page 1 is read
		// again at the end.
		{name: "500 of 500 one at a time", onServer: 500, read: all, workers: 1, maxTotal: 7, maxList: 6},
		{name: "150 of 150", onServer: 150, read: all, workers: 10, maxTotal: 3, maxList: 2},
		{name: "1 among 5000", onServer: 5000, read: pick(2500), workers: 1, maxTotal: 2},
		{name: "newest among 5000", onServer: 5000, read: pick(4999), workers: 1, maxTotal: 2},
		// The probe GET, then page 1, then a GET if page 1 did not hold the
		// second.
		{name: "2 among 5000", onServer: 5000, read: pick(17, 4000), workers: 10, maxTotal: 3},
		{name: "5000 of 5000", onServer: 5000, read: all, workers: 10, maxTotal: 2 + 51 + 10, maxList: 51},
		{name: "5000 of 5000 newest first", onServer: 5000, read: reversed, workers: 10, maxTotal: 2 + 51 + 10, maxList: 51},
		// Ski rental: no more than about twice the better strategy
		// (50 pages here).
		{name: "300 spread among 5000", onServer: 5000, read: every(16), workers: 10, maxTotal: 2*50 + 10},
		{name: "300 spread among 5000 one at a time", onServer: 5000, read: every(16), workers: 1, maxTotal: 2*50 + 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := tc.read(env.seed(tc.onServer))
			env.emu.ResetStats()
			// A fake clock: the TTL does not run out during a slow sweep.
			// Reads linger (on that clock) only where that is the point:
			// when they are staggered.
			clock := newFakeClock()
			opts := client.BulkReaderOptions{Clock: clock.Now, Linger: -1}
			timers := newLingerTimers(t, clock)
			if tc.stagger > 0 {
				opts.Linger, opts.After = 0, timers.after
			}
			b := client.NewBulkReader(env.c, opts)
			got := runAllThen(t, ids, tc.workers, tc.stagger, func(c context.Context, id int64) readResult {
				w, err := b.Read(c, id)
				return readResult{w, err}
			}, timers.release)
			total, list, show := env.requests()
			t.Logf("%d reads: %d requests (%d list, %d show); %+v", len(ids), total, list, show, b.Stats())
			if total > tc.maxTotal {
				t.Errorf("%d requests, want at most %d", total, tc.maxTotal)
			}
			if tc.maxList > 0 && list > tc.maxList {
				t.Errorf("%d list requests, want at most %d", list, tc.maxList)
			}
			for _, id := range ids {
				r := got[id]
				if r.err != nil || r.w.ID != id || r.w.Domain == "" {
					t.Fatalf("Read(%d) = %+v, %v", id, r.w, r.err)
				}
			}
		})
	}
}

func all(ids []int64) []int64 { return ids }

func reversed(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Reverse(out)
	return out
}

// shuffled is every id in an order that is not the list's: Terraform
// refreshes in the order of its graph walk, not by id.
func shuffled(ids []int64) []int64 {
	out := slices.Clone(ids)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func pick(idx ...int) func([]int64) []int64 {
	return func(ids []int64) []int64 {
		var out []int64
		for _, i := range idx {
			out = append(out, ids[i])
		}
		return out
	}
}

func every(n int) func([]int64) []int64 {
	return func(ids []int64) []int64 {
		var out []int64
		for i := 0; i < len(ids); i += n {
			out = append(out, ids[i])
		}
		return out
	}
}

func TestBulkReaderChangesBetweenSweeps(t *testing.T) {
	t.Parallel()
	const ttl = 5 * time.Second
	for _, tc := range []struct {
		name string
		// change acts after a first sweep; it returns the id to read and
		// whether it is expected to exist.
		change    func(t *testing.T, env *bulkEnv, b *client.BulkReader, clock *testclock.Clock, ids []int64) int64
		wantFresh bool // the record must equal a GetWebsite made now
		wantGone  bool
		wantStale func(w *client.Website) bool // the record must be the old one
	}{
		{
			name: "created outside, within the TTL",
			change: func(_ *testing.T, env *bulkEnv, _ *client.BulkReader, _ *testclock.Clock, _ []int64) int64 {
				return env.seed(1)[0]
			},
			wantFresh: true,
		},
		{
			name: "created by the provider, within the TTL",
			change: func(t *testing.T, env *bulkEnv, _ *client.BulkReader, _ *testclock.Clock, _ []int64) int64 {
				res, err := env.c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "new.example.net"})
				if err != nil {
					t.Fatal(err)
				}
				return res.Website.ID
			},
			wantFresh: true,
		},
		{
			name: "updated by the provider, within the TTL",
			change: func(t *testing.T, env *bulkEnv, b *client.BulkReader, _ *testclock.Clock, ids []int64) int64 {
				if _, err := env.c.UpdateWebsite(ctx(t), ids[42], client.WebsiteInput{Privacy: 1, Email: true}); err != nil {
					t.Fatal(err)
				}
				b.Forget(ids[42])
				return ids[42]
			},
			wantFresh: true,
		},
		{
			name: "deleted by the provider, within the TTL",
			change: func(t *testing.T, env *bulkEnv, b *client.BulkReader, _ *testclock.Clock, ids []int64) int64 {
				if err := env.c.DeleteWebsite(ctx(t), ids[150]); err != nil {
					t.Fatal(err)
				}
				b.Forget(ids[150])
				return ids[150]
			},
			wantGone: true,
		},
		{
			name: "changed outside, within the TTL: served as swept",
			change: func(_ *testing.T, env *bulkEnv, _ *client.BulkReader, _ *testclock.Clock, ids []int64) int64 {
				env.emu.UpdateWebsite(ids[7], func(w *emulator.Website) { w.ExcludeIPs = "9.9.9.9" })
				return ids[7]
			},
			wantStale: func(w *client.Website) bool { return len(w.ExcludeIPs) == 0 },
		},
		{
			name: "changed outside, after the TTL",
			change: func(_ *testing.T, env *bulkEnv, _ *client.BulkReader, clock *testclock.Clock, ids []int64) int64 {
				env.emu.UpdateWebsite(ids[7], func(w *emulator.Website) { w.ExcludeIPs = "9.9.9.9" })
				clock.Advance(ttl + time.Second)
				return ids[7]
			},
			wantFresh: true,
		},
		{
			name: "deleted outside, after the TTL",
			change: func(_ *testing.T, env *bulkEnv, _ *client.BulkReader, clock *testclock.Clock, ids []int64) int64 {
				env.emu.DeleteWebsite(ids[250])
				clock.Advance(ttl + time.Second)
				return ids[250]
			},
			wantGone: true,
		},
		{
			name: "another user's website",
			change: func(_ *testing.T, env *bulkEnv, _ *client.BulkReader, _ *testclock.Clock, _ []int64) int64 {
				return env.emu.Seed(otherKey, emulator.Website{Domain: "theirs.example.org"}).ID
			},
			wantGone: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(300)
			clock := newFakeClock()
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{TTL: ttl, Clock: clock.Now, Linger: -1})
			readAll(t, b, ids, 10)
			if s := b.Stats(); s.Sweeps != 1 {
				t.Fatalf("stats after the first reads: %+v, want one sweep", s)
			}
			id := tc.change(t, env, b, clock, ids)
			got, err := b.Read(ctx(t), id)
			switch {
			case tc.wantGone:
				if !errors.Is(err, client.ErrNotFound) {
					t.Fatalf("Read(%d) = %+v, %v; want not found", id, got, err)
				}
			case err != nil:
				t.Fatalf("Read(%d): %v", id, err)
			case tc.wantStale != nil:
				if !tc.wantStale(got) {
					t.Errorf("Read(%d) = %+v, want the record of the sweep", id, got)
				}
			case tc.wantFresh:
				checkSameAsGet(t, env.c, map[int64]readResult{id: {got, nil}})
			}
		})
	}
}

func TestBulkReaderChangesDuringSweep(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450) // 5 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1})

	var (
		once1, once2, once3 sync.Once
		created             []int64
		ownUpdate           = ids[320] // on page 4
	)
	env.hook(func(page int, after bool) {
		switch {
		case page == 2 && !after:
			once1.Do(func() {
				// Deleting a website of page 1 shifts the first of page 2
				// onto page 1, which was already read: the sweep misses it.
				env.emu.DeleteWebsite(ids[10])
				// New websites are appended after the last page read.
				created = env.seed(3)
			})
		case page == 3 && !after:
			once2.Do(func() {
				env.emu.UpdateWebsite(ids[260], func(w *emulator.Website) { w.Email = ptr(1) })
			})
		case page == 4 && after:
			once3.Do(func() {
				// The provider's own update finishes after page 4 was
				// read and before the sweep ends.
				if !env.emu.UpdateWebsite(ownUpdate, func(w *emulator.Website) { w.Privacy = ptr(1) }) {
					t.Error("website to update is missing")
				}
				b.Forget(ownUpdate)
			})
		}
	})
	got := readAll(t, b, ids, 10)
	env.listHook.Store(nil)
	more := readAll(t, b, created, 2)
	for id, r := range more {
		got[id] = r
	}

	shifted := ids[100] // first of page 2 before the deletion
	if r := got[shifted]; r.err != nil {
		t.Errorf("Read(%d) of a website the sweep missed: %v; want it found by an individual read", shifted, r.err)
	}
	if r := got[ownUpdate]; r.err != nil || r.w.PrivacyValue() != 1 {
		t.Errorf("Read(%d) after the provider's own update during the sweep = %+v, %v; want privacy 1", ownUpdate, r.w, r.err)
	}
	deleted := got[ids[10]]
	delete(got, ids[10]) // read from page 1 before it was deleted, or not found
	if deleted.err != nil && !errors.Is(deleted.err, client.ErrNotFound) {
		t.Errorf("Read of the website deleted during the sweep: %v", deleted.err)
	}
	changed := got[ids[260]]
	delete(got, ids[260]) // before or after the change
	if changed.err != nil {
		t.Errorf("Read of the website changed during the sweep: %v", changed.err)
	}
	checkSameAsGet(t, env.c, got)
	t.Logf("%+v", b.Stats())
}

func TestBulkReaderTTL(t *testing.T) {
	t.Parallel()
	const ttl, maxAge = 3 * time.Second, 20 * time.Second
	env := newBulkEnv(t)
	ids := env.seed(250)
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{TTL: ttl, MaxAge: maxAge, Clock: clock.Now, Linger: -1})
	read := func(id int64) *client.Website {
		t.Helper()
		w, err := b.Read(ctx(t), id)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	changed := func(w *client.Website) bool { return len(w.ExcludeIPs) == 1 && w.ExcludeIPs[0] == "9.9.9.9" }
	readAll(t, b, ids, 10)

	// A refresh that goes on longer than the TTL (reads a second apart) is
	// served from its sweep: no request, the record as swept.
	env.emu.ResetStats()
	env.emu.UpdateWebsite(ids[0], func(w *emulator.Website) { w.ExcludeIPs = "9.9.9.9" })
	for i := range 15 {
		clock.Advance(time.Second)
		if w := read(ids[i*10]); i == 0 && changed(w) {
			t.Errorf("within the burst: exclude_ips %q, want the swept record", w.ExcludeIPs)
		}
	}
	if total, _, _ := env.requests(); total != 0 {
		t.Errorf("a 15 s burst of reads after a sweep: %d requests, want none", total)
	}

	// Once reads pause for longer than the TTL, an entry older than the TTL
	// is read again.
	clock.Advance(ttl + time.Second)
	if w := read(ids[0]); !changed(w) {
		t.Errorf("after a pause: exclude_ips %q, want the new value", w.ExcludeIPs)
	}
	if total, _, show := env.requests(); total != 1 || show != 1 {
		t.Errorf("after a pause: %d requests (%d show), want one GET", total, show)
	}

	// A new refresh of every website sweeps again.
	clock.Advance(10 * time.Second)
	env.emu.ResetStats()
	got := readAll(t, b, ids, 10)
	if total, list, _ := env.requests(); total > 2+3 || list != 3 {
		t.Errorf("second refresh: %d requests (%d list), want two GETs and a sweep of 3 pages", total, list)
	}
	checkSameAsGet(t, env.c, got)

	// Even during a burst, nothing older than MaxAge is served.
	env.emu.UpdateWebsite(ids[1], func(w *emulator.Website) { w.ExcludeIPs = "9.9.9.9" })
	for i := 1; i <= 25; i++ {
		clock.Advance(time.Second)
		w := read(ids[1])
		if want := time.Duration(i)*time.Second > maxAge; changed(w) != want {
			t.Fatalf("%d s into the burst: exclude_ips %q, want the new value: %t", i, w.ExcludeIPs, want)
		}
	}
}

func TestBulkReaderManyGoroutines(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(600)
	want := map[int64]*client.Website{}
	for _, id := range ids {
		w, err := env.c.GetWebsite(ctx(t), id)
		if err != nil {
			t.Fatal(err)
		}
		want[id] = w
	}
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
	const workers = 32
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		forgotten = map[int64]bool{}
	)
	for g := range workers {
		wg.Go(func() {
			for i := range ids {
				// Every goroutine reads every website, in its own order,
				// and some forget one now and then.
				id := ids[(i*7+g*31)%len(ids)]
				w, err := b.Read(ctx(t), id)
				if err != nil {
					t.Errorf("Read(%d): %v", id, err)
				} else if !reflect.DeepEqual(w, want[id]) {
					t.Errorf("Read(%d) = %+v, want %+v", id, w, want[id])
				}
				if i%97 == g {
					f := ids[(i+g)%len(ids)]
					b.Forget(f)
					mu.Lock()
					forgotten[f] = true
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	total, list, show := env.requests()
	t.Logf("%d reads: %d requests (%d list, %d show); %+v", workers*len(ids), total, list, show, b.Stats())
	if list > 6 {
		t.Errorf("%d list requests, want one sweep of 6 pages", list)
	}
	// One GET per forgotten website at most (concurrent reads share it),
	// plus the probe and a few reads racing with their website's Forget.
	if limit := 2 + len(forgotten) + 10; show > limit {
		t.Errorf("%d individual GETs, want at most %d", show, limit)
	}
}

// TestBulkReaderPageErrors: list pages that keep failing cost the reads
// little. Each failed sweep's pages are owed, doubled for each page
// failure before it (failedLocked), so the failing pages are requested
// again at most about log2(reads) times: one more each time the reads
// since the failure double.
func TestBulkReaderPageErrors(t *testing.T) {
	t.Parallel()
	const n = 450
	again := bits.Len(n) // the attempts after the first
	for _, tc := range []struct {
		name     string
		fail     func(page int) int
		pages    int // requested by the first sweep
		failing  int // pages each later attempt requests
		maxTotal int // without attempts after the first
	}{
		{name: "first page fails", fail: func(int) int { return http.StatusInternalServerError },
			pages: 1, failing: 1, maxTotal: 1 + n},
		{name: "a later page fails", fail: func(p int) int {
			if p == 3 {
				return http.StatusBadGateway
			}
			return 0
		}, pages: 5, failing: 1, maxTotal: 5 + 2 + 100 + 10},
		{name: "throttled pages", fail: func(p int) int {
			if p > 1 {
				return http.StatusTooManyRequests
			}
			return 0
		}, pages: 5, failing: 4, maxTotal: 5 + 2 + 350 + 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(n)
			env.fail(tc.fail)
			env.emu.ResetStats()
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now})
			got := readAll(t, b, ids, 10)
			total, list, show := env.requests()
			s := b.Stats()
			t.Logf("%d requests (%d list, %d show) (failed pages are not counted by the emulator); %+v", total, list, show, s)
			if s.PageErrors == 0 {
				t.Errorf("no page error recorded: %+v", s)
			}
			if limit := tc.maxTotal + again*tc.failing; total+s.PageErrors > limit {
				t.Errorf("%d requests, want at most %d", total+s.PageErrors, limit)
			}
			if limit := tc.pages + again*tc.failing; s.Pages > limit {
				t.Errorf("%d pages requested, want at most %d: the first sweep's %d, then the failing pages "+
					"about log2(%d reads) times", s.Pages, limit, tc.pages, n)
			}
			env.failPage.Store(nil)
			checkSameAsGet(t, env.c, got)
		})
	}
}

func TestBulkReaderDisabled(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(120)
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{TTL: -1})
	got := readAll(t, b, ids, 10)
	if total, _, show := env.requests(); total != len(ids) || show != len(ids) {
		t.Errorf("%d requests (%d show), want one GET per read", total, show)
	}
	checkSameAsGet(t, env.c, got)
}

func TestBulkReaderCancelWhileWaiting(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(150)
	release := make(chan struct{})
	var blocked sync.Once
	started := make(chan struct{})
	env.hook(func(page int, after bool) {
		if page == 1 && !after {
			blocked.Do(func() { close(started) })
			<-release
		}
	})
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
	for _, id := range ids[:client.DefaultBulkProbe] { // the probe: individual GETs
		if _, err := b.Read(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	cctx, cancel := context.WithCancel(ctx(t))
	errc := make(chan error, 1)
	go func() {
		_, err := b.Read(cctx, ids[2]) // starts the first page, which blocks
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a cancelled context: %v, want context.Canceled", err)
	}
	close(release)
	// The fetch went on for the others.
	got := readAll(t, b, ids, 10)
	checkSameAsGet(t, env.c, got)
}

// sweptReader seeds n websites and returns a reader (no linger, a fake
// clock) whose latest sweep is a ListAll of them: read twice, it answers
// the lookups that follow.
func sweptReader(t *testing.T, n int) (*bulkEnv, []int64, *client.BulkReader) {
	t.Helper()
	env := newBulkEnv(t)
	ids := env.seed(n)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	return env, ids, b
}

// stepReader is a reader on n seeded websites for a test that moves the
// clock itself: Linger off, one page at a time, a standing clock.
func stepReader(t *testing.T, n int) (*bulkEnv, []int64, *testclock.Clock, *client.BulkReader) {
	t.Helper()
	env := newBulkEnv(t)
	ids := env.seed(n)
	clock := newFakeClock()
	return env, ids, clock, client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now})
}

// readsOrLookups makes n reads of ids (kind "reads") or n create checks
// of domains no website holds (kind "lookups"), step apart on clock.
func readsOrLookups(t *testing.T, b *client.BulkReader, clock *testclock.Clock, kind string, ids []int64, n int, step time.Duration) {
	t.Helper()
	for i := range n {
		if kind == "reads" {
			if _, err := b.Read(ctx(t), ids[i]); err != nil {
				t.Fatalf("read %d: %v", ids[i], err)
			}
		} else {
			d := fmt.Sprintf("new-%03d.example.net", i)
			if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
				t.Fatalf("FindHolders(%s): %v", d, err)
			}
		}
		clock.Advance(step)
	}
}

// readSweptReader is a reader on n seeded websites (Linger off, a
// standing clock) whose reads of each, one at a time, swept the list
// once: its pages read once (unverified), as an apply's refresh leaves
// them.
func readSweptReader(t *testing.T, n int) (*bulkEnv, []int64, *testclock.Clock, *client.BulkReader) {
	t.Helper()
	env := newBulkEnv(t)
	ids := env.seed(n)
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: clock.Now})
	for id, r := range readAll(t, b, ids, 1) {
		if r.err != nil {
			t.Fatalf("Read(%d): %v", id, r.err)
		}
	}
	if s := b.Stats(); s.Sweeps != 1 {
		t.Fatalf("premise: the reads made %d sweeps; %+v", s.Sweeps, s)
	}
	return env, ids, clock, b
}

package client_test

// This process's writes (Write) run concurrently with its
// lookups, reads and lists; no other client. Once every write has
// returned, every lookup must answer exactly what the server holds: the
// process knows every change (read-your-writes). WriteWait is tiny, so
// that writes also run beside fetches (unheld), as after a long
// Retry-After. Timing-dependent: BULK_OWN_CONC=1 (outside any gate).

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestOwnWritesExploreConcurrent(t *testing.T) {
	if os.Getenv("BULK_OWN_CONC") == "" {
		t.Skip("timing-dependent exploration: BULK_OWN_CONC=1")
	}
	runs := 10
	if s := os.Getenv("BULK_OWN_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	for run := range runs {
		concOwnOne(t, run)
		if t.Failed() {
			return
		}
	}
}

func concOwnOne(t *testing.T, run int) {
	rng := rand.New(rand.NewPCG(4444, uint64(run)))
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	wait := []time.Duration{time.Nanosecond, time.Millisecond, 0}[run%3]
	b := client.NewBulkReader(c, client.BulkReaderOptions{WriteWait: wait, PageConcurrency: 2, Linger: time.Millisecond, TTL: time.Minute})
	targets := []string{"t0.example", "t1.example", "t2.example"}
	n := []int{90, 180}[run%2]
	var mu sync.Mutex
	var ids []int64
	for i := range n {
		d := fmt.Sprintf("f%04d.example", i)
		if i%17 == 0 {
			d = targets[i%3]
		}
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID)
	}
	ever := map[string]map[int64]bool{}
	for _, d := range targets {
		ever[d] = map[int64]bool{}
	}
	for _, w := range emu.Websites() {
		if m := ever[w.Domain]; m != nil {
			m[w.ID] = true
		}
	}
	pick := func(r *rand.Rand) int64 { mu.Lock(); defer mu.Unlock(); return ids[r.IntN(len(ids))] }
	bg, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for wk := range 3 { // writers
		r := rand.New(rand.NewPCG(rng.Uint64(), uint64(wk)))
		wg.Go(func() {
			for range 25 {
				switch r.IntN(6) {
				case 3: // a delete whose answer is lost (made or not)
					id := pick(r)
					made := r.IntN(2) == 0
					_ = b.Write(bg, id, func() (*client.Website, error) {
						if made {
							_ = c.DeleteWebsite(bg, id)
						}
						return nil, errors.New("lost")
					})
				case 4: // a create whose answer is lost (made or not)
					d := targets[r.IntN(3)]
					_ = b.Write(bg, 0, func() (*client.Website, error) {
						if r.IntN(2) == 0 {
							if res, err := c.CreateWebsite(bg, client.WebsiteInput{Domain: d}); err == nil {
								mu.Lock()
								ids = append(ids, res.Website.ID)
								ever[d][res.Website.ID] = true
								mu.Unlock()
							}
						}
						return nil, errors.New("lost")
					})
				case 5: // a change outside Write, then Forget
					id := pick(r)
					_ = c.DeleteWebsite(bg, id)
					b.Forget(id)
				case 0:
					d := targets[r.IntN(3)]
					sent := d
					if r.IntN(2) == 0 {
						sent = "https://www." + strings.ToUpper(d)
					}
					_ = b.Write(bg, 0, func() (*client.Website, error) {
						res, err := c.CreateWebsite(bg, client.WebsiteInput{Domain: sent})
						if err != nil {
							return nil, err
						}
						mu.Lock()
						ids = append(ids, res.Website.ID)
						ever[d][res.Website.ID] = true
						mu.Unlock()
						return res.Website, nil
					})
				case 1:
					id := pick(r)
					_ = b.Write(bg, id, func() (*client.Website, error) {
						return c.UpdateWebsite(bg, id, client.WebsiteInput{Privacy: r.IntN(2)})
					})
				case 2:
					id := pick(r)
					_ = b.Write(bg, id, func() (*client.Website, error) { return nil, c.DeleteWebsite(bg, id) })
				}
			}
		})
	}
	var rwg sync.WaitGroup
	var answered [][2]any
	for wk := range 4 { // readers
		r := rand.New(rand.NewPCG(rng.Uint64(), 100+uint64(wk)))
		rwg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				d := targets[r.IntN(3)]
				var got []client.Website
				var err error
				switch r.IntN(5) {
				case 0:
					got, err = b.FindHolders(bg, d, func(s string) bool { return s == d })
				case 1:
					got, err = client.FindAllByDomain(b, bg, d)
				case 2:
					_, err = b.ListAll(bg, client.ListOptions{PerPage: client.MaxPerPage})
				default:
					_, err = b.Read(bg, pick(r))
					if errors.Is(err, client.ErrNotFound) {
						err = nil
					}
				}
				if err != nil && !errors.Is(err, client.ErrListChanged) {
					t.Errorf("run %d: %v", run, err)
				}
				mu.Lock()
				for _, w := range got {
					answered = append(answered, [2]any{d, w.ID}) // checked at the end: ever grows after a create returns
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(stop)
	rwg.Wait()
	for _, a := range answered {
		d, _ := a[0].(string)
		id, _ := a[1].(int64)
		if !ever[d][id] {
			t.Errorf("run %d: lookup of %s answered %d, which never held it", run, d, id)
		}
	}
	for _, d := range targets {
		var want []int64
		for _, w := range emu.Websites() {
			if w.Domain == d {
				want = append(want, w.ID)
			}
		}
		for _, how := range []string{"FindHolders", "FindAllByDomain"} {
			var ws []client.Website
			var err error
			if how == "FindHolders" {
				ws, err = b.FindHolders(bg, d, func(s string) bool { return s == d })
			} else {
				ws, err = client.FindAllByDomain(b, bg, d)
			}
			var got []int64
			for _, w := range ws {
				got = append(got, w.ID)
			}
			slices.Sort(got)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("run %d (wait %v, n %d): after every write returned, %s(%s) = %v, %v; the server holds %v; %+v", run, wait, n, how, d, got, err, want, b.Stats())
			}
		}
	}
}

package client_test

// Timing-dependent exploration (BULK_NOISE_EXPLORE=1, outside any
// gate). This process creates websites of three target domains (Write,
// half of them sent as "https://WWW.<UPPER>" and canonicalised by the
// server) while it looks the targets up (FindHolders, FindByDomain),
// lists (ListAll) and reads; another client creates and deletes websites
// of other domains (noise that shifts the list's pages). Checked: every
// answer holds only websites that held the domain (seeded or created by
// this process), always the seeded holders (held throughout), and, once
// every write has returned, exactly the server's holders. ErrListChanged
// is tolerated during the noise.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestOwnCreatesBesideNoiseExplore(t *testing.T) {
	if os.Getenv("BULK_NOISE_EXPLORE") == "" {
		t.Skip("timing-dependent exploration: BULK_NOISE_EXPLORE=1")
	}
	for run := range 6 {
		noiseExploreOne(t, run)
		if t.Failed() {
			return
		}
	}
}

func noiseExploreOne(t *testing.T, run int) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	wait := []time.Duration{0, time.Millisecond}[run%2]
	b := client.NewBulkReader(c, client.BulkReaderOptions{WriteWait: wait, PageConcurrency: 2, Linger: time.Millisecond, TTL: time.Minute})
	targets := []string{"t0.example", "t1.example", "t2.example"}
	seeded := map[string][]int64{}
	for i := range 180 {
		d := fmt.Sprintf("f%04d.example", i)
		if i%30 == 0 {
			d = targets[(i/30)%3]
		}
		w := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d})
		if slices.Contains(targets, d) {
			seeded[d] = append(seeded[d], w.ID)
		}
	}
	bg, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var (
		mu      sync.Mutex
		created = map[string][]int64{} // by this process, by stored domain
		wg      sync.WaitGroup
		errs    = make(chan string, 100)
	)
	for wk := range 3 { // this process's creates
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(run), uint64(wk)))
			for k := range 6 {
				d := targets[rng.IntN(3)]
				sent := fmt.Sprintf("w%d-%d.%s", wk, k, d) // a subdomain: never the target itself
				if k%2 == 0 {
					sent = d
				}
				if rng.IntN(2) == 0 {
					sent = "https://WWW." + strings.ToUpper(sent)
				}
				var got *client.Website
				_ = b.Write(bg, 0, func() (*client.Website, error) {
					res, err := c.CreateWebsite(bg, client.WebsiteInput{Domain: sent})
					if err != nil {
						return nil, err
					}
					got = res.Website
					return res.Website, nil
				})
				if got != nil {
					mu.Lock()
					created[got.Domain] = append(created[got.Domain], got.ID)
					mu.Unlock()
				}
			}
		})
	}
	stop := make(chan struct{})
	var noise sync.WaitGroup
	noise.Go(func() { // another client: other domains only
		rng := rand.New(rand.NewPCG(uint64(run), 99))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if rng.IntN(2) == 0 {
				emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("n%d-%d.example", run, i)})
			} else {
				for _, w := range emu.Websites() {
					if strings.HasPrefix(w.Domain, "n") {
						emu.DeleteWebsite(w.ID)
						break
					}
				}
			}
			time.Sleep(time.Millisecond)
		}
	})
	check := func(when, d string, got []int64, final bool) {
		mu.Lock()
		mine := slices.Clone(created[d])
		mu.Unlock()
		for _, id := range seeded[d] {
			if !slices.Contains(got, id) {
				errs <- fmt.Sprintf("run %d %s %s answered %v: seeded holder %d missing", run, when, d, got, id)
			}
		}
		for _, id := range got {
			if !slices.Contains(seeded[d], id) && !slices.Contains(mine, id) && final {
				errs <- fmt.Sprintf("run %d %s %s answered %v: %d never held it", run, when, d, got, id)
			}
		}
		if final {
			var want []int64
			for _, w := range emu.Websites() {
				if w.Domain == d {
					want = append(want, w.ID)
				}
			}
			g := slices.Clone(got)
			slices.Sort(g)
			slices.Sort(want)
			if !slices.Equal(g, want) {
				errs <- fmt.Sprintf("run %d %s %s answered %v; the server holds %v", run, when, d, got, want)
			}
		}
	}
	var lookups sync.WaitGroup
	for lk := range 3 {
		lookups.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(run), uint64(10+lk)))
			for range 15 {
				d := targets[rng.IntN(3)]
				switch rng.IntN(4) {
				case 0:
					if _, err := b.ListAll(bg, client.ListOptions{PerPage: client.MaxPerPage}); err != nil && !errors.Is(err, client.ErrListChanged) {
						errs <- fmt.Sprintf("run %d ListAll: %v", run, err)
					}
				default:
					ws, err := b.FindHolders(bg, d, func(s string) bool { return s == d })
					if err != nil {
						if !errors.Is(err, client.ErrListChanged) {
							errs <- fmt.Sprintf("run %d FindHolders(%s): %v", run, d, err)
						}
						continue
					}
					var got []int64
					for _, w := range ws {
						got = append(got, w.ID)
					}
					check("FindHolders", d, got, false)
				}
			}
		})
	}
	wg.Wait()
	lookups.Wait()
	close(stop)
	noise.Wait()
	for _, d := range targets { // every write returned, no other client: exact
		ws, err := b.FindHolders(bg, d, func(s string) bool { return s == d })
		if err != nil {
			errs <- fmt.Sprintf("run %d final FindHolders(%s): %v", run, d, err)
			continue
		}
		var got []int64
		for _, w := range ws {
			got = append(got, w.ID)
		}
		check("final FindHolders", d, got, true)
		all, err := client.FindAllByDomain(b, bg, d)
		if err != nil {
			errs <- fmt.Sprintf("run %d final FindAllByDomain(%s): %v", run, d, err)
			continue
		}
		got = got[:0]
		for _, w := range all {
			got = append(got, w.ID)
		}
		check("final FindAllByDomain", d, got, true)
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	t.Logf("run %d: %+v", run, b.Stats())
}

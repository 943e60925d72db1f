package client_test

// Randomized exploration with concurrent reads and lookups
// (LOOKUP_EXPLORE_CONC=1, LOOKUP_SEED=n for another seed than the
// default; timing-dependent, outside any gate).

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestBulkLookupExploreConcurrent(t *testing.T) {
	if os.Getenv("LOOKUP_EXPLORE_CONC") == "" {
		t.Skip("exploration")
	}
	rng := rand.New(rand.NewPCG(44, 22))
	if seed := os.Getenv("LOOKUP_SEED"); seed != "" {
		n, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			t.Fatalf("LOOKUP_SEED=%q: want a whole number", seed)
		}
		rng = rand.New(rand.NewPCG(n+1000, 23))
	}
	runs := 300
	if os.Getenv("LOOKUP_FAULTS") != "" {
		runs = 80
	}
	for run := range runs {
		h := []int{10, 120, 240}[rng.IntN(3)]
		p := []int{0, 99, 100, 150, 199, 200, 249}[rng.IntN(7)]
		if p == h {
			continue
		}
		kind := rng.IntN(3)
		at := 1 + rng.IntN(10)
		undo := at + 1 + rng.IntN(6)
		exploreConcOne(t, run, h, p, kind, at, undo)
	}
	t.Logf("%d lookup answers checked, %d lookup errors", exploreAnswers.Load(), exploreErrs.Load())
}

var exploreAnswers, exploreErrs atomic.Int64

func exploreConcOne(t *testing.T, run, h, p, kind, at, undoAt int) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	eo := emulator.Options{Clock: clock}
	if os.Getenv("LOOKUP_FAULTS") != "" { // answers are checked, errors tolerated
		eo.Faults = &emulator.Faults{Seed: uint64(run) + 1, ErrorRate: .08, ResetBeforeRate: .04, TruncateRate: .04, MalformedRate: .03, ErrorAfterCommitRate: .02}
	}
	emu, err := emulator.New(eo)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	name := func(i int) string { return fmt.Sprintf("s%03d.shop.example", i) }
	for i := range 250 {
		d := name(i)
		if i == h {
			d = exploreTarget
		}
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID)
	}
	do := func() {
		switch kind {
		case 0:
			emu.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
		case 1:
			emu.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = "gone.example" })
			emu.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
		case 2:
			emu.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
			emu.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = "gone.example" })
		}
	}
	undo := func() {
		emu.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = exploreTarget })
		emu.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = name(p) })
	}
	var smu sync.Mutex
	states := []string{exploreHolders(emu)}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			mu.Lock()
			n++
			k := n
			now = now.Add(time.Second)
			mu.Unlock()
			smu.Lock()
			switch k {
			case at:
				do()
				states = append(states, exploreHolders(emu))
			case undoAt:
				undo()
				states = append(states, exploreHolders(emu))
			}
			smu.Unlock()
		}
		emu.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	b := client.NewBulkReader(c, client.BulkReaderOptions{PageConcurrency: 2, Clock: newFakeClock().Now})
	var keys []string
	for i := range 250 {
		keys = append(keys, fmt.Sprint("r", i))
		if i%25 == 0 {
			keys = append(keys, "l")
		}
	}
	rand.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	var answers []string
	var amu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan string)
	for range 8 {
		wg.Go(func() {
			for k := range work {
				if k == "l" {
					ws, err := client.FindAllByDomain(b, context.Background(), exploreTarget)
					if errors.Is(err, client.ErrListChanged) {
						continue
					}
					if err != nil {
						exploreErrs.Add(1)
						if os.Getenv("LOOKUP_FAULTS") == "" {
							t.Errorf("run %d: lookup: %v", run, err)
						}
						continue
					}
					var got []int64
					for _, w := range ws {
						got = append(got, w.ID)
					}
					slices.Sort(got)
					amu.Lock()
					answers = append(answers, fmt.Sprint(got))
					amu.Unlock()
					continue
				}
				var i int
				_, _ = fmt.Sscanf(k, "r%d", &i)
				_, _ = b.Read(context.Background(), ids[i])
			}
		})
	}
	for _, k := range keys {
		work <- k
	}
	close(work)
	wg.Wait()
	smu.Lock()
	defer smu.Unlock()
	exploreAnswers.Add(int64(len(answers)))
	for _, a := range answers {
		if !slices.Contains(states, a) {
			t.Errorf("run %d (h%d p%d kind %d at %d undo %d): lookup answered %s, states %v; stats %+v", run, h, p, kind, at, undoAt, a, states, b.Stats())
		}
	}
}

package client_test

// A sequential (deterministic) explorer of this process's own
// writes (Write: creates, updates, deletes, failed and lost ones;
// Forget) mixed with other clients' changes, ListAll, FindHolders,
// FindAllByDomain and Read, on one fake clock shared by the emulator and
// the reader. Run with BULK_OWN_EXPLORE=1 (BULK_OWN_SEED=n, BULK_OWN_RUNS=n).
//
// Each lookup answer for domain d at step k is checked against the
// server's history since the last pause longer than the TTL (ws), where
// a website this process wrote (or forgot) is only judged from that
// write on (read-your-writes):
//   (a) every website answered held d at some step of its window;
//   (b) every website that held d at every step of its window is
//       answered;
//   (c) an empty answer needs a step of the window where no website held
//       d (a website this process wrote is judged from its write on).

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

func TestOwnWritesExplore(t *testing.T) {
	if os.Getenv("BULK_OWN_EXPLORE") == "" {
		t.Skip("exploration: BULK_OWN_EXPLORE=1")
	}
	seed := uint64(44)
	if s := os.Getenv("BULK_OWN_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seed = n
	}
	runs := 40
	if s := os.Getenv("BULK_OWN_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	for run := range runs {
		ownExploreOne(t, seed, run)
		if t.Failed() {
			return
		}
	}
}

type ownHist struct {
	// domain of each website after each step ("" = absent), by id
	states []map[int64]string
}

func (h *ownHist) at(k int, id int64) string { return h.states[k][id] }

func ownExploreOne(t *testing.T, seed uint64, run int) {
	rng := rand.New(rand.NewPCG(seed, uint64(run)))
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	emu, err := emulator.New(emulator.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: clock, PageConcurrency: 2})
	bg := context.Background()

	targets := []string{"t0.example", "t1.example", "t2.example"}
	n := []int{80, 150, 230}[rng.IntN(3)]
	for i := range n {
		d := fmt.Sprintf("f%04d.example", i)
		if rng.IntN(20) == 0 {
			d = targets[rng.IntN(len(targets))]
		}
		emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d})
	}
	snap := func() map[int64]string {
		m := map[int64]string{}
		for _, w := range emu.Websites() {
			m[w.ID] = w.Domain
		}
		return m
	}
	h := &ownHist{states: []map[int64]string{snap()}}
	ws := 0                  // first step of the window
	ownAt := map[int64]int{} // id -> step of this process's latest write or Forget
	lastOther := -1          // step of the latest change by another client
	var log []string
	randID := func() int64 {
		ids := []int64{}
		for id := range h.states[len(h.states)-1] {
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			return 1
		}
		slices.Sort(ids)
		return ids[rng.IntN(len(ids))]
	}
	fail := func(format string, args ...any) {
		t.Errorf("seed %d run %d n %d: "+format+"\nsteps:\n%s\nstats %+v", append([]any{seed, run, n}, append(args, strings.Join(log, "\n"), b.Stats())...)...)
	}
	checkLookup := func(k int, what, d string, got []int64, err error) {
		if err != nil {
			if errors.Is(err, client.ErrListChanged) {
				return
			}
			fail("step %d %s(%s): %v", k, what, d, err)
			return
		}
		// candidate ids: every id seen in the window
		ids := map[int64]bool{}
		for s := ws; s <= k; s++ {
			for id := range h.states[s] {
				ids[id] = true
			}
		}
		from := func(id int64) int { return max(ws, ownAt[id]) }
		for _, id := range got {
			ok := false
			for s := from(id); s <= k; s++ {
				ok = ok || h.at(s, id) == d
			}
			if !ok {
				fail("step %d %s(%s) answered %v: website %d did not hold it in steps %d..%d", k, what, d, got, id, from(id), k)
			}
		}
		for id := range ids {
			all := true
			for s := from(id); s <= k; s++ {
				all = all && h.at(s, id) == d
			}
			if all && !slices.Contains(got, id) {
				fail("step %d %s(%s) answered %v: website %d held it at every step %d..%d", k, what, d, got, id, from(id), k)
			}
		}
		if lastOther < ws && os.Getenv("BULK_OWN_STRICT") != "" {
			// No other client changed anything in the window: the
			// process knows every change, so the answer is the current
			// holders exactly.
			var want []int64
			for id, dom := range h.states[k] {
				if dom == d {
					want = append(want, id)
				}
			}
			slices.Sort(want)
			g := slices.Clone(got)
			slices.Sort(g)
			if !slices.Equal(g, want) {
				fail("step %d %s(%s) answered %v; no other client changed anything since step %d, and the server holds %v", k, what, d, got, ws, want)
			}
		}
		if len(got) == 0 {
			start := ws
			for id := range ids {
				if ownAt[id] > start {
					held := false
					for s := ws; s <= k; s++ {
						held = held || h.at(s, id) == d
					}
					if held {
						start = ownAt[id]
					}
				}
			}
			free := false
			for s := start; s <= k && !free; s++ {
				free = true
				for _, dom := range h.states[s] {
					if dom == d {
						free = false
					}
				}
			}
			if !free {
				fail("step %d %s(%s) answered none: no step %d..%d was without a holder", k, what, d, start, k)
			}
		}
	}
	errLost := errors.New("answer lost")
	steps := 60 + rng.IntN(60)
	for k := 1; k <= steps; k++ {
		advance(time.Second)
		op := rng.IntN(14)
		var desc string
		switch op {
		case 0: // own create through the API, sometimes in a form the server canonicalises
			d := targets[rng.IntN(len(targets))]
			sent := d
			if rng.IntN(2) == 0 {
				sent = "https://WWW." + strings.ToUpper(d)
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
				ownAt[got.ID] = k
				desc = fmt.Sprintf("own create %s -> %d", sent, got.ID)
			} else {
				desc = fmt.Sprintf("own create %s refused", sent)
			}
		case 1: // own update
			id := randID()
			_ = b.Write(bg, id, func() (*client.Website, error) {
				return c.UpdateWebsite(bg, id, client.WebsiteInput{Privacy: rng.IntN(2)})
			})
			ownAt[id] = k
			desc = fmt.Sprintf("own update %d", id)
		case 2: // own delete
			id := randID()
			err := b.Write(bg, id, func() (*client.Website, error) { return nil, c.DeleteWebsite(bg, id) })
			ownAt[id] = k
			desc = fmt.Sprintf("own delete %d (%v)", id, err)
		case 3: // own delete whose answer is lost (made or not)
			id := randID()
			made := rng.IntN(2) == 0
			_ = b.Write(bg, id, func() (*client.Website, error) {
				if made {
					emu.DeleteWebsite(id)
				}
				return nil, errLost
			})
			ownAt[id] = k
			desc = fmt.Sprintf("own lost delete %d (made %v)", id, made)
		case 4: // own create whose answer is lost (made or not)
			d := targets[rng.IntN(len(targets))]
			var id int64
			_ = b.Write(bg, 0, func() (*client.Website, error) {
				if rng.IntN(2) == 0 {
					id = emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID
				}
				return nil, errLost
			})
			if id > 0 {
				ownAt[id] = k
			}
			desc = fmt.Sprintf("own lost create %s -> %d", d, id)
		case 5: // own change made outside Write, then Forget
			id := randID()
			switch rng.IntN(3) {
			case 0:
				emu.DeleteWebsite(id)
			case 1:
				// An update keeps the domain (the API cannot rename):
				// a rename is another client's (case 6).
				emu.UpdateWebsite(id, func(w *emulator.Website) { p := rng.IntN(3); w.Privacy = &p })
			}
			b.Forget(id)
			ownAt[id] = k
			desc = fmt.Sprintf("own change + Forget %d", id)
		case 6: // another client
			lastOther = k
			id := randID()
			switch rng.IntN(4) {
			case 0:
				emu.DeleteWebsite(id)
				desc = fmt.Sprintf("other delete %d", id)
			case 1:
				d := targets[rng.IntN(len(targets))]
				emu.UpdateWebsite(id, func(w *emulator.Website) { w.Domain = d })
				desc = fmt.Sprintf("other rename %d -> %s", id, d)
			case 2:
				emu.UpdateWebsite(id, func(w *emulator.Website) { w.Domain = fmt.Sprintf("g%d.example", k) })
				desc = fmt.Sprintf("other rename %d away", id)
			case 3:
				d := targets[rng.IntN(len(targets))]
				w := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d})
				desc = fmt.Sprintf("other create %s -> %d", d, w.ID)
			}
		case 7:
			o := client.ListOptions{PerPage: []int{client.MaxPerPage, 10, 25}[rng.IntN(3)]}
			if rng.IntN(2) == 0 {
				o.SortBy, o.Sort = client.SortByDomain, client.SortAsc
			}
			_, err := b.ListAll(bg, o)
			desc = fmt.Sprintf("ListAll (%v)", err)
		case 8, 9:
			d := targets[rng.IntN(len(targets))]
			ws, err := b.FindHolders(bg, d, func(s string) bool { return s == d })
			var got []int64
			for _, w := range ws {
				got = append(got, w.ID)
			}
			desc = fmt.Sprintf("FindHolders %s = %v (%v)", d, got, err)
			log = append(log, fmt.Sprintf("%3d %s", k, desc))
			h.states = append(h.states, snap())
			checkLookup(k, "FindHolders", d, got, err)
			continue
		case 10:
			d := targets[rng.IntN(len(targets))]
			ws, err := client.FindAllByDomain(b, bg, d)
			var got []int64
			for _, w := range ws {
				got = append(got, w.ID)
			}
			desc = fmt.Sprintf("FindAllByDomain %s = %v (%v)", d, got, err)
			log = append(log, fmt.Sprintf("%3d %s", k, desc))
			h.states = append(h.states, snap())
			checkLookup(k, "FindAllByDomain", d, got, err)
			continue
		case 11: // a burst of reads
			for range 3 + rng.IntN(8) {
				id := randID()
				w, err := b.Read(bg, id)
				if err == nil && w.ID != id {
					fail("Read(%d) = %d", id, w.ID)
				}
			}
			desc = "reads"
		case 12:
			if rng.IntN(3) == 0 {
				advance(7 * time.Second)
				ws = k
				desc = "pause"
			} else {
				desc = "tick"
			}
		case 13: // one read, checked
			id := randID()
			w, err := b.Read(bg, id)
			log = append(log, fmt.Sprintf("%3d Read %d (%v)", k, id, err))
			h.states = append(h.states, snap())
			from := max(ws, ownAt[id])
			if errors.Is(err, client.ErrNotFound) {
				if h.at(k, id) != "" {
					fail("step %d Read(%d): not found, but it exists", k, id)
				}
			} else if err != nil {
				fail("step %d Read(%d): %v", k, id, err)
			} else {
				ok := false
				for s := from; s <= k; s++ {
					ok = ok || h.at(s, id) == w.Domain
				}
				if !ok {
					fail("step %d Read(%d) = %s, not its domain in steps %d..%d", k, id, w.Domain, from, k)
				}
			}
			continue
		}
		log = append(log, fmt.Sprintf("%3d %s", k, desc))
		h.states = append(h.states, snap())
	}
	if os.Getenv("BULK_OWN_VERBOSE") != "" {
		t.Logf("run %d: %+v", run, b.Stats())
	}
}

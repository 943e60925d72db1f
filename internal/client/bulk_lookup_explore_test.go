package client_test

// Exploration of the bulk reader's lookups by domain
// (LOOKUP_EXPLORE=1; outside any gate). Every change made before list
// request i and undone before request j must leave each lookup's answer
// equal to the holders of the domain at one of the moments the emulator
// went through, or an error saying the list changed.

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const exploreTarget = "t.shop.example"

type lookupExploreChange struct {
	name     string
	do, undo func(e *emulator.Emulator, ids []int64)
}

func exploreHolders(e *emulator.Emulator) string {
	var out []int64
	for _, w := range e.Websites() {
		if w.Owner == emulator.DefaultAPIKey && w.Domain == exploreTarget {
			out = append(out, w.ID)
		}
	}
	slices.Sort(out)
	return fmt.Sprint(out)
}

func TestBulkLookupExplore(t *testing.T) {
	if os.Getenv("LOOKUP_EXPLORE") == "" {
		t.Skip("exploration")
	}
	var changes []lookupExploreChange
	name := func(i int) string { return fmt.Sprintf("s%03d.shop.example", i) }
	hs, ps := []int{10, 120, 240}, []int{0, 99, 100, 150, 199, 200, 249}
	if os.Getenv("LOOKUP_SMALL") != "" {
		hs, ps = []int{120}, []int{0, 100, 249}
	}
	for _, h := range hs {
		for _, p := range ps {
			if p == h {
				continue
			}
			changes = append(changes,
				lookupExploreChange{fmt.Sprintf("h%d second holder %d", h, p), func(e *emulator.Emulator, ids []int64) {
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
				}, func(e *emulator.Emulator, ids []int64) {
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = name(p) })
				}},
				lookupExploreChange{fmt.Sprintf("h%d moves to %d", h, p), func(e *emulator.Emulator, ids []int64) {
					e.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = "gone.example" })
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
				}, func(e *emulator.Emulator, ids []int64) {
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = name(p) })
					e.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = exploreTarget })
				}},
				lookupExploreChange{fmt.Sprintf("h%d moves to %d (other order)", h, p), func(e *emulator.Emulator, ids []int64) {
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
					e.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = "gone.example" })
				}, func(e *emulator.Emulator, ids []int64) {
					e.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = exploreTarget })
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = name(p) })
				}},
				lookupExploreChange{fmt.Sprintf("h%d deleted, %d renamed in", h, p), func(e *emulator.Emulator, ids []int64) {
					e.DeleteWebsite(ids[h])
					e.UpdateWebsite(ids[p], func(w *emulator.Website) { w.Domain = exploreTarget })
				}, func(e *emulator.Emulator, ids []int64) {}},
			)
		}
		changes = append(changes,
			lookupExploreChange{fmt.Sprintf("h%d away", h), func(e *emulator.Emulator, ids []int64) {
				e.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = "gone.example" })
			}, func(e *emulator.Emulator, ids []int64) {
				e.UpdateWebsite(ids[h], func(w *emulator.Website) { w.Domain = exploreTarget })
			}},
			lookupExploreChange{fmt.Sprintf("h%d deleted, created again", h), func(e *emulator.Emulator, ids []int64) {
				e.DeleteWebsite(ids[h])
				e.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: exploreTarget})
			}, func(e *emulator.Emulator, ids []int64) {}},
		)
	}
	runs := 0
	for _, flow := range []string{"reads", "lookups", "listall"} {
		if f := os.Getenv("LOOKUP_FLOW"); f != "" && f != flow {
			continue
		}
		for _, ch := range changes {
			if c := os.Getenv("LOOKUP_CHANGE"); c != "" && !strings.Contains(ch.name, c) {
				continue
			}
			for i := 1; i <= 11; i++ {
				for j := i + 1; j <= 13; j++ {
					exploreExploreOne(t, flow, ch, i, j)
					runs++
				}
				exploreExploreOne(t, flow, ch, i, 0)
				runs++
			}
		}
	}
	t.Logf("%d runs", runs)
}

func exploreExploreOne(t *testing.T, flow string, ch lookupExploreChange, at, undoAt int) {
	// A run that takes a minute hangs: log every goroutine's stack.
	watchdog := time.AfterFunc(time.Minute, func() {
		buf := make([]byte, 1<<24)
		t.Errorf("%s %s at %d undo %d still runs after a minute:\n%s", flow, ch.name, at, undoAt, buf[:runtime.Stack(buf, true)])
	})
	defer watchdog.Stop()
	h := 0
	_, _ = fmt.Sscanf(ch.name, "h%d", &h)
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	emu, err := emulator.New(emulator.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range 250 {
		d := fmt.Sprintf("s%03d.shop.example", i)
		if i == h {
			d = exploreTarget
		}
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID)
	}
	states := []string{exploreHolders(emu)}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			mu.Lock()
			n++
			k := n
			now = now.Add(time.Second)
			mu.Unlock()
			switch k {
			case at:
				ch.do(emu, ids)
				states = append(states, exploreHolders(emu))
			case undoAt:
				ch.undo(emu, ids)
				states = append(states, exploreHolders(emu))
			}
		}
		emu.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	b := client.NewBulkReader(c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	check := func(what string) {
		var ws []client.Website
		var err error
		if os.Getenv("LOOKUP_HOLDERS") != "" {
			ws, err = b.FindHolders(ctx(t), exploreTarget, func(d string) bool { return d == exploreTarget })
		} else {
			ws, err = client.FindAllByDomain(b, ctx(t), exploreTarget)
		}
		if errors.Is(err, client.ErrListChanged) {
			return
		}
		if err != nil {
			t.Errorf("%s %s at %d undo %d, %s: %v", flow, ch.name, at, undoAt, what, err)
			return
		}
		var got []int64
		for _, w := range ws {
			got = append(got, w.ID)
		}
		slices.Sort(got)
		g := fmt.Sprint(got)
		if g == "[]" {
			g = "[]"
		}
		for _, s := range states {
			if s == g {
				return
			}
		}
		t.Errorf("%s %s at %d undo %d, %s: holders %s match no state %v (requests %d, stats %+v)", flow, ch.name, at, undoAt, what, g, states, n, b.Stats())
	}
	switch flow {
	case "reads":
		// A refresh newest first, one read at a time, then a lookup.
		for i := len(ids) - 1; i >= 0; i-- {
			if _, err := b.Read(ctx(t), ids[i]); err != nil && !errors.Is(err, client.ErrNotFound) {
				t.Errorf("%s %s: read %d: %v", flow, ch.name, ids[i], err)
			}
		}
		check("lookup after reads")
		check("second lookup")
	case "lookups":
		check("first lookup")
		for _, i := range []int{5, 130, 245, 60} {
			_, _ = client.FindAllByDomain(b, ctx(t), fmt.Sprintf("s%03d.shop.example", i))
		}
		check("lookup after others")
		check("last lookup")
	case "listall":
		if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil && !errors.Is(err, client.ErrListChanged) {
			t.Errorf("%s %s: ListAll: %v", flow, ch.name, err)
		}
		check("lookup after ListAll")
		check("second lookup")
	}
}

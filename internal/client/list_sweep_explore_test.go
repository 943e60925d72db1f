package client_test

// Exploration, outside the gate (SWEEP_EXPLORE=1; SWEEP_PAIRS=1 for random
// pairs of changes, SWEEP_NOTOTAL=1 for a server without meta.total,
// SWEEP_IDS=1 for membership alone): every change, made before list request i
// and undone before request j, must leave the sweep's answer equal to the
// list at one of the moments the emulator went through, or an error that
// says the list changed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

var exploreNoTotal, exploreIDsOnly bool

// exploreKey is what a state holds of a website: its id and domain, or
// its id alone (SWEEP_IDS: membership only).
func exploreKey(id int64, domain string) string {
	if exploreIDsOnly {
		return fmt.Sprint(id)
	}
	return fmt.Sprintf("%d %s", id, domain)
}

type exploreChange struct {
	name     string
	do, undo func(e *emulator.Emulator, ids []int64, outsiders []int64)
}

func exploreState(e *emulator.Emulator, search string) map[string]bool {
	out := map[string]bool{}
	for _, w := range e.Websites() {
		if w.Owner != emulator.DefaultAPIKey {
			continue
		}
		if search == "" || strings.Contains(strings.ToLower(w.Domain), strings.ToLower(search)) {
			out[exploreKey(w.ID, w.Domain)] = true
		}
	}
	return out
}

func TestSweepExplore(t *testing.T) {
	if os.Getenv("SWEEP_EXPLORE") == "" {
		t.Skip("exploration")
	}
	changes := []exploreChange{}
	for _, pos := range []int{249, 180, 150, 120, 99, 60, 10, 0} {
		changes = append(changes,
			exploreChange{fmt.Sprintf("out+in %d", pos), func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = "x.other.org" })
				e.UpdateWebsite(o[0], func(w *emulator.Website) { w.Domain = "o0.shop.example" })
			}, func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = fmt.Sprintf("s%03d.shop.example", pos) })
				e.UpdateWebsite(o[0], func(w *emulator.Website) { w.Domain = "o0.other.org" })
			}},
			exploreChange{fmt.Sprintf("out+in-new %d", pos), func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = "x.other.org" })
				e.UpdateWebsite(o[1], func(w *emulator.Website) { w.Domain = "a.shop.example" })
			}, func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = fmt.Sprintf("s%03d.shop.example", pos) })
				e.UpdateWebsite(o[1], func(w *emulator.Website) { w.Domain = "o1.other.org" })
			}},
			exploreChange{fmt.Sprintf("del+create %d", pos), func(e *emulator.Emulator, ids, o []int64) {
				e.DeleteWebsite(ids[pos])
				e.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "new.shop.example"})
			}, func(e *emulator.Emulator, ids, o []int64) {}},
			exploreChange{fmt.Sprintf("create/delete+out %d", pos), func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = "x.other.org" })
				e.Seed(emulator.DefaultAPIKey, emulator.Website{ID: 100000, Domain: "new.shop.example"})
			}, func(e *emulator.Emulator, ids, o []int64) {
				e.DeleteWebsite(100000)
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = fmt.Sprintf("s%03d.shop.example", pos) })
			}},
			exploreChange{fmt.Sprintf("move %d to z", pos), func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = "zz.shop.example" })
			}, func(e *emulator.Emulator, ids, o []int64) {
				e.UpdateWebsite(ids[pos], func(w *emulator.Website) { w.Domain = fmt.Sprintf("s%03d.shop.example", pos) })
			}},
		)
	}
	orders := []client.ListOptions{
		{Search: "shop.example"},
		{Search: "shop.example", SortBy: client.SortByID, Sort: client.SortAsc},
		{Search: "shop.example", SortBy: client.SortByDomain, Sort: client.SortAsc},
		{Search: "shop.example", SortBy: client.SortByDomain, Sort: client.SortDesc},
		{},
		{Sort: client.SortAsc},
		{SortBy: client.SortByDomain, Sort: client.SortAsc},
	}
	if os.Getenv("SWEEP_IDS") != "" {
		exploreIDsOnly = true
		orders = append(orders, client.ListOptions{SortBy: client.SortByDomain, Sort: client.SortDesc})
	}
	if os.Getenv("SWEEP_NOTOTAL") != "" {
		exploreNoTotal = true
	}
	if os.Getenv("SWEEP_PAIRS") != "" {
		rng := rand.New(rand.NewPCG(44, 21))
		for range 6000 {
			opts := orders[rng.IntN(len(orders))]
			var plan []exploreStep
			for range 2 {
				a := 1 + rng.IntN(10)
				u := a + 1 + rng.IntN(6)
				if rng.IntN(4) == 0 {
					u = 0
				}
				plan = append(plan, exploreStep{changes[rng.IntN(len(changes))], a, u})
			}
			if plan[0].ch.name == plan[1].ch.name {
				continue
			}
			explorePlan(t, opts, plan)
		}
		return
	}
	for _, opts := range orders {
		for _, ch := range changes {
			for i := 1; i <= 12; i++ {
				for j := i + 1; j <= 14; j++ {
					exploreOne(t, opts, ch, i, j)
				}
				exploreOne(t, opts, ch, i, 0) // never undone
			}
		}
	}
}

func exploreOne(t *testing.T, opts client.ListOptions, ch exploreChange, at, undoAt int) {
	explorePlan(t, opts, []exploreStep{{ch, at, undoAt}})
}

type exploreStep struct {
	ch         exploreChange
	at, undoAt int
}

func explorePlan(t *testing.T, opts client.ListOptions, plan []exploreStep) {
	ch, at, undoAt := plan[0].ch, plan[0].at, plan[0].undoAt
	for _, st := range plan[1:] {
		ch.name += " & " + fmt.Sprintf("%s@%d/%d", st.ch.name, st.at, st.undoAt)
	}
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	emu, err := emulator.New(emulator.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	var outsiders, ids []int64
	for i := range 3 {
		outsiders = append(outsiders, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("o%d.other.org", i)}).ID)
	}
	for i := range 250 {
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("s%03d.shop.example", i)}).ID)
	}
	states := []map[string]bool{exploreState(emu, opts.Search)}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" {
			mu.Lock()
			n++
			k := n
			now = now.Add(time.Second)
			mu.Unlock()
			for _, st := range plan {
				switch k {
				case st.at:
					st.ch.do(emu, ids, outsiders)
					states = append(states, exploreState(emu, opts.Search))
				case st.undoAt:
					st.ch.undo(emu, ids, outsiders)
					states = append(states, exploreState(emu, opts.Search))
				}
			}
		}
		if !exploreNoTotal || r.URL.Path != "/api/v1/websites" || r.Method != http.MethodGet {
			emu.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		emu.ServeHTTP(rec, r)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Error(err)
			return
		}
		meta, _ := body["meta"].(map[string]any)
		delete(meta, "total")
		delete(meta, "last_page")
		delete(meta, "to")
		delete(meta, "links")
		links, _ := body["links"].(map[string]any)
		delete(links, "last")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	ws, err := client.ListAllWebsites(c, ctx(t), opts)
	if errors.Is(err, client.ErrListChanged) {
		return
	}
	if err != nil {
		t.Errorf("%v %s at %d undo %d: %v", opts, ch.name, at, undoAt, err)
		return
	}
	got := map[string]bool{}
	for _, w := range ws {
		k := exploreKey(w.ID, w.Domain)
		if got[k] {
			t.Errorf("%v %s at %d undo %d: %s twice", opts, ch.name, at, undoAt, k)
		}
		got[k] = true
	}
	for _, s := range states {
		if len(s) == len(got) {
			same := true
			for k := range s {
				if !got[k] {
					same = false
					break
				}
			}
			if same {
				return
			}
		}
	}
	var diff []string
	for k := range got {
		if !states[0][k] {
			diff = append(diff, "+"+k)
		}
	}
	for k := range states[0] {
		if !got[k] {
			diff = append(diff, "-"+k)
		}
	}
	sort.Strings(diff)
	t.Errorf("%v %s at %d undo %d (requests %d): list matches no state; vs start: %v", opts, ch.name, at, undoAt, n, slices.Compact(diff))
}

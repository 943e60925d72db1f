package client_test

// ListAllWebsites under random changes and emulator faults
// (SWEEP_LIST_FAULTS=1; outside any gate). The list must be the list of
// one moment (ids with domains) or an error.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestListExploreFaults(t *testing.T) {
	if os.Getenv("SWEEP_LIST_FAULTS") == "" {
		t.Skip("exploration")
	}
	rng := rand.New(rand.NewPCG(7, 44))
	orders := []client.ListOptions{
		{PerPage: 100},
		{PerPage: 100, Sort: client.SortAsc},
		{PerPage: 100, SortBy: client.SortByDomain, Sort: client.SortAsc},
		{PerPage: 100, SortBy: client.SortByDomain, Sort: client.SortDesc},
		{PerPage: 100, Search: "shop.example"},
	}
	ok, errs := 0, 0
	for run := range 1500 {
		opts := orders[rng.IntN(len(orders))]
		a, b := rng.IntN(250), rng.IntN(250)
		kind := rng.IntN(4)
		at := 1 + rng.IntN(9)
		undo := at + 1 + rng.IntN(6)
		if rng.IntN(3) == 0 {
			undo = 0
		}
		good, err := exploreListOne(t, run, opts, a, b, kind, at, undo, rng.IntN(2) == 0)
		if err != nil {
			errs++
		} else if good {
			ok++
		}
	}
	t.Logf("%d lists checked, %d errors", ok, errs)
}

func exploreListOne(t *testing.T, run int, opts client.ListOptions, a, b, kind, at, undoAt int, faults bool) (bool, error) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	eo := emulator.Options{Clock: clock}
	if faults {
		eo.Faults = &emulator.Faults{Seed: uint64(run) + 1, ErrorRate: .06, ResetBeforeRate: .03, TruncateRate: .03, MalformedRate: .03}
	}
	emu, err := emulator.New(eo)
	if err != nil {
		t.Fatal(err)
	}
	name := func(i int) string { return fmt.Sprintf("s%03d.shop.example", i) }
	var ids []int64
	for i := range 250 {
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: name(i)}).ID)
	}
	out := emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "o.other.org"}).ID
	state := func() string {
		var ks []string
		for _, w := range emu.Websites() {
			if opts.Search != "" && !containsFold(w.Domain, opts.Search) {
				continue
			}
			ks = append(ks, fmt.Sprintf("%d %s", w.ID, w.Domain))
		}
		sort.Strings(ks)
		return fmt.Sprint(ks)
	}
	do := func() {
		switch kind {
		case 0: // swap domains of a and b through a rename each
			emu.UpdateWebsite(ids[a], func(w *emulator.Website) { w.Domain = "zz-" + name(a) })
			emu.UpdateWebsite(ids[b], func(w *emulator.Website) { w.Domain = "aa-" + name(b) })
		case 1: // out of the search and another in
			emu.UpdateWebsite(ids[a], func(w *emulator.Website) { w.Domain = "x.other.org" })
			emu.UpdateWebsite(out, func(w *emulator.Website) { w.Domain = "o.shop.example" })
		case 2:
			emu.DeleteWebsite(ids[a])
			emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "new.shop.example"})
		case 3:
			emu.UpdateWebsite(ids[a], func(w *emulator.Website) { w.Domain = name(b) }) // a takes b's domain
		}
	}
	undo := func() {
		switch kind {
		case 0:
			emu.UpdateWebsite(ids[a], func(w *emulator.Website) { w.Domain = name(a) })
			emu.UpdateWebsite(ids[b], func(w *emulator.Website) { w.Domain = name(b) })
		case 1:
			emu.UpdateWebsite(ids[a], func(w *emulator.Website) { w.Domain = name(a) })
			emu.UpdateWebsite(out, func(w *emulator.Website) { w.Domain = "o.other.org" })
		case 3:
			emu.UpdateWebsite(ids[a], func(w *emulator.Website) { w.Domain = name(a) })
		}
	}
	states := []string{state()}
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
				do()
				states = append(states, state())
			case undoAt:
				undo()
				states = append(states, state())
			}
		}
		emu.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	ws, err := client.ListAllWebsites(c, ctx(t), opts)
	if err != nil {
		if errors.Is(err, client.ErrListChanged) && len(states) == 1 {
			t.Errorf("run %d %+v faults %t: nothing changed (%d requests), yet: %v", run, opts, faults, n, err)
		}
		return false, err
	}
	var ks []string
	for _, w := range ws {
		ks = append(ks, fmt.Sprintf("%d %s", w.ID, w.Domain))
	}
	sort.Strings(ks)
	if slices.Contains(states, fmt.Sprint(ks)) {
		return true, nil
	}
	t.Errorf("run %d %+v kind %d a %d b %d at %d undo %d faults %t: %d websites match no state", run, opts, kind, a, b, at, undoAt, faults, len(ws))
	return false, nil
}

func containsFold(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexFold(s, sub) >= 0)
}

func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := range len(sub) {
			x, y := s[i+j], sub[j]
			if x|0x20 != y|0x20 {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

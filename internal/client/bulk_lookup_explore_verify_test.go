package client_test

// LOOKUP_EXPLORE's changes against the lookups that come
// after a refresh's sweep and make it read its pages again (fetchVerify),
// which the reads flow of TestBulkLookupExplore (two lookups) never
// reaches. LOOKUP_EXPLORE_VERIFY=1 (exploration, skipped by default).

import (
	"errors"
	"fmt"
	"net/http"
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

func TestBulkLookupExploreVerify(t *testing.T) {
	if os.Getenv("LOOKUP_EXPLORE_VERIFY") == "" {
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
	for _, flow := range exploreVerifyFlows() {
		for _, ch := range changes {
			for i := 1; i <= 14; i++ {
				for j := i + 1; j <= 16; j++ {
					exploreVerifyOne(t, flow, ch, i, j)
					runs++
				}
				exploreVerifyOne(t, flow, ch, i, 0)
				runs++
			}
		}
	}
	t.Logf("%d runs", runs)
}

func exploreVerifyOne(t *testing.T, flow string, ch lookupExploreChange, at, undoAt int) {
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
	holders := strings.HasPrefix(flow, "reads-holders")
	check := func(what string) {
		var ws []client.Website
		var err error
		if holders {
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
	// A refresh newest first, one read at a time (a sweep read once), then
	// lookups: the target's, three others (searches), then the target's
	// twice more: the fifth lookup outnumbers the sweep's 3 pages and reads
	// them again (fetchVerify).
	order := slices.Clone(ids)
	if !strings.HasSuffix(flow, "-asc") {
		slices.Reverse(order) // newest first
	}
	for _, id := range order {
		if _, err := b.Read(ctx(t), id); err != nil && !errors.Is(err, client.ErrNotFound) {
			t.Errorf("%s %s: read %d: %v", flow, ch.name, id, err)
		}
	}
	check("first lookup")
	for _, i := range []int{5, 130, 245} {
		if holders {
			d := fmt.Sprintf("s%03d.shop.example", i)
			_, _ = b.FindHolders(ctx(t), d, func(x string) bool { return x == d })
		} else {
			_, _ = client.FindAllByDomain(b, ctx(t), fmt.Sprintf("s%03d.shop.example", i))
		}
	}
	check("fifth lookup (verify)")
	check("sixth lookup")
	check("seventh lookup")
}

// exploreVerifyFlows are the flows explored: newest first reads, and oldest
// first (LOOKUP_ASC=1: the sweep begins with the last page).
func exploreVerifyFlows() []string {
	if os.Getenv("LOOKUP_ASC") != "" {
		return []string{"reads-verify-asc", "reads-holders-asc"}
	}
	return []string{"reads-verify", "reads-holders"}
}

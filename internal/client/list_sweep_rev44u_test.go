package client_test

// Review rev44u of issue 44 (commit 4659085): the sweep of every website,
// newest first with meta.total, still streams page by page because "ids
// only grow". That proves which ids the list held, not what domains they
// held: a lookup by domain served from that sweep is a search by another
// name, and renames make it read page 1 at one moment and page 2 at
// another, as for a search (list_sweep.go's own argument).

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// 150 websites: page 1 holds the newest 100, page 2 the oldest 50. Two
// websites hold dup.example.com: x (page 1) and z (page 2). Just before
// page 2 is read, another pipeline renames x, then z, away from it. At
// every moment the holders of dup.example.com were {x, z}, {z} or none:
// the lookup must refuse the ambiguous domain, find z, find none, or say
// the list changed. The sweep (analytics_websites without a search, whose
// ListAll serves the imports that follow) holds x with its old domain
// (page 1 read before the rename) and z with its new one (page 2 read
// after): the lookup adopts x, which never was the only holder and no
// longer holds the domain at all.
func TestRev44uListAllThenLookupMixesRenames(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	const dup = "dup.example.com"
	seed := func(d string) int64 { return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
	var ids []int64 // oldest first
	for i := range 150 {
		ids = append(ids, seed(fmt.Sprintf("w%03d.example.org", i)))
	}
	z, x := ids[10], ids[120] // z on page 2, x on page 1
	env.emu.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = dup })
	env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = dup })
	var once sync.Once
	var mu sync.Mutex
	var reads []int
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		mu.Lock()
		reads = append(reads, page)
		mu.Unlock()
		if page == 2 {
			once.Do(func() {
				env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x-now.example.org" })
				env.emu.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = "z-now.example.org" })
			})
		}
	})
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		if errors.Is(err, client.ErrListChanged) {
			return // said so
		}
		t.Fatal(err)
	}
	mu.Lock()
	t.Logf("list requests by page: %v", reads)
	mu.Unlock()
	w, err := b.FindByDomain(ctx(t), dup)
	var de *client.DuplicateDomainError
	switch {
	case errors.As(err, &de), errors.Is(err, client.ErrNotFound), errors.Is(err, client.ErrListChanged):
		return
	case err == nil && w.ID == z:
		return
	case err != nil:
		t.Fatal(err)
	}
	t.Errorf("FindByDomain(%q) after ListAll = website %d (%s); at no moment was it the only holder: "+
		"the holders were {%d, %d}, then {%d}, then none", dup, w.ID, w.Domain, x, z, z)
}

// The same through the bulk reader's own sweep (the imports of one run
// looking their domains up together): page 1 is reused and read again at
// the end (samePage), but pages 2..N are read once each. x (page 2) and z
// (page 4) hold dup.example.com; right before page 3 is read, another
// pipeline renames x, then z, away from it. The sweep holds x with its
// old domain and z with its new one, and the lookup adopts x.
func TestRev44uBulkSweepThenLookupMixesRenames(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450) // 5 pages; newest first, page 2 is ids[349..250]
	const dup = "dup.example.com"
	z, x := ids[100], ids[300] // page 4 and page 2
	env.emu.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = dup })
	env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = dup })
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.FindByDomain(ctx(t), "site-00001.example.com"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var mu sync.Mutex
	var reads []int
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		mu.Lock()
		reads = append(reads, page)
		mu.Unlock()
		if page == 3 {
			once.Do(func() {
				env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x-now.example.org" })
				env.emu.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = "z-now.example.org" })
			})
		}
	})
	lookupAll(t, b, domainsOf(env, ids[400:410]), 10)
	mu.Lock()
	t.Logf("list requests by page: %v; stats %+v", reads, b.Stats())
	mu.Unlock()
	w, err := b.FindByDomain(ctx(t), dup)
	var de *client.DuplicateDomainError
	switch {
	case errors.As(err, &de), errors.Is(err, client.ErrNotFound), errors.Is(err, client.ErrListChanged):
		return
	case err == nil && w.ID == z:
		return
	case err != nil:
		t.Fatal(err)
	}
	t.Errorf("FindByDomain(%q) after the sweep = website %d (%s); at no moment was it the only holder: "+
		"the holders were {%d, %d}, then {%d}, then none", dup, w.ID, w.Domain, x, z, z)
}

// Latent (no caller in the provider sends Favorite today): a list
// filtered by favorite is no more closed under "ids only grow" than a
// search (a website favorited joins it with an old id, one unfavorited
// leaves it, meta.total kept), yet sweepWebsites reads it once, page by
// page, as the unfiltered list. Just before page 2, another client
// unfavorites a website of page 1 and favorites the oldest website: page 2
// is read shifted by one, and its first website, a favorite throughout, is
// never returned.
func TestRev44uFavoriteSweepShifted(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	seed := func(d string, fav bool) int64 {
		return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d, Favorite: fav}).ID
	}
	outsider := seed("o.example.org", false)
	var favs []int64 // oldest first
	for i := range 150 {
		favs = append(favs, seed(fmt.Sprintf("f%03d.example.org", i), true))
	}
	yes := true
	probe, err := env.c.ListWebsites(ctx(t), client.ListOptions{Favorite: &yes, PerPage: client.MaxPerPage})
	if err != nil {
		t.Fatal(err)
	}
	if probe.Total != 150 {
		t.Skipf("the emulator did not filter by favorite: total %d", probe.Total)
	}
	x := favs[149] // page 1
	var once sync.Once
	env.hook(func(page int, after bool) {
		if page == 2 && !after {
			once.Do(func() {
				env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Favorite = false })
				env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Favorite = true })
			})
		}
	})
	ws, err := client.ListAllWebsites(env.c, ctx(t), client.ListOptions{Favorite: &yes, PerPage: client.MaxPerPage})
	if errors.Is(err, client.ErrListChanged) {
		return // said so
	}
	if err != nil {
		t.Fatal(err)
	}
	wantEveryListed(t, ws, favs, x)
}

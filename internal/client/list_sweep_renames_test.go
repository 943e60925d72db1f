package client_test

// A sweep of every website newest first, with renames between its pages:
// "ids only grow" proves which ids the list held, not what domains they
// held, and a lookup by domain served from the sweep needs the domains of
// one moment. Also a list filtered by favorite, which, as a search, is not
// closed under "ids only grow".

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
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
func TestListAllThenLookupAfterRenamesAcrossPages(t *testing.T) {
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
func TestBulkSweepThenLookupAfterRenamesAcrossPages(t *testing.T) {
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
func TestListAllFavoriteShifted(t *testing.T) {
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

// A refresh sweeps the list by reading every website (its pages read
// once: reads by id need no more), and lookups by domain follow in the
// same burst. The first five search (one request each, as a lookup alone
// would); the sixth outnumbers the sweep's pages and reads every page again
// (verifyPages) before the sweep answers it. Unchanged, that costs the
// pages once more and the lookups nothing else. When another pipeline renamed x (page 2) and then
// z (page 4) away from their shared domain between the sweep's page reads,
// the pages read differently, the sweep answers no lookup, and the lookup
// searches: the domain is held by none.
func TestBulkSweepVerifiedForLookupsAfterReads(t *testing.T) {
	t.Parallel()
	for _, renamed := range []bool{false, true} {
		t.Run(fmt.Sprint("renamed=", renamed), func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(450) // 5 pages; newest first, page 2 is ids[349..250]
			const dup = "dup.example.com"
			z, x := ids[100], ids[300] // page 4 and page 2
			env.emu.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = dup })
			env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = dup })
			var once sync.Once
			var lists atomic.Int64
			env.hook(func(page int, after bool) {
				if after {
					return
				}
				lists.Add(1)
				if renamed && page == 3 {
					once.Do(func() {
						env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x-now.example.org" })
						env.emu.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = "z-now.example.org" })
					})
				}
			})
			// One page at a time: page 2 is read before the renames, page 4
			// after them.
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
			if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe
				t.Fatal(err)
			}
			for id, r := range readAll(t, b, ids[1:], 50) {
				if r.err != nil {
					t.Fatalf("read %d: %v", id, r.err)
				}
			}
			// One sweep of 5 pages; page 1 once more when the first reads
			// fetched it alone before the sweep began (goroutine timing, seen
			// under load: the page-1 re-read a refresh at -parallelism=1 pays
			// too).
			swept := lists.Load()
			st := b.Stats()
			if st.Sweeps != 1 || swept < 5 || swept > 6 {
				t.Fatalf("the refresh sent %d list requests, stats %+v; want one sweep of 5 pages", swept, st)
			}
			for _, d := range domainsOf(env, ids[200:205]) {
				if _, err := b.FindByDomain(ctx(t), d); err != nil {
					t.Fatal(err)
				}
			}
			if st := b.Stats(); st.Searches != 5 {
				t.Fatalf("stats %+v; want five searches before the sweep is read again", st)
			}
			w, err := b.FindByDomain(ctx(t), dup)
			st = b.Stats()
			t.Logf("list requests after the refresh %d, stats %+v", lists.Load()-swept, st)
			if !renamed {
				var de *client.DuplicateDomainError
				if !errors.As(err, &de) {
					t.Errorf("FindByDomain(%q) = %v, %v; want a DuplicateDomainError (%d and %d)", dup, w, err, x, z)
				}
				if n := lists.Load() - swept; n != 10 || st.Searches != 5 {
					t.Errorf("the lookups after the sweep sent %d list requests (%d searches); want 5 searches and the 5 pages again", n, st.Searches)
				}
				return
			}
			if !errors.Is(err, client.ErrNotFound) {
				t.Errorf("FindByDomain(%q) = %v, %v; want not found (x and z were both renamed away)", dup, w, err)
			}
			if st.Searches != 6 || st.Changed != 1 {
				t.Errorf("stats %+v; want the pages found changed and a sixth search", st)
			}
		})
	}
}

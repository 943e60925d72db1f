package client_test

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A sweep that starts from a first page read earlier does not serve a
// website deleted since (here one of the oldest and one of the newest) and
// does not miss one created since, although the total is as it was: the
// two creates shift the later pages, which then do not agree with the old
// page 1, and the reads sweep once more. (A delete on page 1 alone shifts
// no later page: TestBulkReaderOldFirstPageDeleteOnPage1Only, where only
// the second read of page 1 at the end of the sweep shows it.)
func TestBulkReaderSweepAfterOldFirstPage(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450) // 5 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	// The probe GET, then the first page alone: two reads do not pay for
	// the other four pages.
	readAll(t, b, ids[200:202], 1)
	if s := b.Stats(); s.Pages != 1 || s.Sweeps != 0 {
		t.Fatalf("stats after two reads: %+v, want the first page only", s)
	}
	deleted := []int64{ids[5], ids[445]}
	for _, id := range deleted {
		env.emu.DeleteWebsite(id)
	}
	created := env.seed(2) // the total is as it was
	// Read the deleted websites last, after the sweep.
	var order []int64
	for _, id := range ids[202:] {
		if !slices.Contains(deleted, id) {
			order = append(order, id)
		}
	}
	order = append(order, ids[:200]...)
	got := readAll(t, b, order, 10)
	for _, id := range deleted {
		w, err := b.Read(ctx(t), id)
		if !errors.Is(err, client.ErrNotFound) {
			t.Errorf("Read(%d) of a website deleted before the sweep = %+v, %v; want not found", id, w, err)
		}
	}
	for _, id := range created {
		if r := got[id]; r.err != nil {
			t.Errorf("Read(%d): %v", id, r.err)
		}
	}
	checkSameAsGet(t, env.c, got)
	// The sweep that saw the change is followed by one that holds: the
	// reads are not each an individual GET.
	if s := b.Stats(); s.Changed != 1 || s.Sweeps != 1 || s.Gets > 10 {
		t.Errorf("stats: %+v; want one sweep that saw the change, then one that held, and few GETs", s)
	}
}

// A lookup by a domain that two websites share is refused even when a
// delete between the first page and the rest of the sweep moved one of them
// onto a page already read.
func TestFindByDomainAmbiguousAfterShift(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450)
	const shared = "shared.example.com"
	// The first of the second page by ascending id, and one further on.
	env.emu.UpdateWebsite(ids[100], func(w *emulator.Website) { w.Domain = shared })
	env.emu.UpdateWebsite(ids[300], func(w *emulator.Website) { w.Domain = shared })
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	// One lookup reads the first page (and searches).
	if _, err := b.FindByDomain(ctx(t), "site-00001.example.com"); err != nil {
		t.Fatal(err)
	}
	// Another pipeline deletes a website of the first page (both ends)
	// and creates two.
	env.emu.DeleteWebsite(ids[5])
	env.emu.DeleteWebsite(ids[445])
	env.seed(2)
	// The imports of a run look their domains up together: a sweep.
	domains := domainsOf(env, []int64{ids[10], ids[20], ids[30], ids[40], ids[50], ids[60]})
	lookupAll(t, b, domains, 6)
	_, err := b.FindByDomain(ctx(t), shared)
	var dup *client.DuplicateDomainError
	if !errors.As(err, &dup) || !slices.Equal(dup.IDs, []int64{ids[100], ids[300]}) {
		t.Errorf("FindByDomain(%q) = %v; want both websites named (ids %d, %d)", shared, err, ids[100], ids[300])
	}
	t.Logf("%+v", b.Stats())
}

// A full list in any order misses no website that existed throughout,
// when a delete and a create between two pages keep meta.total.
func TestListAllWebsitesDeleteAndCreateBetweenPages(t *testing.T) {
	t.Parallel()
	for _, opts := range []client.ListOptions{
		{SortBy: client.SortByID, Sort: client.SortAsc},
		{SortBy: client.SortByDomain, Sort: client.SortAsc},
		{SortBy: client.SortByDomain, Sort: client.SortDesc},
		{},
	} {
		t.Run(opts.SortBy+" "+opts.Sort, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(250)
			var once sync.Once
			var gone int64
			env.hook(func(page int, after bool) {
				if page == 2 && !after {
					once.Do(func() {
						// Delete a website of the first page in this order,
						// and create one: the total stays.
						p, err := env.c.ListWebsites(ctx(t), client.ListOptions{SortBy: opts.SortBy, Sort: opts.Sort, PerPage: 100})
						if err != nil {
							t.Error(err)
							return
						}
						gone = p.Websites[3].ID
						env.emu.DeleteWebsite(gone)
						env.seed(1)
					})
				}
			})
			ws, err := client.ListAllWebsites(env.c, ctx(t), opts)
			if err != nil {
				t.Fatal(err)
			}
			wantEveryListed(t, ws, ids, gone)
		})
	}
}

// The whole list oldest first costs its pages alone, as newest first does:
// it is read newest first, where the pages check each other, and handed
// over in reverse (TestAccGuide_adoptQuery's terraform query sorts so).
func TestListAllWebsitesOldestFirstCostsThePages(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250)
	var requests atomic.Int32
	env.hook(func(_ int, after bool) {
		if !after {
			requests.Add(1)
		}
	})
	ws, err := client.ListAllWebsites(env.c, ctx(t), client.ListOptions{SortBy: client.SortByID, Sort: client.SortAsc})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int64, len(ws))
	for i, w := range ws {
		got[i] = w.ID
	}
	if !slices.Equal(got, ids) {
		t.Errorf("oldest first listed %v, want %v", got, ids)
	}
	if n := requests.Load(); n != 6 {
		t.Errorf("oldest first cost %d list requests for 250 websites, want 6 (its pages, twice)", n)
	}
}

// wantEveryListed fails t for each website of ids but except (one that
// did not exist throughout) that the list ws misses.
func wantEveryListed(t *testing.T, ws []client.Website, ids []int64, except int64) {
	t.Helper()
	got := map[int64]bool{}
	for _, w := range ws {
		got[w.ID] = true
	}
	for _, id := range ids {
		if id != except && !got[id] {
			t.Errorf("website %d, which existed throughout, is missing from the list (%d websites)", id, len(ws))
		}
	}
}

// A complete sweep holds two websites that share a domain. This process
// then changes one of them (Write, which forgets it: its domain may have
// changed or not). A lookup by the shared domain is answered from what is
// left of the sweep: the other website alone, adopted silently, where an
// exact search (or the sweep before the change) refuses the ambiguous
// domain. A forgotten website makes the sweep incomplete for every domain,
// not only for the websites it still holds.
func TestFindByDomainAfterForgetRefusesSharedDomain(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(150)
	const shared = "shared.example.com"
	env.emu.UpdateWebsite(ids[10], func(w *emulator.Website) { w.Domain = shared })
	env.emu.UpdateWebsite(ids[120], func(w *emulator.Website) { w.Domain = shared })
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	// An unfiltered list (analytics_websites) is a complete sweep.
	if _, err := b.ListAll(ctx(t), client.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.FindByDomain(ctx(t), shared); !errors.As(err, new(*client.DuplicateDomainError)) {
		t.Fatalf("FindByDomain(%q) before the change = %v; want a DuplicateDomainError", shared, err)
	}
	// This process updates one of them; its domain stays.
	if err := b.Write(ctx(t), ids[120], func() (*client.Website, error) {
		return env.c.GetWebsite(ctx(t), ids[120]) // stands for the PUT: the server keeps the domain
	}); err != nil {
		t.Fatal(err)
	}
	w, err := b.FindByDomain(ctx(t), shared)
	if !errors.As(err, new(*client.DuplicateDomainError)) {
		id := int64(0)
		if w != nil {
			id = w.ID
		}
		t.Errorf("FindByDomain(%q) after this process changed website %d = website %d, %v; "+
			"want a DuplicateDomainError (websites %d and %d hold the domain)", shared, ids[120], id, err, ids[10], ids[120])
	}
}

// MySQL before 8.0 recomputes AUTO_INCREMENT as max(id)+1 when it
// restarts: with a gap below the newest id (a website deleted long ago),
// deleting a website and the newest one, a restart and two creates give
// back the same newest id and the same total. A list in another order
// than newest first then compares equal marks before and after its pages,
// and misses a website that existed throughout.
func TestListAllWebsitesIDReusedAfterRestart(t *testing.T) {
	t.Parallel()
	for _, opts := range []client.ListOptions{
		{SortBy: client.SortByDomain, Sort: client.SortAsc},
		{SortBy: client.SortByID, Sort: client.SortAsc},
	} {
		t.Run(opts.SortBy+" "+opts.Sort, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(250)
			newest := ids[len(ids)-1]
			env.emu.DeleteWebsite(ids[len(ids)-2]) // long ago: a gap below the newest
			var once sync.Once
			var gone int64
			env.hook(func(page int, after bool) {
				if page != 2 || after {
					return
				}
				once.Do(func() {
					p, err := env.c.ListWebsites(ctx(t), client.ListOptions{SortBy: opts.SortBy, Sort: opts.Sort, PerPage: 100})
					if err != nil {
						t.Error(err)
						return
					}
					gone = p.Websites[3].ID
					env.emu.DeleteWebsite(gone)
					env.emu.DeleteWebsite(newest)
					// The database restarts: the next ids are newest-1, then newest again.
					env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{ID: newest - 1, Domain: "zzz-new1.example.com"})
					env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{ID: newest, Domain: "zzz-new2.example.com"})
				})
			})
			ws, err := client.ListAllWebsites(env.c, ctx(t), opts)
			if err != nil {
				return // said it is not a snapshot: fine
			}
			got := map[int64]bool{}
			for _, w := range ws {
				got[w.ID] = true
			}
			for _, id := range ids[:len(ids)-2] {
				if id != gone && !got[id] {
					t.Errorf("website %d, which existed throughout, is missing from the list (%d websites), and no error", id, len(ws))
				}
			}
		})
	}
}

// A refresh that reads its websites oldest first, one at a time (terraform
// -parallelism=1 over websites created in order), costs the floor when
// nothing changes: one GET, then ⌈N/100⌉ pages, and page 1 once more, read
// again at the end because the sweep began with a page 1 read before it
// (7 requests for 500; 6 before that second read; 10 when the sweep read
// pages in another order).
func TestBulkReaderOldestFirstAtTheFloor(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500)
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	readAll(t, b, ids, 1)
	total, list, show := env.requests()
	if total > 7 {
		t.Errorf("500 reads oldest first, nothing changed: %d requests (%d list, %d show), want at most 7; %+v", total, list, show, b.Stats())
	}
}

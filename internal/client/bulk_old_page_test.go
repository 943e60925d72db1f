package client_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A sweep that starts from a first page read earlier
// must not serve a website deleted after that page was read: here only a
// website of the first page is deleted and one created (the total stays,
// and the later pages do not shift), so the later pages agree with the
// old first page.
func TestBulkReaderOldFirstPageDeleteOnPage1Only(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450) // 5 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	readAll(t, b, ids[200:202], 1) // the probe GET, then the first page alone
	if s := b.Stats(); s.Pages != 1 || s.Sweeps != 0 {
		t.Fatalf("stats after two reads: %+v, want the first page only", s)
	}
	deleted := ids[445] // on the first page, newest first
	env.emu.DeleteWebsite(deleted)
	env.seed(1) // the total is as it was
	var order []int64
	for _, id := range ids[202:] {
		if id != deleted {
			order = append(order, id)
		}
	}
	order = append(order, ids[:200]...)
	readAll(t, b, order, 10)
	t.Logf("stats: %+v", b.Stats())
	w, err := b.Read(ctx(t), deleted)
	if !errors.Is(err, client.ErrNotFound) {
		t.Errorf("Read(%d) of a website deleted before the sweep = %+v, %v; want not found", deleted, w, err)
	}
}

// The import-by-domain form of the same: a lookup served by a sweep that
// reused an old first page adopts a website deleted before the sweep's
// other pages were read (the issue's "an import by for_each adopts a
// website deleted before the sweep").
func TestFindByDomainOldFirstPageAdoptsDeleted(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	// One lookup reads the first page (and searches).
	if _, err := b.FindByDomain(ctx(t), "site-00001.example.com"); err != nil {
		t.Fatal(err)
	}
	deleted := ids[440] // on the first page, newest first
	gone := domainsOf(env, []int64{deleted})[0]
	env.emu.DeleteWebsite(deleted)
	env.seed(1) // the total is as it was
	lookupAll(t, b, domainsOf(env, []int64{ids[10], ids[20], ids[30], ids[40], ids[50], ids[60]}), 6)
	t.Logf("stats: %+v", b.Stats())
	w, err := b.FindByDomain(ctx(t), gone)
	if !errors.Is(err, client.ErrNotFound) {
		t.Errorf("FindByDomain(%q) of a website deleted before the sweep = %+v, %v; want not found", gone, w, err)
	}
}

// sort = "asc" without sort_by is oldest first by id (the API's and the
// schema's default sort_by): it costs the pages read twice, as sort_by =
// "id" does (TestListAllWebsitesOldestFirstCostsThePages), not two more
// requests for the marks.
func TestListAllWebsitesOldestFirstDefaultSortByCostsThePages(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(250)
	var requests atomic.Int32
	env.hook(func(_ int, after bool) {
		if !after {
			requests.Add(1)
		}
	})
	if _, err := client.ListAllWebsites(env.c, ctx(t), client.ListOptions{Sort: client.SortAsc}); err != nil {
		t.Fatal(err)
	}
	if n := requests.Load(); n != 6 {
		t.Errorf("sort asc (default sort_by) cost %d list requests for 250 websites, want 6 (its pages, twice)", n)
	}
}

// The same old first page lets an import by a domain that two websites
// share adopt one of them: the twin was created (and another website of
// the first page deleted, so the total and the later pages stay) after
// the first page was read, before the sweep's other pages.
func TestFindByDomainOldFirstPageMissesNewTwin(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.FindByDomain(ctx(t), "site-00001.example.com"); err != nil {
		t.Fatal(err)
	}
	shared := domainsOf(env, []int64{ids[100]})[0]
	env.emu.DeleteWebsite(ids[440]) // on the first page
	twin := env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: shared})
	lookupAll(t, b, domainsOf(env, []int64{ids[10], ids[20], ids[30], ids[40], ids[50], ids[60]}), 6)
	w, err := b.FindByDomain(ctx(t), shared)
	var dup *client.DuplicateDomainError
	if !errors.As(err, &dup) {
		t.Errorf("FindByDomain(%q) = %+v, %v; want both websites named (ids %d, %d): the server holds both", shared, w, err, ids[100], twin.ID)
	}
}

// The old first page is served past the TTL: reads that go on a few
// seconds apart keep one burst, and the sweep that follows reuses a first
// page read 12 s earlier (the TTL is 5 s), serving a website deleted
// before the sweep began. An individual read would have been sent then.
func TestBulkReaderOldFirstPagePastTTL(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450)
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: clock.Now})
	readAll(t, b, ids[200:202], 1) // t=0: the probe GET, then the first page
	clock.Advance(4 * time.Second)
	readAll(t, b, ids[202:203], 1) // t=4: one read, individually
	clock.Advance(4 * time.Second)
	readAll(t, b, ids[203:204], 1) // t=8: the same
	deleted := ids[445]            // on the first page
	env.emu.DeleteWebsite(deleted)
	env.seed(1) // the total is as it was
	clock.Advance(4 * time.Second)
	var order []int64 // t=12: the rest of the refresh
	for _, id := range ids[204:] {
		if id != deleted {
			order = append(order, id)
		}
	}
	readAll(t, b, order, 10)
	w, err := b.Read(ctx(t), deleted)
	if !errors.Is(err, client.ErrNotFound) {
		t.Errorf("Read(%d), website deleted 3 s before the sweep, = %+v, %v; want not found (stats %+v)", deleted, w, err, b.Stats())
	}
}

// The old first page serves old values too: a website of that page
// changed in the web interface 3 s before the sweep (no create, no
// delete) is served as it was 12 s earlier, so the plan compares the
// configuration with settings the server no longer holds. (A re-read of
// the first page that compares ids alone would not see this.)
func TestBulkReaderOldFirstPageServesOldValue(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450)
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 1, Linger: -1, Clock: clock.Now})
	readAll(t, b, ids[200:202], 1) // t=0: the probe GET, then the first page
	clock.Advance(4 * time.Second)
	readAll(t, b, ids[202:203], 1)
	clock.Advance(4 * time.Second)
	readAll(t, b, ids[203:204], 1)
	changed := ids[445] // on the first page
	env.emu.UpdateWebsite(changed, func(w *emulator.Website) { w.ExcludeIPs = "9.9.9.9" })
	clock.Advance(4 * time.Second)
	readAll(t, b, ids[204:], 10) // t=12: the rest of the refresh, changed included
	w, err := b.Read(ctx(t), changed)
	if err != nil || len(w.ExcludeIPs) != 1 || w.ExcludeIPs[0] != "9.9.9.9" {
		t.Errorf("Read(%d), changed 3 s before the sweep, = %+v, %v; want exclude_ips [9.9.9.9] (stats %+v)", changed, w, err, b.Stats())
	}
}

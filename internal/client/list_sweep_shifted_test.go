package client_test

// A search read page by page while another client renames, deletes and
// creates websites. Checking each page only against a second read of the
// page before it missed a change undone before that read: the last page
// stayed shifted, a website that matched throughout went missing and one
// that matched only for a moment was listed. The pages are now read
// twice, all of them and then all again.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A search of three pages (250 matches, newest first). Just before page 3
// is first read, another pipeline renames a match of page 1 out of the
// search and an old website (not matched) into it: meta.total stays, every
// page shifts up by one, and page 3 is read without its first website (now
// the last of page 2, already read). Before the next request, it renames
// both back. The earlier design (each page checked only by a second read of
// the page before it) handed over the list without a website that matched,
// unchanged, throughout, and with one that matched only for a moment.
func TestSearchSweepLastPageShiftedAndUndone(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	seed := func(d string) int64 { return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
	outsider := seed("o.other.org") // oldest, not matched
	var all []int64                 // oldest first
	for i := range 250 {
		all = append(all, seed(fmt.Sprintf("s%03d.shop.example", i)))
	}
	x := all[249] // newest: first of page 1
	change := shiftAndUndo(3, func() {
		env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x.other.org" })
		env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.shop.example" })
	}, func() {
		env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "s249.shop.example" })
		env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.other.org" })
	})
	var mu sync.Mutex
	var reads []int
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		mu.Lock()
		reads = append(reads, page)
		mu.Unlock()
		change(page)
	})
	ws, err := client.ListAllWebsites(env.c, ctx(t), client.ListOptions{Search: "shop.example"})
	mu.Lock()
	t.Logf("list requests by page: %v", reads)
	mu.Unlock()
	if errors.Is(err, client.ErrListChanged) {
		return // said so: fine
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.ID == outsider {
			t.Errorf("website %d (o.other.org) is listed, which matched the search only between two page reads", outsider)
		}
	}
	wantEveryListed(t, ws, all, 0)
}

// The same without meta.total (a server that sends links.next only, which
// ListWebsites accepts, Total -1): just before page 3 is first read, a
// delete of a website of page 1 shifts page 3 up by one, and a create
// (newest: before page 1) before the next request shifts it back. The
// earlier design never returned the first website of page 3, although it
// existed throughout.
func TestListAllWithoutTotalDeleteThenCreate(t *testing.T) {
	t.Parallel()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64 // oldest first
	for i := range 250 {
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("t%03d.example.com", i)}).ID)
	}
	srv, reads := deleteThenCreateWithoutTotal(t, emu, ids[240]) // on page 1
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	ws, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{})
	t.Logf("list requests by page: %v", reads())
	if errors.Is(err, client.ErrListChanged) {
		return // said so
	}
	if err != nil {
		t.Fatal(err)
	}
	wantEveryListed(t, ws, ids, ids[240])
}

// The same through the exact lookup by domain (import by domain): two
// websites hold dup.example.com throughout, one of them the first website
// of page 3 of the search. The change made and undone between page reads
// hides it, and the lookup adopts the other one without a word instead of
// refusing the ambiguous domain.
func TestFindByDomainLastPageShiftedAndUndone(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	const dup = "dup.example.com"
	seed := func(d string) int64 { return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
	outsider := seed("o.other.org")
	first := seed(dup) // the oldest match: last of page 3
	for i := range 48 {
		seed(fmt.Sprintf("a%03d.%s", i, dup))
	}
	second := seed(dup) // 201st match newest first: first of page 3
	var x int64
	for i := range 200 {
		x = seed(fmt.Sprintf("b%03d.%s", i, dup))
	}
	change := shiftAndUndo(3, func() {
		env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x.other.org" })
		env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o." + dup })
	}, func() {
		env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "b199." + dup })
		env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.other.org" })
	})
	var mu sync.Mutex
	var reads []int
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		mu.Lock()
		reads = append(reads, page)
		mu.Unlock()
		change(page)
	})
	w, err := env.c.FindWebsiteByDomain(ctx(t), dup)
	var de *client.DuplicateDomainError
	if errors.As(err, &de) || errors.Is(err, client.ErrListChanged) {
		return
	}
	got := "none"
	if w != nil {
		got = fmt.Sprint(w.ID)
	}
	t.Errorf("FindWebsiteByDomain(%q) = website %s, %v; want a DuplicateDomainError naming %d and %d "+
		"(both held the domain throughout) or an error saying the list changed", dup, got, err, first, second)
}

// The same change, made and undone, in every order a search can be swept:
// sorted by domain (read between two marks) and oldest first (read newest
// first, ordered locally). The mark (newest match, total) is the same
// before and after.
func TestSearchSweepLastPageShiftedEveryOrder(t *testing.T) {
	t.Parallel()
	for _, opts := range []client.ListOptions{
		{Search: "shop.example"},
		{Search: "shop.example", SortBy: client.SortByID, Sort: client.SortAsc},
		{Search: "shop.example", SortBy: client.SortByDomain, Sort: client.SortAsc},
		{Search: "shop.example", SortBy: client.SortByDomain, Sort: client.SortDesc},
	} {
		t.Run(opts.SortBy+" "+opts.Sort, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			seed := func(d string) int64 { return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
			outsider := seed("o.other.org")
			var all []int64
			for i := range 250 {
				all = append(all, seed(fmt.Sprintf("s%03d.shop.example", i)))
			}
			// x: a website of page 1 in this order; in: the outsider's
			// name, last in this order.
			x, xName, in := all[249], "s249.shop.example", "o.shop.example"
			switch {
			case opts.SortBy == client.SortByDomain && opts.Sort == client.SortAsc:
				x, xName, in = all[0], "s000.shop.example", "z.shop.example"
			case opts.SortBy == client.SortByDomain:
				in = "a.shop.example"
			}
			change := shiftAndUndo(3, func() {
				env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x.other.org" })
				env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = in })
			}, func() {
				env.emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = xName })
				env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.other.org" })
			})
			var mu sync.Mutex
			var reads []int
			env.hook(func(page int, after bool) {
				if after {
					return
				}
				mu.Lock()
				reads = append(reads, page)
				mu.Unlock()
				change(page)
			})
			ws, err := client.ListAllWebsites(env.c, ctx(t), opts)
			mu.Lock()
			t.Logf("list requests by page: %v", reads)
			mu.Unlock()
			if errors.Is(err, client.ErrListChanged) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantEveryListed(t, ws, all, 0)
		})
	}
}

// A search of two pages. A website of page 1 renamed out of the search
// (with an old website renamed in: total kept) just before page 2 is first
// read, and both renamed back before the next request, within the second
// the website was last written: updated_at, which the API gives to the
// second (as Laravel stores it), is the same. Page 2 was read shifted by
// one; the earlier design never returned its first website. The clock is
// frozen here so that the test is deterministic; on a real server it
// takes both renames within one second of the website's previous write.
func TestSearchSweepSameSecondRenameOutAndBack(t *testing.T) {
	t.Parallel()
	frozen := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	emu, err := emulator.New(emulator.Options{Clock: func() time.Time { return frozen }})
	if err != nil {
		t.Fatal(err)
	}
	seed := func(d string) int64 { return emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
	outsider := seed("o.other.org")
	var all []int64
	for i := range 150 {
		all = append(all, seed(fmt.Sprintf("s%03d.shop.example", i)))
	}
	x := all[149] // first of page 1
	change := shiftAndUndo(2, func() {
		emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x.other.org" })
		emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.shop.example" })
	}, func() {
		emu.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "s149.shop.example" })
		emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.other.org" })
	})
	var mu sync.Mutex
	var reads []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/websites" && r.Method == http.MethodGet {
			page := r.URL.Query().Get("page")
			mu.Lock()
			reads = append(reads, page)
			mu.Unlock()
			change(pageNumber(page))
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	ws, err := client.ListAllWebsites(c, ctx(t), client.ListOptions{Search: "shop.example"})
	mu.Lock()
	t.Logf("list requests by page: %v", reads)
	mu.Unlock()
	if errors.Is(err, client.ErrListChanged) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	wantEveryListed(t, ws, all, 0)
}

// The bulk reader refuses a sweep of several pages without meta.total
// (sweepAgrees), and an unfiltered ListAll (analytics_websites) of such a
// list is a complete sweep only when its pages were read twice alike:
// after the change of TestListAllWithoutTotalDeleteThenCreate, the exact
// lookup of a domain held by the hidden website and another must not
// answer with the other one alone.
func TestBulkListAllWithoutTotalThenLookup(t *testing.T) {
	t.Parallel()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64 // oldest first
	for i := range 250 {
		ids = append(ids, emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("t%03d.example.com", i)}).ID)
	}
	srv, reads := deleteThenCreateWithoutTotal(t, emu, ids[240]) // on page 1
	// The website hidden (first of page 3) and the oldest share a domain.
	const dup = "dup.example.com"
	emu.UpdateWebsite(ids[49], func(w *emulator.Website) { w.Domain = dup })
	emu.UpdateWebsite(ids[0], func(w *emulator.Website) { w.Domain = dup })
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	_, err = b.ListAll(ctx(t), client.ListOptions{})
	t.Logf("list requests by page: %v", reads())
	if errors.Is(err, client.ErrListChanged) {
		return // said so
	}
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.FindByDomain(ctx(t), dup)
	if !errors.As(err, new(*client.DuplicateDomainError)) {
		got := "none"
		if w != nil {
			got = fmt.Sprint(w.ID)
		}
		t.Errorf("FindByDomain(%q) after the list = website %s, %v; want a DuplicateDomainError naming %d and %d",
			dup, got, err, ids[0], ids[49])
	}
}

// shiftAndUndo returns a page hook that calls shift just before page at is
// first read and undo just before the request after that: a change that
// one page's first read sees and no later read of the list does.
func shiftAndUndo(at int, shift, undo func()) func(page int) {
	var mu sync.Mutex
	state := 0
	return func(page int) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case state == 0 && page == at:
			state = 1
			shift()
		case state == 1:
			state = 2
			undo()
		}
	}
}

// pageNumber is the page a list request asks for (1 when it names none).
func pageNumber(q string) int {
	n, err := strconv.Atoi(q)
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// deleteThenCreateWithoutTotal serves emu's list without meta.total (links
// only, as ListWebsites accepts) and, just before page 3 is first read,
// deletes website del, then creates one before the next request. reads
// tells the pages asked for so far.
func deleteThenCreateWithoutTotal(t *testing.T, emu *emulator.Emulator, del int64) (srv *httptest.Server, reads func() []string) {
	t.Helper()
	change := shiftAndUndo(3, func() { emu.DeleteWebsite(del) }, func() {
		emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "new.example.com"})
	})
	var mu sync.Mutex
	var pages []string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/websites" || r.Method != http.MethodGet {
			emu.ServeHTTP(w, r)
			return
		}
		page := r.URL.Query().Get("page")
		mu.Lock()
		pages = append(pages, page)
		mu.Unlock()
		change(pageNumber(page))
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
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(pages)
	}
}

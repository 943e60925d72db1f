package client

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// Defaults of BulkReaderOptions.
const (
	// DefaultBulkTTL is how long a website read by a list sweep is served
	// once reads pause.
	DefaultBulkTTL = 5 * time.Second
	// DefaultBulkMaxAge bounds how long it is served while reads go on.
	DefaultBulkMaxAge = 10 * time.Minute
	// DefaultBulkProbe is the number of reads answered with individual GETs
	// before the reader looks at the first list page. One: a refresh of N
	// websites then costs one GET and ⌈N/100⌉ pages, and reading one
	// website among thousands a single GET.
	DefaultBulkProbe = 1
	// DefaultBulkPageConcurrency is the number of list pages a sweep
	// requests at once.
	DefaultBulkPageConcurrency = 4
	// DefaultBulkLinger is how long a read that the first page did not
	// answer waits for more reads to arrive before it reads its website
	// individually (see BulkReaderOptions.Linger).
	DefaultBulkLinger = 50 * time.Millisecond
	// maxBulkLinger bounds the whole wait of one read for more reads.
	maxBulkLinger = time.Second
)

// BulkReaderOptions configures a BulkReader. The zero value uses the
// defaults above.
type BulkReaderOptions struct {
	// TTL is how long a website read by a list sweep (or an individual read)
	// may be served without asking the server again, counted from the end of
	// the sweep that read it. While reads go on without a pause longer than
	// TTL (one Terraform refresh), what was read during them is served for
	// as long as they go on, up to MaxAge, so that a refresh that outlasts
	// the TTL does not sweep again. Zero means DefaultBulkTTL; a negative
	// value turns the reader off: every Read is an individual GET.
	TTL time.Duration
	// MaxAge bounds how long a website is served during one burst of reads.
	// Zero means DefaultBulkMaxAge; it is never less than TTL.
	MaxAge time.Duration
	// Probe is the number of reads answered with individual GETs before the
	// reader requests the first list page. Zero means DefaultBulkProbe.
	Probe int
	// PageConcurrency is the number of list pages a sweep requests at once.
	// Zero means DefaultBulkPageConcurrency.
	PageConcurrency int
	// Linger is how long a read waits, after the first page is known and
	// the reads counted do not yet pay for the other pages, for another
	// read to arrive (in real time, whatever Clock says) before it reads
	// its website individually; each read that arrives starts the wait
	// again, up to a second in all. Terraform starts its reads of one
	// refresh a few at a time, and the first page often arrives when only
	// some have started: without the wait, those would each cost a GET
	// that the sweep they are about to cause makes useless. Zero means
	// DefaultBulkLinger; a negative value does not wait.
	Linger time.Duration
	// Clock gives the current time (tests). Nil means time.Now.
	Clock func() time.Time
}

// BulkStats counts what a BulkReader did.
type BulkStats struct {
	// Reads is the number of Read calls.
	Reads int
	// Hits is the number of reads answered from an earlier sweep or read.
	Hits int
	// Gets is the number of individual GET /websites/{id} requests.
	Gets int
	// Pages is the number of list pages requested (GET /websites).
	Pages int
	// PageErrors is the number of list pages that failed.
	PageErrors int
	// Sweeps is the number of complete list sweeps.
	Sweeps int
	// Lookups is the number of FindByDomain calls.
	Lookups int
	// LookupHits is the number of lookups answered from a sweep.
	LookupHits int
	// Searches is the number of exact searches by domain
	// (the list endpoint's search) that lookups fell back to.
	Searches int
}

// BulkReader reads websites by id for a caller that reads many of them at
// about the same time, such as a Terraform refresh, which reads every managed
// website concurrently without saying how many reads will come.
//
// Reading N websites one by one costs N requests. A sweep of the list
// endpoint (100 per page, by ascending id) reads all of the user's websites
// in total/100 requests. The reader chooses between the two as reads arrive,
// like the ski-rental problem: the first Probe reads are individual GETs;
// the next one requests page 1 of the sweep, which also tells its cost
// (meta.last_page); once the reads counted since then exceed the pages still
// to read, the other pages are requested and every waiting and later read is
// served from them. A read that page 1 did not answer, while more reads
// would pay for the other pages, waits a moment (Linger) for them to arrive
// before it reads its website individually. So refreshing 500 of 500 websites costs 6 requests (one
// GET and 5 pages), one website among 5,000 costs one, and no pattern costs
// more than about twice what the better of the two strategies would have.
//
// FindByDomain resolves domains the same way, for imports by domain: the
// sweep that answers it is also an index by domain, and the reads that follow
// each import are served from it, so adopting 500 websites costs 5 requests.
//
// Only one fetch of list pages runs at a time, and one GET per id;
// concurrent reads wait for them instead of starting their own. A website
// that a sweep did not return is always confirmed with an individual GET,
// never reported missing: pages shift when websites are created or deleted
// during a sweep. A page that fails falls back to individual GETs (and no
// new sweep starts for a TTL).
//
// What a sweep read is served for TTL after the sweep ended, or, while the
// burst of reads that caused it goes on (no pause longer than TTL), for as
// long as it goes on, up to MaxAge: one refresh is served from one sweep,
// however long Terraform takes to walk it, as if Terraform had read those
// websites first. Forget drops a website after the caller changed or deleted
// it, including from a sweep that is running at the time. A BulkReader is
// safe for concurrent use.
type BulkReader struct {
	c      *Client
	ttl    time.Duration
	maxAge time.Duration
	probe  int
	conc   int
	linger time.Duration
	now    func() time.Time

	mu        sync.Mutex // guards the fields below
	entries   map[int64]bulkEntry
	forgotten map[int64]uint64 // id -> seq of its last Forget
	seq       uint64           // number of Forget calls
	reads     int              // reads counted toward the next sweep
	lastRead  time.Time
	arrived   time.Time          // real time of the latest read counted
	arrival   chan struct{}      // closed and replaced when a read is counted
	burst     time.Time          // first read of the current burst of reads
	page1     bulkPage           // the latest first page
	sweptAt   time.Time          // end of the latest complete sweep
	failedAt  time.Time          // end of the latest fetch with a failed page
	flight    *bulkFetch         // the fetch of list pages in progress
	gets      map[int64]*bulkGet // individual GETs in progress
	stats     BulkStats
}

type bulkEntry struct {
	w  Website
	at time.Time // when it became valid: the end of the fetch that read it
}

// bulkPage is the first page of a sweep, kept so that the sweep that
// follows can serve it again without requesting it twice.
type bulkPage struct {
	websites []Website
	lastPage int       // 0 when no first page was read
	seq      uint64    // seq when it was requested
	at       time.Time // when it was read
}

// bulkGet is one individual GET that reads of the same id wait for.
type bulkGet struct {
	done chan struct{} // closed when w and err are set
	w    *Website
	err  error
}

// bulkFetch is one fetch of list pages that reads wait for.
type bulkFetch struct {
	full bool          // every page (a sweep), or only the first
	done chan struct{} // closed when the fetch ended
}

// NewBulkReader returns a reader of c's websites configured by opts.
func NewBulkReader(c *Client, opts BulkReaderOptions) *BulkReader {
	b := &BulkReader{
		c:         c,
		ttl:       opts.TTL,
		maxAge:    opts.MaxAge,
		probe:     opts.Probe,
		conc:      opts.PageConcurrency,
		linger:    opts.Linger,
		arrival:   make(chan struct{}),
		now:       opts.Clock,
		entries:   map[int64]bulkEntry{},
		forgotten: map[int64]uint64{},
		gets:      map[int64]*bulkGet{},
	}
	if b.ttl == 0 {
		b.ttl = DefaultBulkTTL
	}
	if b.maxAge <= 0 {
		b.maxAge = DefaultBulkMaxAge
	}
	b.maxAge = max(b.maxAge, b.ttl)
	if b.probe <= 0 {
		b.probe = DefaultBulkProbe
	}
	if b.conc <= 0 {
		b.conc = DefaultBulkPageConcurrency
	}
	if b.linger == 0 {
		b.linger = DefaultBulkLinger
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Stats returns a copy of the reader's counters.
func (b *BulkReader) Stats() BulkStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// Forget drops what the reader knows about the website id, so that the next
// Read asks the server. Call it after changing or deleting the website
// (whether the call succeeded or not): a sweep that was running at the time
// does not bring the old record back.
func (b *BulkReader) Forget(id int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	b.forgotten[id] = b.seq
	delete(b.entries, id)
	delete(b.gets, id) // later reads do not join a GET sent before the change
}

// maxFetchWaits bounds how many list fetches one Read waits for before it
// reads the website individually.
const maxFetchWaits = 3

// Read returns the website id like Client.GetWebsite, from a list sweep when
// many websites are being read. Errors are those of GetWebsite; in
// particular a website that does not exist (or belongs to another user) is
// an ErrNotFound *APIError, always confirmed by an individual GET.
func (b *BulkReader) Read(ctx context.Context, id int64) (*Website, error) {
	if b.ttl < 0 {
		b.mu.Lock()
		b.stats.Reads++
		b.stats.Gets++
		b.mu.Unlock()
		return b.c.GetWebsite(ctx, id)
	}

	b.mu.Lock()
	now, started := b.now(), time.Now()
	b.stats.Reads++
	b.countLocked(now)
	for waits := 0; ; waits++ {
		if e, ok := b.entries[id]; ok && b.freshLocked(e.at, now) {
			b.stats.Hits++
			b.mu.Unlock()
			return e.w.clone(), nil
		}
		waited, err := b.awaitFetchLocked(ctx, now, waits, b.probe)
		if err == nil && !waited && waits < maxFetchWaits {
			if waited, err = b.lingerLocked(ctx, now, started); waited {
				waits-- // not a fetch
			}
		}
		if err != nil {
			b.mu.Unlock()
			return nil, err
		}
		if !waited {
			break
		}
		now = b.now()
	}
	g := b.gets[id]
	if g == nil {
		g = &bulkGet{done: make(chan struct{})}
		b.gets[id] = g
		b.stats.Gets++
		go b.get(context.WithoutCancel(ctx), id, g, b.seq)
	}
	b.mu.Unlock()
	select {
	case <-g.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if g.err != nil {
		return nil, g.err
	}
	return g.w.clone(), nil
}

// countLocked counts a read (or a lookup) toward the next sweep, in the
// current burst of reads.
func (b *BulkReader) countLocked(now time.Time) {
	if now.Sub(b.lastRead) > b.ttl {
		b.reads = 0 // a new burst of reads
		b.burst = now
	}
	b.lastRead = now
	if !b.sweptFreshLocked(now) {
		b.reads++
		b.arrived = time.Now()
		close(b.arrival)
		b.arrival = make(chan struct{})
	}
}

// lingerLocked waits, for a read that awaitFetchLocked left to be read
// individually, while more reads would pay for the rest of the sweep (the
// first page is known and planLocked only lacks reads), until no read has
// arrived for the linger time (or the read has waited maxBulkLinger since
// started). It reports whether it waited: the caller looks again. It
// unlocks b.mu while waiting.
func (b *BulkReader) lingerLocked(ctx context.Context, now, started time.Time) (bool, error) {
	if full, ok := b.planLocked(now, b.probe); b.linger < 0 || !full || ok {
		return false, nil
	}
	quiet := b.linger - time.Since(b.arrived)
	left := maxBulkLinger - time.Since(started)
	if quiet <= 0 || left <= 0 {
		return false, nil
	}
	arrival := b.arrival
	b.mu.Unlock()
	defer b.mu.Lock()
	t := time.NewTimer(min(quiet, left))
	defer t.Stop()
	select {
	case <-arrival:
	case <-t.C:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	return true, nil
}

// findAllByDomain returns every website whose domain is exactly domain, by id,
// like Client.findWebsitesByDomain, from a list sweep when many domains are
// being looked up (the imports of one Terraform run).
//
// Only a complete sweep answers: a domain on page 1 may also be on a later
// page (the application has no unique index on domains), so a partial read
// never does. The first lookup of a burst requests page 1, which is the
// whole list for up to 100 websites and otherwise tells the sweep's cost;
// once the reads and lookups counted exceed the pages still to read, the
// other pages follow, as for Read. A domain that the sweep does not hold (a
// website created since, another user's, or none at all) is looked up with
// the exact search, whose answer is then served to the reads that follow.
// So a lookup's answer is the one the search would have given at the time
// of the sweep, which is at most a TTL (or the current burst) old; the
// websites it returns are read again by the import's own Read, served from
// the same sweep.
func (b *BulkReader) findAllByDomain(ctx context.Context, domain string) ([]Website, error) {
	b.mu.Lock()
	b.stats.Lookups++
	if b.ttl < 0 {
		b.stats.Searches++
		b.mu.Unlock()
		return b.c.findWebsitesByDomain(ctx, domain)
	}
	now := b.now()
	b.countLocked(now)
	for waits := 0; ; waits++ {
		if b.sweptFreshLocked(now) {
			if ws := b.byDomainLocked(domain, now); len(ws) > 0 {
				b.stats.LookupHits++
				b.mu.Unlock()
				return ws, nil
			}
			break
		}
		waited, err := b.awaitFetchLocked(ctx, now, waits, 0)
		if err != nil {
			b.mu.Unlock()
			return nil, err
		}
		if !waited {
			break
		}
		now = b.now()
	}
	b.stats.Searches++
	seq := b.seq
	b.mu.Unlock()
	ws, err := b.c.findWebsitesByDomain(ctx, domain)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.storeLocked(ws, seq, b.now())
	b.mu.Unlock()
	var out []Website
	for _, w := range ws {
		out = append(out, *w.clone())
	}
	return out, nil
}

// ListAll returns every matching website, like collecting Client.AllWebsites. An
// unfiltered list is a complete sweep of the user's websites: the reads and
// lookups that follow (the imports that a list data source feeds) are
// served from it, as from a sweep of their own.
func (b *BulkReader) ListAll(ctx context.Context, opts ListOptions) ([]Website, error) {
	b.mu.Lock()
	seq := b.seq
	if b.ttl >= 0 && opts.Search == "" {
		b.countLocked(b.now())
	}
	b.mu.Unlock()
	ws, err := b.c.listAllWebsites(ctx, opts)
	if err != nil || b.ttl < 0 || opts.Search != "" {
		return ws, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	end := b.now()
	b.storeLocked(ws, seq, end)
	b.lastRead = end
	b.sweptAt = end
	b.reads = 0
	b.stats.Sweeps++
	return ws, nil
}

// FindByDomain is findAllByDomain for one website, with the errors of
// Client.FindWebsiteByDomain: an ErrNotFound *APIError when there is none,
// a *DuplicateDomainError when there are several.
func (b *BulkReader) FindByDomain(ctx context.Context, domain string) (*Website, error) {
	ws, err := b.findAllByDomain(ctx, domain)
	if err != nil {
		return nil, err
	}
	return oneByDomain(domain, ws)
}

// byDomainLocked returns the fresh websites whose domain is domain, by id.
func (b *BulkReader) byDomainLocked(domain string, now time.Time) []Website {
	var out []Website // nil when none, as findWebsitesByDomain
	for _, e := range b.entries {
		if e.w.Domain == domain && b.freshLocked(e.at, now) {
			out = append(out, *e.w.clone())
		}
	}
	slices.SortFunc(out, func(a, b Website) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// get reads one website for every Read of id waiting for it.
func (b *BulkReader) get(ctx context.Context, id int64, g *bulkGet, seq uint64) {
	defer close(g.done)
	w, err := b.c.GetWebsite(ctx, id)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.gets[id] == g {
		delete(b.gets, id)
	}
	g.w, g.err = w, err
	if err == nil {
		b.storeLocked([]Website{*w}, seq, b.now())
	}
}

// freshLocked reports whether what was read at `at` may be served at now:
// for a TTL, or up to MaxAge if it was read during the current burst.
func (b *BulkReader) freshLocked(at, now time.Time) bool {
	age := now.Sub(at)
	return age <= b.ttl || (!at.Before(b.burst) && age <= b.maxAge)
}

// sweptFreshLocked reports whether the latest complete sweep is fresh.
func (b *BulkReader) sweptFreshLocked(now time.Time) bool {
	return !b.sweptAt.IsZero() && b.freshLocked(b.sweptAt, now)
}

// planLocked decides, for a read that nothing cached answers and while no
// fetch runs, whether to fetch list pages: ok reports whether to, full
// whether all of them or only the first. The first probe reads of a burst
// fetch nothing.
func (b *BulkReader) planLocked(now time.Time, probe int) (full, ok bool) {
	switch {
	case b.sweptFreshLocked(now):
		return false, false // the sweep did not have it: confirm individually
	case !b.failedAt.IsZero() && now.Sub(b.failedAt) <= b.ttl:
		return false, false // a page failed recently: do not insist
	case b.reads <= probe:
		return false, false
	}
	if b.page1.lastPage > 0 && b.freshLocked(b.page1.at, now) {
		// The first page is known: sweep once the reads counted exceed
		// the pages still to read.
		return true, b.reads > b.page1.lastPage-1
	}
	if b.page1.lastPage > 0 && b.reads > b.page1.lastPage {
		// The first page is old, but the last one told the sweep's cost
		// and the reads exceed all of it.
		return true, true
	}
	return false, true
}

// awaitFetchLocked, for a read or lookup that nothing cached answered,
// starts a fetch of list pages when none runs and planLocked (with probe)
// calls for one, then waits for the fetch under way. It reports false when
// there is none to wait for, or when the caller has already waited for
// maxFetchWaits fetches: the caller then asks the server individually. It
// unlocks b.mu while waiting.
func (b *BulkReader) awaitFetchLocked(ctx context.Context, now time.Time, waits, probe int) (bool, error) {
	if waits >= maxFetchWaits {
		return false, nil
	}
	f := b.flight
	if f == nil {
		full, ok := b.planLocked(now, probe)
		if !ok {
			return false, nil
		}
		f = b.startLocked(ctx, full)
	}
	b.mu.Unlock()
	defer b.mu.Lock()
	select {
	case <-f.done:
		return true, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// startLocked starts a fetch of the first page, or of every page, in the
// background, so that no caller's cancellation stops it for the others.
func (b *BulkReader) startLocked(ctx context.Context, full bool) *bulkFetch {
	f := &bulkFetch{full: full, done: make(chan struct{})}
	b.flight = f
	var reuse bulkPage
	if full && b.page1.lastPage > 0 && b.freshLocked(b.page1.at, b.now()) {
		reuse = b.page1
	}
	go b.fetch(context.WithoutCancel(ctx), f, reuse, b.seq)
	return f
}

// fetch requests the first page (unless reuse holds a recent one) and, for
// a full fetch, every other page, then stores what it read.
func (b *BulkReader) fetch(ctx context.Context, f *bulkFetch, reuse bulkPage, seq uint64) {
	defer close(f.done)
	page1 := reuse
	failed := false
	if page1.lastPage == 0 {
		p, err := b.listPage(ctx, 1)
		if err != nil {
			failed = true
		} else {
			page1 = bulkPage{websites: p.Websites, lastPage: p.LastPage, seq: seq}
		}
	}
	var rest []Website
	if f.full && !failed && page1.lastPage > 1 {
		var ok bool
		rest, ok = b.listPages(ctx, 2, page1.lastPage)
		failed = !ok
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	end := b.now()
	if page1.lastPage > 0 {
		b.storeLocked(page1.websites, page1.seq, end)
		page1.at = end
		b.page1 = page1
	}
	b.storeLocked(rest, seq, end)
	switch {
	case failed:
		b.failedAt = end
	case f.full || page1.lastPage == 1:
		b.sweptAt = end
		b.reads = 0
		b.stats.Sweeps++
		for id, e := range b.entries {
			if !b.freshLocked(e.at, end) {
				delete(b.entries, id)
			}
		}
	}
	b.flight = nil
}

// listPage requests one page of the sweep.
func (b *BulkReader) listPage(ctx context.Context, page int) (*Page, error) {
	b.mu.Lock()
	b.stats.Pages++
	b.mu.Unlock()
	p, err := b.c.ListWebsites(ctx, ListOptions{SortBy: SortByID, Sort: SortAsc, PerPage: MaxPerPage, Page: page})
	if err != nil {
		b.mu.Lock()
		b.stats.PageErrors++
		b.mu.Unlock()
	}
	return p, err
}

// listPages requests the pages first..last, b.conc at a time, and returns
// the websites of those that succeeded and whether all did.
func (b *BulkReader) listPages(ctx context.Context, first, last int) ([]Website, bool) {
	var (
		mu  sync.Mutex
		out []Website
		ok  = true
		wg  sync.WaitGroup
	)
	pages := make(chan int)
	for range min(b.conc, last-first+1) {
		wg.Go(func() {
			for n := range pages {
				p, err := b.listPage(ctx, n)
				mu.Lock()
				if err != nil {
					ok = false
				} else {
					out = append(out, p.Websites...)
				}
				mu.Unlock()
			}
		})
	}
	for n := first; n <= last; n++ {
		pages <- n
	}
	close(pages)
	wg.Wait()
	return out, ok
}

// storeLocked records websites read by a request that started when b.seq
// was seq, unless Forget was called for one since.
func (b *BulkReader) storeLocked(ws []Website, seq uint64, at time.Time) {
	for _, w := range ws {
		if b.forgotten[w.ID] > seq {
			continue
		}
		b.entries[w.ID] = bulkEntry{w: w, at: at}
	}
}

// clone returns a deep copy of w, so that callers never share the pointers
// of a cached record.
func (w Website) clone() *Website {
	c := w
	c.Privacy = clonePtr(w.Privacy)
	c.Email = clonePtr(w.Email)
	c.ExcludeBots = clonePtr(w.ExcludeBots)
	c.ExcludeIPsRaw = clonePtr(w.ExcludeIPsRaw)
	c.Favorite = clonePtr(w.Favorite)
	if w.ExcludeIPs != nil {
		c.ExcludeIPs = append([]string{}, w.ExcludeIPs...)
	}
	return &c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

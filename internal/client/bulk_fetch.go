package client

import (
	"context"
	"errors"
	"maps"
	"sync"
	"time"
)

// planLocked decides, for a read of id (0 for a lookup) that nothing
// cached answers and while no fetch runs, which list pages to fetch. The
// first probe reads of a burst fetch nothing.
func (b *BulkReader) planLocked(now time.Time, id int64, probe int) fetchKind {
	switch {
	case b.sweptFreshLocked(now):
		return fetchNothing // the sweep did not have it: confirm individually
	case b.reads <= probe:
		// Also while the pages of failed sweeps are owed (failedLocked).
		return fetchNothing
	}
	if b.page1.lastPage > 0 && b.freshLocked(b.page1.at, now) {
		// The first page is known: sweep once the reads counted exceed
		// the pages still to read.
		if b.reads > b.page1.lastPage-1-len(b.others) {
			return fetchSweep
		}
		if b.onLastPageLocked(id) {
			return fetchLast
		}
		return fetchWait
	}
	if b.page1.lastPage > 0 && b.reads > b.page1.lastPage {
		// The first page is old, but the last one told the sweep's cost
		// and the reads exceed all of it.
		return fetchSweep
	}
	return fetchFirst
}

// pagesLeftLocked is the number of list pages a sweep would still read:
// those after a fresh first page not read yet, or all of them.
func (b *BulkReader) pagesLeftLocked(now time.Time) int {
	if b.page1.lastPage > 0 && b.freshLocked(b.page1.at, now) {
		return b.page1.lastPage - 1 - len(b.others)
	}
	return b.page1.lastPage
}

// unverifiedLocked reports whether the latest complete sweep is fresh but
// its pages were read once (verifyPages would read them again).
func (b *BulkReader) unverifiedLocked(now time.Time) bool {
	return b.sweptFreshLocked(now) && !b.verified && len(b.sweptBy) > 1
}

// onLastPageLocked reports whether the website id may be on the last page
// of the sweep that the first page began, and that page is not read yet.
// Read newest first, the last page holds the oldest websites, where a
// refresh of websites created in order by count or for_each begins. At
// most newest-id websites are newer than id (ids are unique): when that is
// fewer than the pages before the last hold, id is not there. The estimate
// only decides what to read, never what is served.
func (b *BulkReader) onLastPageLocked(id int64) bool {
	p := b.page1
	if id <= 0 || p.lastPage < 2 || b.others[p.lastPage] != nil || len(p.websites) == 0 {
		return false
	}
	newest := p.websites[0].ID
	return newest-id >= int64((p.lastPage-1)*MaxPerPage)
}

// awaitFetchLocked, for a read of id (0 for a lookup) that nothing cached
// answered, starts a fetch of list pages when none runs and planLocked
// (with probe) calls for one, then waits for the fetch under way. It
// reports false when there is none to wait for, or when the caller has
// already waited for maxFetchWaits fetches: the caller then asks the
// server individually. It unlocks b.mu while waiting.
func (b *BulkReader) awaitFetchLocked(ctx context.Context, now time.Time, id int64, waits, probe int) (bool, error) {
	if waits >= maxFetchWaits {
		return false, nil
	}
	f := b.flight
	var w *waiter // nil: waits for a fetch that is ending
	if f != nil {
		// A fetch that every caller waiting for it gave up is ending:
		// this caller waits for it to end, then plans anew.
		w, _ = f.ctx.join(ctx)
	} else {
		kind := b.planLocked(now, id, probe)
		if id == 0 && kind == fetchSweep && b.reads <= 2*b.pagesLeftLocked(now)+1 {
			// A sweep for lookups is read twice (verifyPages): the
			// lookups counted must pay for that, else they search.
			kind = fetchNothing
		}
		if id == 0 && b.unverifiedLocked(now) && b.since > len(b.sweptBy) {
			// Ski rental again: the lookups since the sweep, each a
			// search so far, now outnumber its pages. When this process
			// wrote since, the pages would not read the same again:
			// sweep anew instead (read twice, as lookups wait).
			kind = fetchVerify
			if b.seq != b.sweptSeq {
				kind = fetchSweep
			}
		}
		if kind < fetchFirst {
			return false, nil
		}
		f, w = b.startLocked(ctx, kind)
	}
	b.mu.Unlock()
	defer b.mu.Lock()
	if err := w.await(ctx, f.done); err != nil {
		return false, err
	}
	return true, nil
}

// startLocked starts a fetch in the background, with a context shared by
// the callers that wait for it (goShared), ctx's caller first, and returns
// it with that caller's waiter.
func (b *BulkReader) startLocked(ctx context.Context, kind fetchKind) (*bulkFetch, *waiter) {
	f := &bulkFetch{kind: kind, done: make(chan struct{})}
	b.flight = f
	var w *waiter
	if kind == fetchVerify {
		pages, at := b.sweptBy, b.sweptAt
		f.ctx, w = goShared(ctx, func(ctx context.Context) { b.verify(ctx, f, pages, at) })
		return f, w
	}
	var reuse bulkPage
	others := map[int]*Page{}
	if kind != fetchFirst && b.page1.lastPage > 0 && b.freshLocked(b.page1.at, b.now()) {
		reuse = b.page1
		maps.Copy(others, b.others)
	} else if kind == fetchLast {
		f.kind = fetchFirst
	}
	f.ctx, w = goShared(ctx, func(ctx context.Context) { b.fetch(ctx, f, reuse, others) })
	return f, w
}

// fetch requests what f says, then stores what it read. The pages are read
// newest first and checked against each other (list_sweep.go): a sweep
// whose pages do not agree (websites were created or deleted meanwhile) is
// no sweep: the reads waiting for it start one more, and when that one does
// not hold either, they read their websites individually.
//
// A first page read by an earlier fetch (reuse), and the later pages read
// after it (others), are not read again, but page 1 is then read once more
// after the others and compared with the one reused (samePage): a delete
// on page 1 and a create keep the total and leave pages 2-N where they
// were, so only page 1 itself shows them, and the old page may hold old
// values. That costs one request, paid only when page 1 was reused. The
// sweep is then the list as it was when this fetch began: a website it
// does not hold is gone only if it was read before then, and the sweep is
// served for a TTL from then, as an individual read would be. A fetch of
// the first page alone goes on with the other pages when the reads counted
// meanwhile pay for them, and needs no second read of page 1.
func (b *BulkReader) fetch(ctx context.Context, f *bulkFetch, reuse bulkPage, others map[int]*Page) {
	defer close(f.done)
	if release, err := b.holdWrites(ctx, writeSlots); err == nil {
		defer release()
	}
	b.mu.Lock()
	if reuse.lastPage > 0 && b.seq != reuse.seq {
		// This process wrote since page 1 was read: read it again first,
		// for the same cost as reading it again last.
		reuse, others = bulkPage{}, map[int]*Page{}
		if f.kind == fetchLast {
			f.kind = fetchFirst
		}
	}
	seq, sent := b.seq, b.stats.Pages
	b.mu.Unlock()
	start := b.now()
	page1, reused := reuse, reuse.lastPage > 0
	failed := false
	if !reused {
		p, err := b.listPage(ctx, 1)
		if err != nil {
			failed = true
		} else {
			page1 = bulkPageOf(p)
			page1.seq, page1.start = seq, start
		}
	}
	full := f.kind == fetchSweep
	if f.kind == fetchFirst && !failed && page1.lastPage > 1 {
		b.mu.Lock()
		full = b.reads > page1.lastPage-1
		b.mu.Unlock()
	}
	var (
		fresh    []Website // websites of the pages read now, after the first
		changed  bool
		swept    bool
		verify   bool // the pages are read twice (verifyPages)
		verified bool // and held at one moment
	)
	switch {
	case failed:
	case f.kind == fetchLast:
		last := page1.lastPage
		ps, ok := b.listPages(ctx, last)
		failed = !ok
		if p := ps[last]; p != nil {
			fresh = p.Websites
			if p.Total == page1.total {
				others[last] = p
			} else {
				changed = true
			}
		}
	case full || page1.lastPage == 1:
		var missing []int
		for n := 2; n <= page1.lastPage; n++ {
			if others[n] == nil {
				missing = append(missing, n)
			}
		}
		ps, ok := b.listPages(ctx, missing...)
		failed = !ok
		for _, n := range missing {
			if p := ps[n]; p != nil {
				fresh = append(fresh, p.Websites...)
				others[n] = p
			}
		}
		if !failed {
			changed = !sweepAgrees(page1, others)
		}
		b.mu.Lock()
		verify = !failed && !changed && page1.lastPage > 1 && b.waiting > 0
		b.mu.Unlock()
		if verify {
			// A lookup by domain waits for this sweep: read every page
			// again, page 1 first (verifyPages). Reads by id alone need
			// no more.
			ws, same, ok := b.verifyPages(ctx, sweepPages(page1, others))
			fresh = append(fresh, ws...)
			failed, changed, verified = !ok, ok && !same, ok && same
		} else if !failed && !changed && reused {
			// Page 1 came from an earlier fetch: read it again, after
			// the others, and compare (see samePage).
			p, err := b.listPage(ctx, 1)
			if err != nil {
				failed = true
			} else {
				fresh = append(fresh, p.Websites...)
				changed = !samePage(page1, p)
				page1.websites = p.Websites
			}
		}
		swept = !failed && !changed
		verified = verified || (swept && page1.lastPage == 1)
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	end := b.now()
	b.busyUntilLocked(end)
	if changed {
		// What was read before the sweep began may be gone: read it again.
		b.evictLocked(nil, start)
	}
	if !reused && page1.lastPage > 0 {
		page1.at = end
		b.page1 = page1
		b.others = nil
		b.storeLocked(page1.websites, page1.seq, end)
	}
	if !changed && b.page1.start.Equal(page1.start) {
		b.others = others
	} else {
		b.page1, b.others = bulkPage{}, nil // the list moved on: a new first page
	}
	// Each website of a page read now is as true as an individual read,
	// even when the pages do not make one list: only the sweep's claim to
	// hold every website is dropped then.
	b.storeLocked(fresh, seq, end)
	switch {
	case failed && !b.serverFailedLocked(ctx, sent):
		// The reads counted still pay for the next one.
	case failed:
		// The pages kept are read no more (see startLocked): only what
		// the next attempt reads again was lost.
		kept := len(b.others)
		if b.page1.lastPage > 0 {
			kept++
		}
		b.failedLocked(max(1, b.attempt-kept), true)
	case changed:
		b.changedLocked(end)
	case swept:
		pages := sweepPages(page1, others)
		var ws []Website
		for _, p := range pages {
			ws = append(ws, p.websites...)
		}
		b.completeLocked(ws, min(page1.seq, seq), start, end)
		b.sweptBy, b.verified = pages, verified
	}
	b.flight = nil
}

// serverFailedLocked reports whether a fetch of list pages that failed,
// begun when b.stats.Pages was sent, failed for the server: not when
// every caller waiting for it was interrupted (goShared), nor when it
// gave up before it asked the server anything (it waited for this
// process's writes). Callers that could not wait for the server, or whose
// deadlines passed while a page was asked, waited for the server: a
// failure, as any other.
func (b *BulkReader) serverFailedLocked(ctx context.Context, sent int) bool {
	return !errors.Is(ctx.Err(), context.Canceled) && b.stats.Pages != sent
}

// busyUntilLocked records that a fetch of the reader ended at end: the
// reads that waited for it were not pausing, so a fetch that outlasts
// the TTL (a failing page's retries) does not end their burst.
func (b *BulkReader) busyUntilLocked(end time.Time) {
	if end.After(b.lastRead) {
		b.lastRead = end
	}
}

// changedLocked records that a sweep's pages disagreed at end: the reads
// waiting for it sweep once more; when that one disagrees too, within a
// TTL, the sweep failed (failedLocked).
func (b *BulkReader) changedLocked(end time.Time) {
	if !b.changedAt.IsZero() && end.Sub(b.changedAt) <= b.ttl {
		b.failedLocked(b.attempt, false)
	}
	b.changedAt = end
	b.stats.Changed++
}

// failedLocked records that a sweep failed (a page failed, or the pages
// changed twice): reads and lookups go to the server one by one until
// they have repaid what the failure cost (ski rental). The reads and
// lookups counted toward the sweep are spent, and lost is owed: the pages
// requested in this burst since the latest failed or complete sweep that
// the next attempt reads again. So a list that another client keeps
// changing costs about twice what reading one by one would, and the
// reads of the next burst owe nothing. When a page failed (pageFailed:
// the server did not answer it), what is owed doubles for each page
// failure of this burst since the latest complete sweep: a server that
// failed once is swept again after as many reads as the failure cost,
// one that keeps failing is asked for pages at most about log2 of the
// reads times.
// Pages that disagreed were answered: the list moved, not the server.
func (b *BulkReader) failedLocked(lost int, pageFailed bool) {
	if pageFailed {
		lost <<= min(b.failures, maxOwedDoublings)
		b.failures++
	}
	b.reads, b.since = -lost, -lost
	b.attempt = 0
}

// maxOwedDoublings bounds how many times a failed sweep's pages are
// doubled (failedLocked), far beyond any refresh's reads.
const maxOwedDoublings = 20

// completeLocked records that ws, already stored, are every website of
// the user as the list was at the moment at, when b.seq was seq: a
// website that it does not hold and that was read before then is dropped
// (it was deleted), so that the next read of it asks the server. The
// sweep is served as a read made at that moment; end is when the sweep
// ended.
func (b *BulkReader) completeLocked(ws []Website, seq uint64, at, end time.Time) {
	in := make(map[int64]bool, len(ws))
	for _, w := range ws {
		in[w.ID] = true
	}
	b.evictLocked(in, at)
	b.sweptAt, b.sweptSeq = at, seq
	b.swept, b.sweptBy, b.verified, b.since, b.blind, b.costly = ws, nil, false, 0, 0, 0
	b.failures, b.changedAt, b.attempt = 0, time.Time{}, 0
	b.sweptDomain = make(map[int64]string, len(ws))
	for _, w := range ws {
		b.sweptDomain[w.ID] = w.Domain
	}
	for id, o := range b.own {
		if o.seq <= seq {
			delete(b.own, id) // the sweep holds it
		}
	}
	b.reads = 0
	b.stats.Sweeps++
	for id, e := range b.entries {
		if !b.freshLocked(e.at, end) {
			delete(b.entries, id)
		}
	}
}

// evictLocked drops the websites read at or before start, except those
// of keep.
func (b *BulkReader) evictLocked(keep map[int64]bool, start time.Time) {
	for id, e := range b.entries {
		if !keep[id] && !e.at.After(start) {
			delete(b.entries, id)
		}
	}
}

// listPage requests one page of the sweep, newest first.
func (b *BulkReader) listPage(ctx context.Context, page int) (*Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // every waiter gave up before it was sent
	}
	b.mu.Lock()
	b.stats.Pages++
	b.attempt++
	b.mu.Unlock()
	p, err := b.c.ListWebsites(ctx, ListOptions{SortBy: SortByID, Sort: SortDesc, PerPage: MaxPerPage, Page: page})
	if err != nil {
		b.mu.Lock()
		if de := (*DeadlineError)(nil); errors.As(err, &de) && de.Attempts == 0 {
			// Refused before it was sent (requests_per_minute, the rate
			// limit window): no request, and no failure of the server's.
			b.stats.Pages--
			b.attempt--
		} else {
			b.stats.PageErrors++
		}
		b.mu.Unlock()
	}
	return p, err
}

// listPages requests the pages nums, b.conc at a time, and returns them
// by number, and whether all succeeded.
func (b *BulkReader) listPages(ctx context.Context, nums ...int) (map[int]*Page, bool) {
	var (
		mu  sync.Mutex
		out = map[int]*Page{}
		ok  = true
		wg  sync.WaitGroup
	)
	pages := make(chan int)
	for range min(b.conc, len(nums)) {
		wg.Go(func() {
			for n := range pages {
				p, err := b.listPage(ctx, n)
				mu.Lock()
				if err != nil {
					ok = false
				} else {
					out[n] = p
				}
				mu.Unlock()
			}
		})
	}
	for _, n := range nums {
		pages <- n
	}
	close(pages)
	wg.Wait()
	return out, ok
}

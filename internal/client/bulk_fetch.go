package client

import (
	"context"
	"slices"
	"sync"
	"time"
)

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

// fetch requests the first page and, for a full fetch, every other page,
// then stores what it read. The pages are read newest first and checked
// against each other (list_sweep.go): a sweep whose pages do not agree
// (websites were created or deleted meanwhile) is no sweep: the reads
// waiting for it start one more, and when that one does not hold either,
// they read their websites individually.
//
// A first page read by an earlier fetch (reuse) tells the sweep's cost, but
// it is read again with the others: the websites it held may have been
// deleted since, and a create and a delete can leave the other pages as
// they were. The sweep holds when the new first page has the same websites
// and total as the old one. A fetch of the first page alone goes on with
// the other pages when the reads counted meanwhile pay for them, so the
// usual refresh reads the first page once.
func (b *BulkReader) fetch(ctx context.Context, f *bulkFetch, reuse bulkPage, seq uint64) {
	defer close(f.done)
	start := b.now()
	page1, reused := reuse, reuse.lastPage > 0
	failed := false
	if !reused {
		p, err := b.listPage(ctx, 1)
		if err != nil {
			failed = true
		} else {
			page1 = bulkPage{websites: p.Websites, lastPage: p.LastPage, total: p.Total, seq: seq}
		}
	}
	full := f.full
	if !full && !failed && page1.lastPage > 1 {
		b.mu.Lock()
		full = b.reads > page1.lastPage-1
		b.mu.Unlock()
	}
	var (
		again   *Page // the first page read again (reused)
		rest    []Website
		changed bool
	)
	if !failed && (full || page1.lastPage == 1) {
		var pages map[int]*Page
		if full && (page1.lastPage > 1 || reused) {
			first := 2
			if reused {
				first = 1
			}
			var ok bool
			pages, ok = b.listPages(ctx, first, page1.lastPage)
			failed = !ok
		}
		again = pages[1]
		if !failed {
			changed = !sweepAgrees(page1, again, pages)
		}
		for n := 2; n <= page1.lastPage; n++ {
			if p := pages[n]; p != nil {
				rest = append(rest, p.Websites...)
			}
		}
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	end := b.now()
	if changed {
		// What was read before the sweep began may be gone: read it again.
		b.evictLocked(nil, start)
	}
	switch {
	case again != nil:
		b.page1 = bulkPage{websites: again.Websites, lastPage: again.LastPage, total: again.Total, seq: seq}
	case !reused && page1.lastPage > 0:
		b.page1 = page1
	}
	if b.page1.lastPage > 0 && (again != nil || !reused) {
		b.storeLocked(b.page1.websites, b.page1.seq, end)
		b.page1.at = end
	}
	// Each website of a page read now is as true as an individual read,
	// even when the pages do not make one list: only the sweep's claim to
	// hold every website is dropped then.
	b.storeLocked(rest, seq, end)
	switch {
	case failed:
		b.failedAt = end
	case changed:
		// Sweep once more (the reads waiting for this one start it); when
		// that one sees a change too, read individually for a TTL.
		if !b.changedAt.IsZero() && end.Sub(b.changedAt) <= b.ttl {
			b.failedAt = end
		}
		b.changedAt = end
		b.stats.Changed++
	case full || page1.lastPage == 1:
		b.completeLocked(append(slices.Clone(b.page1.websites), rest...), seq, start, end)
	}
	b.flight = nil
}

// sweepAgrees reports whether the pages of a sweep (by number, without
// the first page when it is not read again) make one list with its first
// page (list_sweep.go).
func sweepAgrees(page1 bulkPage, again *Page, pages map[int]*Page) bool {
	if again != nil && (again.Total != page1.total || !slices.EqualFunc(again.Websites, page1.websites, sameID)) {
		return false
	}
	var check snapshotCheck
	check.next(&Page{Websites: page1.websites, Total: page1.total}, true)
	for n := 2; n <= page1.lastPage; n++ {
		if p := pages[n]; p == nil || !check.next(p, true) {
			return false
		}
	}
	return check.complete()
}

func sameID(a, b Website) bool { return a.ID == b.ID }

// completeLocked records ws, every website of the user as a sweep that
// began at start and ended at end found them: a website that it did not
// return and that was read before it began is dropped (it was deleted), so
// that the next read of it asks the server.
func (b *BulkReader) completeLocked(ws []Website, seq uint64, start, end time.Time) {
	in := make(map[int64]bool, len(ws))
	for _, w := range ws {
		in[w.ID] = true
	}
	b.evictLocked(in, start)
	b.storeLocked(ws, seq, end)
	b.sweptAt = end
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
	b.mu.Lock()
	b.stats.Pages++
	b.mu.Unlock()
	p, err := b.c.ListWebsites(ctx, ListOptions{SortBy: SortByID, Sort: SortDesc, PerPage: MaxPerPage, Page: page})
	if err != nil {
		b.mu.Lock()
		b.stats.PageErrors++
		b.mu.Unlock()
	}
	return p, err
}

// listPages requests the pages first..last, b.conc at a time, and returns
// them by number, and whether all succeeded.
func (b *BulkReader) listPages(ctx context.Context, first, last int) (map[int]*Page, bool) {
	var (
		mu  sync.Mutex
		out = map[int]*Page{}
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
					out[n] = p
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

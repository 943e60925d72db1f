package client

import (
	"context"
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

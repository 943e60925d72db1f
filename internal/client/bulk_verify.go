package client

// The checks that a sweep's pages make one list at one moment: each page
// read again must be the same (samePage, verifyPages).

import (
	"context"
	"slices"
	"time"
)

// samePage reports whether p, a page read again, is old, its earlier
// read: the same total, last page and websites (ids, domains, created_at
// and updated_at). The websites may come in another order, as a page
// sorted by domain orders a shared domain from one query to the next;
// sorted by id, the order is the ids'. For page 1 of a sweep newest
// first, read again at its end: a create puts a new id on page 1 and a
// delete lowers the total, so when neither moved, the list held the same
// websites from old's read to p's, and the pages read in between, which
// agree with old, are that list. Comparing ids alone would miss a website
// changed meanwhile (or deleted and created again under its id after a
// restart); the sweep serves p's websites, never old's.
// pageUnchanged compares any page of a list read twice (list_sweep.go)
// the same way.
func samePage(old bulkPage, p *Page) bool {
	if p.Total != old.total || p.LastPage != old.lastPage || len(p.Websites) != len(old.websites) {
		return false
	}
	was := make(map[int64]Website, len(old.websites))
	for _, w := range old.websites {
		was[w.ID] = w
	}
	for _, w := range p.Websites {
		o, ok := was[w.ID]
		if !ok || w.Domain != o.Domain || !w.UpdatedAt.Equal(o.UpdatedAt) || !w.CreatedAt.Equal(o.CreatedAt) {
			return false
		}
		delete(was, w.ID) // an id twice in p is not old's
	}
	return true
}

// sweepAgrees reports whether the later pages of a sweep (by number) make
// one list with its first page (list_sweep.go). Without meta.total a
// delete between two pages cannot be seen: such a sweep of several pages
// never agrees, and the websites are read one by one.
func sweepAgrees(page1 bulkPage, pages map[int]*Page) bool {
	if page1.total < 0 && page1.lastPage > 1 {
		return false
	}
	var check snapshotCheck
	check.next(&Page{Websites: page1.websites, Total: page1.total})
	for n := 2; n <= page1.lastPage; n++ {
		if p := pages[n]; p == nil || !check.next(p) {
			return false
		}
	}
	return check.complete()
}

// bulkPageOf is p as a page of a sweep, to compare with samePage.
func bulkPageOf(p *Page) bulkPage {
	return bulkPage{websites: p.Websites, lastPage: p.LastPage, total: p.Total}
}

// sweepPages returns the pages of a sweep by number: page1 and the others.
func sweepPages(page1 bulkPage, others map[int]*Page) []bulkPage {
	pages := []bulkPage{page1}
	for n := 2; n <= page1.lastPage; n++ {
		pages = append(pages, bulkPageOf(others[n]))
	}
	return pages
}

// verifyPages reads the pages of a sweep (by number, as first read) once
// more: page 1 first, then the others. It returns the websites read, and
// whether every page is the same as its first read (samePage) and every
// request succeeded.
//
// A sweep newest first proves which websites the list held when its first
// page was read (list_sweep.go), but each later page shows its websites
// as they were when it was read: a website renamed between two page reads
// makes the sweep hold a domain twice or never, although no moment did.
// A lookup by domain needs the holders at one moment. When every page
// reads the same again, each website held what its page says from its
// first read to its second, so at the second read of page 1, after every
// first read and before the other second reads, all of them did; and the
// list held those websites then: a website created before it would be on
// page 1, one deleted before it missing from its page's second read.
func (b *BulkReader) verifyPages(ctx context.Context, pages []bulkPage) ([]Website, bool, bool) {
	p, err := b.listPage(ctx, 1)
	if err != nil {
		return nil, false, false
	}
	ws := slices.Clone(p.Websites)
	same := samePage(pages[0], p)
	nums := make([]int, 0, len(pages)-1)
	for n := 2; n <= len(pages); n++ {
		nums = append(nums, n)
	}
	ps, ok := b.listPages(ctx, nums...)
	for _, n := range nums {
		if p := ps[n]; p != nil {
			ws = append(ws, p.Websites...)
			same = same && samePage(pages[n-1], p)
		}
	}
	return ws, same && ok, ok
}

// verify is the fetch of fetchVerify: it reads the pages of the sweep made
// at `at` again (verifyPages). When they are the same, that sweep's
// websites answer lookups by domain; when not, the sweep is dropped, as a
// sweep whose pages disagree.
func (b *BulkReader) verify(ctx context.Context, f *bulkFetch, pages []bulkPage, at time.Time) {
	defer close(f.done)
	if release, err := b.holdWrites(ctx, writeSlots); err == nil {
		defer release()
	}
	b.mu.Lock()
	seq, sent := b.seq, b.stats.Pages
	b.mu.Unlock()
	// This process's writes since the sweep spoil it too: a website it
	// wrote may also have been renamed by another client meanwhile, and
	// back, which only updated_at shows.
	ws, same, ok := b.verifyPages(ctx, pages)
	b.mu.Lock()
	defer b.mu.Unlock()
	end := b.now()
	b.busyUntilLocked(end)
	b.storeLocked(ws, seq, end)
	switch {
	case !b.sweptAt.Equal(at):
	case !ok && !b.serverFailedLocked(ctx, sent):
	case !ok:
		b.failedLocked(b.attempt, true)
	case same:
		b.verified, b.attempt = true, 0 // the lookups waiting paid for it
	default:
		b.sweptAt, b.swept, b.sweptBy = time.Time{}, nil, nil
		b.page1, b.others = bulkPage{}, nil
		b.changedLocked(end)
	}
	b.flight = nil
}

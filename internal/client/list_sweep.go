package client

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"net/http"
	"slices"
	"strings"
)

// How a list read page by page is known to be one snapshot.
//
// The list endpoint pages with an offset, and websites created or deleted
// between two pages shift what the later pages hold: a website can be
// returned twice, or never, although it existed throughout. A delete and a
// create keep meta.total, so the total alone proves nothing.
//
// Ids only grow: a new website's id is above every id the list has held.
// Read by id descending, a create lands before page 1 and a delete shifts
// the websites after it. So when page 1 is read first and every later page
// (read after it, in any order) has page 1's meta.total and carries on the
// strictly decreasing ids where the page before it ended, the pages are the
// list as it was when page 1 was read. By page number: when the pages before
// a page are that list, a shift at the start of the page (more creates than
// deletes before it) brings back a website already seen, or one newer than
// all of them; no shift, with the same total, means nothing after its start
// was deleted, so the page is that list's too.
//
// Any other order is read newest first and ordered here (sweepLocally).
//
// That proves which websites the list held, not what each held at one
// moment: a page read later shows a website as it is then, renamed perhaps
// after an earlier page was read, so the pages together can hold a domain
// twice, or never, although no moment did. A list of several pages is
// therefore read twice (sweepWebsites), and the bulk reader reads its
// sweep's pages again before a lookup by domain trusts them (verifyPages);
// reads by id need no more: each website read is as true as a read of it
// alone at that moment.

// snapshotCheck follows pages of one sweep by id descending.
type snapshotCheck struct {
	total int   // meta.total of the first page, -1 when the server leaves it out
	last  int64 // id of the last website so far, 0 before the first page
	n     int   // websites so far
	pages int
}

// next reports whether p, the page after those already seen, agrees with
// them.
func (s *snapshotCheck) next(p *Page) bool {
	if s.pages == 0 {
		s.total = p.Total
	} else if p.Total != s.total {
		return false
	}
	s.pages++
	for _, w := range p.Websites {
		if s.last != 0 && w.ID >= s.last {
			return false
		}
		s.last = w.ID
		s.n++
	}
	return true
}

// complete reports whether the pages seen hold as many websites as
// meta.total says (always true when the server leaves it out).
func (s *snapshotCheck) complete() bool { return s.total < 0 || s.n == s.total }

// errListChanged is the error of a sweep that saw the list change.
func errListChanged(what string) error {
	return &APIError{Kind: ErrListChanged, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusOK,
		Message: what + "; retry when no one else is creating, deleting or renaming websites"}
}

// AllWebsites iterates over every matching website, page by page (always
// sending per_page), to the end: it follows meta.last_page, or links.next,
// or asks for the next page after a full one, until an empty page.
// Iteration stops at the first error, which is yielded with a zero Website.
//
// What it yields is the list at one moment (see the comment at the top of
// this file). Newest first (sort_by id, sort desc: the API's default), it
// yields its first page at once, so a caller that needs no more reads one
// page, and the others after every page was read a second time and found
// unchanged (sweepWebsites). In any other order, the whole list is read
// so, and ordered here (sweepLocally: by id, or by domain in lower case
// and then id), before the first is yielded. When the list changed while
// it was read, an ErrListChanged error ends the iteration; nothing is
// yielded from a page that did not agree with the others. A sweep that
// saw a change before it yielded anything starts again, once.
//
// A search lists the websites whose domain contains its text, in any case:
// the server's search is a pattern (`_` and `%` match any character) that
// it ignores when PHP reads it as false ("0", blanks), so what it answers
// is filtered here.
func (c *Client) AllWebsites(ctx context.Context, opts ListOptions) iter.Seq2[Website, error] {
	return func(yield func(Website, error) bool) {
		if opts.Search != "" {
			yield = containing(opts.Search, yield)
		}
		for attempt := 1; ; attempt++ {
			yielded, err := c.sweepWebsites(ctx, opts, yield)
			if err == nil || err == errStop {
				return
			}
			if !errors.As(err, new(*listChangedError)) {
				yield(Website{}, err)
				return
			}
			if yielded || attempt == 2 {
				yield(Website{}, errListChanged("websites were created, deleted or renamed while the list was read"))
				return
			}
		}
	}
}

// containing is yield for the websites whose domain contains search, in
// any case; it passes errors on.
func containing(search string, yield func(Website, error) bool) func(Website, error) bool {
	return func(w Website, err error) bool {
		if err == nil && !domainContains(w.Domain, search) {
			return true
		}
		return yield(w, err)
	}
}

// domainContains reports whether domain contains search, in any case: what
// a list's search promises.
func domainContains(domain, search string) bool {
	return strings.Contains(strings.ToLower(domain), strings.ToLower(search))
}

// errStop is sweepWebsites's answer when yield asked to stop.
var errStop = errors.New("stop")

// yieldEach yields ws in order, and reports errStop when yield asked to
// stop.
func yieldEach(ws []Website, yield func(Website, error) bool) error {
	for _, w := range ws {
		if !yield(w, nil) {
			return errStop
		}
	}
	return nil
}

// listChangedError is sweepWebsites's answer when the pages did not agree.
type listChangedError struct{}

func (*listChangedError) Error() string { return "the list changed while it was read" }

// sweepWebsites reads the pages twice and yields their websites. It
// reports whether it yielded any, and a *listChangedError when the pages
// did not agree.
func (c *Client) sweepWebsites(ctx context.Context, opts ListOptions, yield func(Website, error) bool) (bool, error) {
	if opts.SortBy == SortByDomain || opts.Sort == SortAsc {
		return c.sweepLocally(ctx, opts, yield)
	}
	// Ids only grow proves which websites the pages hold, not what they
	// held at one moment: a page read later shows a website renamed after
	// an earlier page was read, so the pages together may hold a domain
	// twice, or never, although no moment did. A search (or a favorite
	// filter) is not even closed under ids only grow: a website renamed
	// into it brings an old id anywhere in it, and one renamed out keeps
	// the total with it. Without meta.total, a delete is not seen either.
	// So a list of several pages is read twice: every page, then every page
	// again from the first, and each must be the same both times
	// (samePage). Each website then held what the pages say from its first
	// read to its second, so at the second read of the first page, after
	// every first read, all of them did. A change that shifted a page at its
	// first read changed a website that another page held at its first
	// read: the second read finds that website gone, moved or with a later
	// updated_at (unless it was changed and changed back within one second,
	// which updated_at cannot tell). Page 1 alone is one read, the list's
	// start at one moment: it is yielded at once, so a caller that needs no
	// more reads one page.
	var (
		check    snapshotCheck
		buffered []Website
		pages    []*Page // every page read, for the second read
		yielded  bool
	)
	first := max(opts.Page, 1)
	for page := first; ; page++ {
		o := opts
		o.Page = page
		p, err := c.ListWebsites(ctx, o)
		if err != nil {
			return yielded, err
		}
		if !check.next(p) {
			return yielded, &listChangedError{}
		}
		last := !p.HasNext || len(p.Websites) == 0
		if last && opts.Page <= 1 && !check.complete() {
			return yielded, &listChangedError{}
		}
		pages = append(pages, p)
		if page == first {
			yielded = len(p.Websites) > 0
			if err := yieldEach(p.Websites, yield); err != nil {
				return true, err
			}
		} else {
			buffered = append(buffered, p.Websites...)
		}
		if last {
			break
		}
	}
	if len(pages) > 1 {
		for i, p := range pages {
			if err := c.pageUnchanged(ctx, opts, first+i, p); err != nil {
				return yielded, err
			}
		}
	}
	if err := yieldEach(buffered, yield); err != nil {
		return true, err
	}
	return yielded || len(buffered) > 0, nil
}

// pageUnchanged reads page n of the list again and reports a
// *listChangedError unless it is as old, its earlier read (samePage).
func (c *Client) pageUnchanged(ctx context.Context, opts ListOptions, n int, old *Page) error {
	o := opts
	o.Page = n
	p, err := c.ListWebsites(ctx, o)
	if err != nil {
		return err
	}
	if !samePage(bulkPageOf(old), p) {
		return &listChangedError{}
	}
	return nil
}

// sweepLocally is sweepWebsites for the whole list in opts's order, read
// newest first, whose pages check each other, and ordered here
// (localOrder): every list that is not newest first, from page
// opts.Page as the server would page it. Read in the server's order, it
// would need the list's newest website read before and after the pages;
// by domain, the server orders websites that share a domain differently
// from one query to the next, so a tie that a page boundary splits comes
// on two pages (and the other website on none), or makes a page read
// differently the second time, although nothing changed.
func (c *Client) sweepLocally(ctx context.Context, opts ListOptions, yield func(Website, error) bool) (bool, error) {
	desc := opts
	// The caller's per_page only decides the cut: read 100 a page.
	desc.SortBy, desc.Sort, desc.Page, desc.PerPage = SortByID, SortDesc, 0, MaxPerPage
	var all []Website
	if _, err := c.sweepWebsites(ctx, desc, func(w Website, _ error) bool {
		all = append(all, w)
		return true
	}); err != nil {
		return false, err
	}
	slices.SortStableFunc(all, localOrder(opts))
	if opts.Page > 1 {
		// The list from page opts.Page of opts.PerPage (MaxPerPage
		// when zero), as the server would page it.
		per := cmp.Or(opts.PerPage, MaxPerPage)
		all = all[min((opts.Page-1)*per, len(all)):]
	}
	if err := yieldEach(all, yield); err != nil {
		return true, err
	}
	return len(all) > 0, nil
}

// localOrder compares two websites in opts's order, as the emulator
// sorts: by id, or by domain in lower case (compared byte by byte, which
// is Unicode code point order) and then by id, both ascending with sort
// "asc" and descending otherwise (the API's default).
func localOrder(opts ListOptions) func(a, b Website) int {
	dir := -1
	if opts.Sort == SortAsc {
		dir = 1
	}
	return func(a, b Website) int {
		if opts.SortBy == SortByDomain {
			if c := strings.Compare(strings.ToLower(a.Domain), strings.ToLower(b.Domain)); c != 0 {
				return dir * c
			}
		}
		return dir * cmp.Compare(a.ID, b.ID)
	}
}

package client

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"
)

// FindByDomain returns the website whose domain is exactly domain, like
// Client.FindWebsiteByDomain (an ErrNotFound *APIError when there is none, a
// *DuplicateDomainError when there are several), from a list sweep when many
// domains are being looked up (see findAllByDomain).
func (b *BulkReader) FindByDomain(ctx context.Context, domain string) (*Website, error) {
	ws, err := b.findAllByDomain(ctx, domain)
	if err != nil {
		return nil, err
	}
	return oneByDomain(domain, ws)
}

// findAllByDomain returns every website whose domain is exactly domain, by
// id, like Client.findWebsitesByDomain, from a list sweep when many domains
// are being looked up (the imports of one Terraform run).
//
// Only a complete sweep whose pages were read twice and found the same
// answers (verifyPages): a domain on page 1 may also be on a later page
// (the application has no unique index on domains), so a partial read
// never does, and pages read once may each show another moment. The
// first lookup of a burst requests page 1, which is the whole list for up
// to 100 websites and otherwise tells the sweep's cost;
// once the reads and lookups counted exceed the pages still to read, the
// other pages follow, as for Read. A domain that the sweep does not hold (a
// website created since, another user's, or none at all) is looked up with
// the exact search, whose answer is then served to the reads that follow.
// So a lookup's answer is the one the search would have given at the time
// of the sweep, which is at most a TTL (or the current burst) old; the
// websites it returns are read again by the import's own Read, served from
// the same sweep.
func (b *BulkReader) findAllByDomain(ctx context.Context, domain string) ([]Website, error) {
	return b.lookup(ctx, domain, func(d string) bool { return d == domain }, false)
}

// FindHolders returns every website of the user whose domain match
// accepts, by id: whether a domain is held, for a check that many creates
// of one Terraform run make. search is what the list's search is asked for
// when no sweep answers: a case-insensitive substring of every domain
// match accepts (a website whose domain does not contain it is not
// found). Lookups count toward a sweep as FindByDomain's do (the first of
// a burst requests page 1, which is the whole list for up to 100
// websites), and they wait a moment (Linger) for more lookups before they
// search; a fresh complete sweep whose pages read the same twice answers
// them either way, a website it does not hold included, unless the
// caller wrote a website of the domain since (see matchingLocked): then
// the search answers, as the holders are now. match runs with the reader
// locked and must not call it; a match that panics panics the call and
// leaves the reader usable.
func (b *BulkReader) FindHolders(ctx context.Context, search string, match func(domain string) bool) ([]Website, error) {
	return b.lookup(ctx, search, match, true)
}

// lookup is FindByDomain's and FindHolders's: the websites whose domain
// match accepts, from a fresh complete sweep when one holds any (or,
// with settle, when there is one at all), else from the search for
// search.
func (b *BulkReader) lookup(ctx context.Context, search string, match func(string) bool, settle bool) ([]Website, error) {
	b.mu.Lock()
	b.stats.Lookups++
	if b.ttl < 0 {
		b.stats.Searches++
		b.mu.Unlock()
		return b.c.searchWebsites(ctx, search, match)
	}
	now := b.now()
	b.countLocked(now)
	b.since++
	if settle {
		if err := b.gatherLocked(ctx, now); err != nil {
			b.mu.Unlock()
			return nil, err
		}
		now = b.now()
	}
	var (
		ws      []Website
		unknown []int64
		caught  any // what match panicked with while b.mu was held
	)
	locked := func(d string) (ok bool) {
		defer func() {
			if r := recover(); r != nil {
				caught = r
			}
		}()
		return match(d)
	}
	swept, affected := false, false
	// A fresh complete sweep settles the lookup, unless this process
	// wrote a website of the domain since (see matchingLocked): the
	// sweep's answer is the domain's holders at one moment, and a search
	// the holders now. What the sweep does not hold is searched for,
	// unless settle.
	b.waiting++
	_, err := b.waitLocked(ctx, now, now, 0, 0, settle, func(now time.Time) bool {
		if !b.sweptFreshLocked(now) || !b.verified {
			return false
		}
		ws, affected, unknown = b.matchingLocked(locked)
		swept = true
		return true
	})
	b.waiting--
	if err == nil && swept && !affected && len(unknown) > 0 {
		// This process changed websites since the sweep without learning
		// the outcome: what they hold now may be the domain (another
		// client may have renamed them). Read them again once the
		// searches this costs meanwhile would pay for it (ski rental),
		// and remember what they hold; else search.
		if len(unknown) > 1 && b.blind < len(unknown) {
			b.blind++
			affected = true
		} else {
			at := b.sweptAt
			b.mu.Unlock()
			ok := b.readAgain(ctx, unknown)
			b.mu.Lock()
			ws, affected, unknown = b.matchingLocked(locked)
			// The reads may have let another sweep in, or this one age:
			// only the fresh verified sweep of before answers.
			same := b.sweptAt.Equal(at) && b.verified && b.sweptFreshLocked(b.now())
			affected = affected || !ok || len(unknown) > 0 || !same
		}
	}
	if caught != nil {
		// The caller's panic, raised again once the reader is unlocked.
		b.mu.Unlock()
		panic(caught)
	}
	if err != nil || (swept && !affected && (len(ws) > 0 || settle)) {
		if err == nil {
			b.stats.LookupHits++
		}
		b.mu.Unlock()
		return ws, err
	}
	b.stats.Searches++
	seq, begun, inflight, at := b.seq, b.begun, b.inflight, b.sweptAt
	b.mu.Unlock()
	ws, listed, err := b.c.searchListed(ctx, search, match)
	b.mu.Lock()
	if errors.Is(err, ErrListChanged) && (b.seq != seq || b.begun != begun || inflight > 0) {
		// This process wrote while the search read its pages (the creates
		// of the same apply): search once more, its writes held.
		seq = b.seq
		b.mu.Unlock()
		ws, listed, err = b.searchHeld(ctx, search, match)
		b.mu.Lock()
	}
	if err != nil {
		b.mu.Unlock()
		return nil, err
	}
	now = b.now()
	if b.sweptAt.Equal(at) {
		// The lookup counted one toward the sweep (and toward what a
		// failed one owes); a search of many pages cost more requests.
		extra := listRequests(listed) - 1
		b.since += extra
		if !b.sweptFreshLocked(now) {
			b.reads += extra
		}
	}
	if swept && affected && b.sweptAt.Equal(at) && !at.IsZero() {
		// This process's writes since the sweep made this lookup search.
		// Once such searches cost what a new sweep read twice would (ski
		// rental, in requests), drop the sweep: the next lookup starts
		// one, which holds those writes.
		b.costly += listRequests(listed)
		if pages := listPages(len(b.swept)); b.costly >= 2*pages {
			b.sweptAt = time.Time{}
			b.reads = max(b.reads, 2*pages+2)
		}
	}
	for _, w := range ws {
		if b.forgotten[w.ID] <= seq { // as storeLocked
			b.entries[w.ID] = bulkEntry{w: w, at: now, searched: true}
		}
	}
	b.mu.Unlock()
	var out []Website
	for _, w := range ws {
		out = append(out, *w.clone())
	}
	return out, nil
}

// searchHeld searches for search with this process's writes held, and
// releases them however the search ends (match may panic).
func (b *BulkReader) searchHeld(ctx context.Context, search string, match func(string) bool) ([]Website, int, error) {
	release, err := b.holdWrites(ctx, writeSlots)
	if err != nil {
		return nil, 0, err
	}
	defer release()
	return b.c.searchListed(ctx, search, match)
}

// gatherLocked waits, for a lookup that would start a sweep with its
// first page (FindHolders), until no other lookup or read has arrived for
// the linger time (up to maxBulkLinger since started): the checks of one
// plan's creates arrive a few at a time, and a first page read once they
// are counted goes on with the other pages in the same fetch, where a
// first page read for the first lookup alone would be read again at the
// end of the sweep (see fetch). It unlocks b.mu while waiting
// (lingerWaitLocked).
func (b *BulkReader) gatherLocked(ctx context.Context, started time.Time) error {
	for b.linger >= 0 && b.flight == nil {
		now := b.now()
		if b.planLocked(now, 0, 0) != fetchFirst || (b.page1.lastPage > 0 && b.freshLocked(b.page1.at, now)) {
			return nil
		}
		wait, left := b.linger-now.Sub(b.arrived), maxBulkLinger-now.Sub(started)
		if wait <= 0 || left <= 0 {
			return nil
		}
		if quiet, err := b.lingerWaitLocked(ctx, min(wait, left)); err != nil || quiet {
			return err
		}
	}
	return nil
}

// matchingLocked returns the websites of the latest complete sweep whose
// domain match accepts, by id (all at one moment), and whether this
// process's writes since may have changed who holds such a domain: it
// created a website of the domain (Write), deleted or changed one that
// held it then or now, or a create failed without saying whether it
// stored one. unknown are the websites it changed since without learning
// what they hold now (Forget, a failed Write) and not read again since,
// that did not hold such a domain in the sweep. A write of this process
// never renames a website (the API's update keeps the domain).
func (b *BulkReader) matchingLocked(match func(string) bool) (ws []Website, affected bool, unknown []int64) {
	for _, w := range b.swept {
		if match(w.Domain) {
			ws = append(ws, *w.clone())
		}
	}
	slices.SortFunc(ws, func(a, b Website) int { return cmp.Compare(a.ID, b.ID) })
	affected = b.lostCreate > b.sweptSeq
	for id, seq := range b.forgotten {
		if affected {
			break
		}
		if seq <= b.sweptSeq {
			continue
		}
		o, known := b.own[id]
		d, held := b.sweptDomain[id]
		affected = (held && match(d)) || (known && o.w != nil && match(o.w.Domain))
		if !known && !affected {
			unknown = append(unknown, id)
		}
	}
	slices.Sort(unknown)
	return ws, affected, unknown // ws nil when none, as findWebsitesByDomain
}

// readAgain reads the websites ids again, which this process changed
// since the latest sweep without learning the outcome, and keeps what
// they hold (nil when gone) for the lookups that follow. It reports
// whether every read answered.
func (b *BulkReader) readAgain(ctx context.Context, ids []int64) bool {
	for _, id := range ids {
		b.mu.Lock()
		seq := b.forgotten[id]
		b.mu.Unlock()
		w, err := b.Read(ctx, id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return false
		}
		b.mu.Lock()
		if b.forgotten[id] == seq { // not changed again meanwhile
			o := ownWrite{seq: b.seq}
			if w != nil {
				o.w = w.clone()
			}
			b.own[id] = o
		}
		b.mu.Unlock()
	}
	return true
}

// ListAll returns every matching website, as Client.AllWebsites yields
// them. A list of every website (no search, no favorite filter, from page
// 1) is a complete sweep of the user's websites: the reads and lookups
// that follow (the imports that a list data source feeds) are served from
// it, as from a sweep of their own.
func (b *BulkReader) ListAll(ctx context.Context, opts ListOptions) ([]Website, error) {
	whole := opts.Search == "" && opts.Favorite == nil && opts.Page <= 1
	// The list is read twice, and must read the same: this process's own
	// writes wait, as for a sweep's fetch (bulk_write.go).
	release, err := b.holdWrites(ctx, writeSlots)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	seq, start := b.seq, b.now()
	if b.ttl >= 0 && whole {
		b.countLocked(start)
	}
	b.mu.Unlock()
	ws, err := b.c.listAllWebsites(ctx, opts)
	release()
	if opts.Search != "" {
		// The server's search is a pattern (see AllWebsites).
		ws = slices.DeleteFunc(ws, func(w Website) bool { return !domainContains(w.Domain, opts.Search) })
	}
	if err != nil || b.ttl < 0 || !whole {
		return ws, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	end := b.now()
	b.storeLocked(ws, seq, end)
	b.completeLocked(slices.Clone(ws), seq, start, end) // the caller owns ws
	b.verified = true                                   // AllWebsites read its pages twice (list_sweep.go)
	b.lastRead = end
	return ws, nil
}

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
// them either way, a website it does not hold included. The caller's own
// writes since the sweep (Write) answer as they left the website, a
// website created since included; a website it changed without learning
// the outcome (Forget, a failed Write) is read again once (Read), and a
// create that failed makes lookups search until the next sweep.
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
		unknown []int64 // websites this process changed since the sweep, outcome unknown
	)
	swept := false
	// A fresh complete sweep settles the lookup, as this process's own
	// writes since left it (Write); what it does not hold is searched
	// for, unless settle. A website this process changed since without
	// learning what the server holds (Forget, a failed Write) is read
	// again, or, for a create that failed, the search answers.
	b.waiting++
	_, err := b.waitLocked(ctx, now, now, 0, 0, settle, func(now time.Time) bool {
		if !b.sweptFreshLocked(now) || !b.verified {
			return false
		}
		ws, unknown = b.matchingLocked(match)
		swept = true
		return true
	})
	b.waiting--
	whole := swept && len(unknown) == 0 && b.lostCreate <= b.sweptSeq
	if err != nil || (whole && (len(ws) > 0 || settle)) {
		if err == nil {
			b.stats.LookupHits++
		}
		b.mu.Unlock()
		return ws, err
	}
	if settle && swept && b.lostCreate <= b.sweptSeq {
		b.stats.LookupHits++
		b.mu.Unlock()
		for _, id := range unknown {
			w, err := b.readAgain(ctx, id)
			if err != nil {
				return nil, err
			}
			if w != nil && match(w.Domain) {
				ws = append(ws, *w)
			}
		}
		slices.SortFunc(ws, func(a, b Website) int { return cmp.Compare(a.ID, b.ID) })
		return ws, nil
	}
	b.stats.Searches++
	seq := b.seq
	b.mu.Unlock()
	ws, err = b.c.searchWebsites(ctx, search, match)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	now = b.now()
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

// gatherLocked waits, for a lookup that would start a sweep with its
// first page (FindHolders), until no other lookup or read has arrived for
// the linger time (up to maxBulkLinger since started): the checks of one
// plan's creates arrive a few at a time, and a first page read once they
// are counted goes on with the other pages in the same fetch, where a
// first page read for the first lookup alone would be read again at the
// end of the sweep (see fetch). It unlocks b.mu while waiting.
func (b *BulkReader) gatherLocked(ctx context.Context, started time.Time) error {
	for b.linger >= 0 && b.flight == nil {
		now := b.now()
		if b.planLocked(now, 0, 0) != fetchFirst || (b.page1.lastPage > 0 && b.freshLocked(b.page1.at, now)) {
			return nil
		}
		quiet, left := b.linger-now.Sub(b.arrived), maxBulkLinger-now.Sub(started)
		if quiet <= 0 || left <= 0 {
			return nil
		}
		arrival := b.arrival
		b.mu.Unlock()
		timer := b.after(min(quiet, left))
		var err error
		select {
		case <-arrival:
		case <-timer:
		case <-ctx.Done():
			err = ctx.Err()
		}
		b.mu.Lock()
		if err != nil {
			return err
		}
	}
	return nil
}

// matchingLocked returns the websites whose domain match accepts, by
// id, as the latest complete sweep held them (all at one moment) and as
// this process's writes since left them (Write), and the ids of the
// websites this process changed since without learning the outcome
// (Forget, a failed Write).
func (b *BulkReader) matchingLocked(match func(string) bool) (ws []Website, unknown []int64) {
	for _, w := range b.swept {
		if match(w.Domain) && b.forgotten[w.ID] <= b.sweptSeq {
			ws = append(ws, *w.clone())
		}
	}
	for id, seq := range b.forgotten {
		if seq <= b.sweptSeq {
			continue
		}
		switch o, ok := b.own[id]; {
		case !ok:
			unknown = append(unknown, id)
		case o.w != nil && match(o.w.Domain):
			ws = append(ws, *o.w.clone())
		}
	}
	slices.SortFunc(ws, func(a, b Website) int { return cmp.Compare(a.ID, b.ID) })
	slices.Sort(unknown)
	return ws, unknown // ws nil when none, as findWebsitesByDomain
}

// readAgain reads the website id, which this process changed since the
// latest sweep without learning the outcome, and keeps what it found for
// the lookups that follow: the website, or nil when it is gone.
func (b *BulkReader) readAgain(ctx context.Context, id int64) (*Website, error) {
	b.mu.Lock()
	seq := b.forgotten[id]
	b.mu.Unlock()
	w, err := b.Read(ctx, id)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.forgotten[id] == seq { // not changed again meanwhile
		o := ownWrite{seq: b.seq}
		if w != nil {
			o.w = w.clone()
		}
		b.own[id] = o
	}
	return w, nil
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

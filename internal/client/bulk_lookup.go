package client

import (
	"cmp"
	"context"
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
	var ws []Website
	// A fresh complete sweep settles the lookup: what it does not hold is
	// searched for.
	_, err := b.waitLocked(ctx, now, now, 0, 0, false, func(now time.Time) bool {
		if !b.sweptFreshLocked(now) {
			return false
		}
		ws = b.byDomainLocked(domain, now)
		return true
	})
	if err != nil || len(ws) > 0 {
		if err == nil {
			b.stats.LookupHits++
		}
		b.mu.Unlock()
		return ws, err
	}
	b.stats.Searches++
	seq := b.seq
	b.mu.Unlock()
	ws, err = b.c.findWebsitesByDomain(ctx, domain)
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

// ListAll returns every matching website, as Client.AllWebsites yields
// them. An unfiltered list is a complete sweep of the user's websites: the
// reads and lookups that follow (the imports that a list data source feeds)
// are served from it, as from a sweep of their own.
func (b *BulkReader) ListAll(ctx context.Context, opts ListOptions) ([]Website, error) {
	b.mu.Lock()
	seq, start := b.seq, b.now()
	if b.ttl >= 0 && opts.Search == "" {
		b.countLocked(start)
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
	b.completeLocked(ws, start, end)
	b.lastRead = end
	return ws, nil
}

package client

// Unexported calls that the tests of package client_test drive directly:
// the single-request create and update (to watch what one request does),
// and the list and lookups that the exported calls are built on.
var (
	CreateWebsiteAttempt = (*Client).createWebsite
	UpdateWebsiteAttempt = (*Client).updateWebsite
	ListAllWebsites      = (*Client).listAllWebsites
	FindWebsitesByDomain = (*Client).findWebsitesByDomain
	FindAllByDomain      = (*BulkReader).findAllByDomain
)

// APIVerified reports whether the base URL has answered as the API, for the
// tests of package client_test.
func (c *Client) APIVerified() bool { return c.apiVerified() }

// WritesHeld reports whether a fetch of list pages keeps this process's
// writes waiting (bulk_write.go).
func WritesHeld(b *BulkReader) bool {
	if b.writes.TryAcquire(1) {
		b.writes.Release(1)
		return false
	}
	return true
}

// Fetching reports whether a fetch of list pages is under way.
func Fetching(b *BulkReader) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flight != nil
}

// SharedGet reports, for the GET of id that reads share, how many callers
// wait for it, and whether it has settled what to do about the server's
// answer: a wait (some callers may have been told they cannot wait so
// long) or an end (no GET of id runs).
func SharedGet(b *BulkReader, id int64) (waiters int, settled bool) {
	b.mu.Lock()
	g := b.gets[id]
	b.mu.Unlock()
	if g == nil {
		return 0, true
	}
	g.ctx.mu.Lock()
	defer g.ctx.mu.Unlock()
	return len(g.ctx.waiters), g.ctx.pending != nil
}

package client

import (
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// Defaults of BulkReaderOptions.
const (
	// DefaultBulkTTL is how long a website read by a list sweep is served
	// once reads pause.
	DefaultBulkTTL = 5 * time.Second
	// DefaultBulkMaxAge bounds how long it is served while reads go on.
	DefaultBulkMaxAge = 10 * time.Minute
	// DefaultBulkProbe is the number of reads answered with individual GETs
	// before the reader looks at the first list page.
	DefaultBulkProbe = 1
	// DefaultBulkPageConcurrency is the number of list pages a sweep
	// requests at once.
	DefaultBulkPageConcurrency = 4
	// DefaultBulkLinger is the default of BulkReaderOptions.Linger.
	DefaultBulkLinger = 50 * time.Millisecond
	// DefaultBulkWriteWait is the default of BulkReaderOptions.WriteWait:
	// longer than a sweep of a few pages takes, far shorter than an
	// operation's time limit.
	DefaultBulkWriteWait = 10 * time.Second
	// maxBulkLinger bounds the whole wait of one read for more reads.
	maxBulkLinger = time.Second
)

// BulkReaderOptions configures a BulkReader. The zero value uses the
// defaults above.
type BulkReaderOptions struct {
	// TTL is how long a website read by a list sweep (or an individual read)
	// may be served without asking the server again, counted from the end of
	// the request that read it (a sweep's claim to hold every website, from
	// when its last fetch of pages began: a first page read before then is
	// read again at its end). While reads go on without a pause longer than
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
	// read to arrive (on Clock, with After's timers) before it reads
	// its website individually; each read that arrives starts the wait
	// again, up to a second in all. Terraform starts its reads of one
	// refresh a few at a time, and the first page often arrives when only
	// some have started: without the wait, those would each cost a GET
	// that the sweep they are about to cause makes useless. Zero means
	// DefaultBulkLinger; a negative value does not wait.
	Linger time.Duration
	// WriteWait bounds how long a write (Write) waits for a fetch of list
	// pages under way before it is sent anyway. Zero means
	// DefaultBulkWriteWait.
	WriteWait time.Duration
	// Clock gives the current time (tests). Nil means time.Now.
	Clock func() time.Time
	// After is Linger's timer, on Clock's time (tests): the channel
	// delivers once d has passed. Nil means time.After.
	After func(d time.Duration) <-chan time.Time
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
	// Changed is the number of sweeps whose pages did not agree: websites
	// were created or deleted while they were read.
	Changed int
}

// BulkReader reads websites by id for a caller that reads many of them at
// about the same time, such as a Terraform refresh, which reads every managed
// website concurrently without saying how many reads will come.
//
// Reading N websites one by one costs N requests. A sweep of the list
// endpoint (100 per page, newest first) reads all of the user's websites
// in total/100 requests. The reader chooses between the two as reads arrive,
// like the ski-rental problem: the first Probe reads are individual GETs;
// the next one requests page 1 of the sweep, which also tells its cost
// (meta.last_page); once the reads counted since then exceed the pages still
// to read, the other pages are requested and every waiting and later read is
// served from them. A read that page 1 did not answer, while more reads
// would pay for the other pages, waits a moment (Linger) for them to arrive
// before it reads its website individually. So refreshing every website
// costs one GET and the list's pages, reading one website among thousands
// costs one GET, and no pattern costs more than about twice what the better
// of the two strategies would have.
//
// FindByDomain resolves domains the same way, for imports by domain: the
// sweep that answers it is also an index by domain, and the reads that follow
// each import are served from it, so adopting many websites costs the
// list's pages, read twice: a lookup needs the domains of one moment, and
// each page shows its websites as they were when it was read
// (verifyPages). A sweep's fetch reads its pages twice when lookups wait
// for it; after a sweep that reads alone caused, lookups search until
// they outnumber its pages, then read them again (ski rental once more).
//
// Only one fetch of list pages runs at a time, and one GET per id;
// concurrent reads wait for them instead of starting their own. A website
// that a sweep did not return is always confirmed with an individual GET,
// never reported missing. A sweep is the list at one moment, or no sweep:
// its pages are checked against each other (see fetch and list_sweep.go),
// a first page read by an earlier fetch is read again at the end, and the
// sweep is served for a TTL from its start; when websites were created or
// deleted meanwhile, what was read before it is dropped and reads and
// lookups ask the server one by one. The sweep may begin with the last
// page, where the oldest websites are, when a read of one of those misses
// the first page. A page that fails falls back to individual GETs too,
// and no new sweep starts until the reads have repaid what the failed
// one cost (failedLocked).
//
// What a sweep read is served as BulkReaderOptions.TTL and MaxAge say.
// Write runs a change of this process between fetches, so that its own
// writes never spoil a sweep, and Forget drops a website after the caller
// changed or deleted it, including from a sweep running at the time. A BulkReader is safe for concurrent use.
type BulkReader struct {
	c      *Client
	ttl    time.Duration
	maxAge time.Duration
	probe  int
	conc   int
	linger time.Duration
	wait   time.Duration // WriteWait
	now    func() time.Time
	after  func(time.Duration) <-chan time.Time

	writes *semaphore.Weighted // this process's writes and fetches, apart (bulk_write.go)

	mu          sync.Mutex // guards the fields below
	entries     map[int64]bulkEntry
	forgotten   map[int64]uint64   // id -> seq of its last Forget or Write
	own         map[int64]ownWrite // what this process's writes since the latest sweep left (bulk_write.go)
	seq         uint64             // number of Forget and Write calls
	lostCreate  uint64             // seq of the latest create whose outcome is unknown
	begun       uint64             // writes begun (Write)
	inflight    int                // writes under way
	costly      int                // lookups that searched since the latest sweep for want of it (this process's writes)
	blind       int                // lookups that searched for want of reading changed websites again
	reads       int                // reads counted toward the next sweep
	lastRead    time.Time
	arrived     time.Time          // time of the latest read counted
	arrival     chan struct{}      // closed and replaced when a read is counted
	burst       time.Time          // first read of the current burst of reads
	page1       bulkPage           // the latest first page
	others      map[int]*Page      // later pages read after page1, by number
	sweptAt     time.Time          // end of the latest complete sweep
	sweptSeq    uint64             // seq when the latest complete sweep began
	swept       []Website          // the latest complete sweep's websites
	sweptDomain map[int64]string   // their domains by id
	sweptBy     []bulkPage         // its pages as first read, by number (nil for ListAll's)
	verified    bool               // swept's websites held their values at one moment
	waiting     int                // lookups waiting for a fetch (verify inline when any)
	since       int                // lookups since the latest complete sweep
	failures    int                // sweeps whose page failed in this burst since the latest complete sweep (failedLocked)
	attempt     int                // pages requested in this burst since the latest failed, complete or verified sweep
	changedAt   time.Time          // end of the latest sweep whose pages disagreed
	flight      *bulkFetch         // the fetch of list pages in progress
	gets        map[int64]*bulkGet // individual GETs in progress
	stats       BulkStats
}

type bulkEntry struct {
	w        Website
	at       time.Time // when it became valid: the end of the fetch that read it
	searched bool      // read by a lookup's search (paid for by the lookup)
}

// bulkPage is the first page of a sweep, kept so that the sweep that
// follows can serve it again without requesting it twice.
type bulkPage struct {
	websites []Website
	lastPage int       // 0 when no first page was read
	total    int       // meta.total
	seq      uint64    // seq when it was requested
	start    time.Time // when it was requested: the sweep's moment
	at       time.Time // when it was read
}

// bulkGet is one individual GET that reads of the same id wait for.
type bulkGet struct {
	ctx  *shared       // the callers waiting for it
	done chan struct{} // closed when w and err are set
	w    *Website
	err  error
}

// bulkFetch is one fetch of list pages that reads wait for.
type bulkFetch struct {
	kind fetchKind
	ctx  *shared       // the callers waiting for it
	done chan struct{} // closed when the fetch ended
}

// fetchKind is what a fetch of list pages reads.
type fetchKind int

const (
	fetchNothing fetchKind = iota
	// fetchWait: nothing yet, but more reads would pay for the sweep.
	fetchWait
	fetchFirst // the first page (and the others if the reads pay for them)
	fetchLast  // the last page, where the oldest websites are
	fetchSweep // every page not read yet
	// fetchVerify: every page of the latest complete sweep again, for a
	// lookup by domain (see verifyPages).
	fetchVerify
)

// NewBulkReader returns a reader of c's websites configured by opts.
func NewBulkReader(c *Client, opts BulkReaderOptions) *BulkReader {
	b := &BulkReader{
		c:         c,
		ttl:       opts.TTL,
		maxAge:    opts.MaxAge,
		probe:     opts.Probe,
		conc:      opts.PageConcurrency,
		linger:    opts.Linger,
		wait:      opts.WriteWait,
		arrival:   make(chan struct{}),
		writes:    semaphore.NewWeighted(writeSlots),
		now:       opts.Clock,
		after:     opts.After,
		entries:   map[int64]bulkEntry{},
		forgotten: map[int64]uint64{},
		own:       map[int64]ownWrite{},
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
	if b.wait <= 0 {
		b.wait = DefaultBulkWriteWait
	}
	if b.linger == 0 {
		b.linger = DefaultBulkLinger
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.after == nil {
		b.after = time.After
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
	b.forgetLocked(id)
}

// forgetLocked drops what the reader knows about the website id, as
// changed by this process at b.seq.
func (b *BulkReader) forgetLocked(id int64) {
	b.forgotten[id] = b.seq
	delete(b.entries, id)
	delete(b.own, id)
	delete(b.gets, id) // later reads do not join a GET sent before the change
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

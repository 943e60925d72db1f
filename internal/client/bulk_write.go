package client

import (
	"context"
	"math"
)

// writeSlots is the weight of the semaphore that keeps this process's
// writes and its sweeps apart: a write takes one slot, a fetch of list
// pages all of them.
const writeSlots = math.MaxInt32

// Write runs write, a change by this process to the website id (0 for a
// create), between fetches of list pages: it waits for the fetch under
// way, and no fetch begins while it runs. write returns the website as
// the server holds it after the change, or nil when it deleted the
// website. The reader keeps that answer, as an individual read of the
// moment (Read serves it), and its domain: a lookup of a domain that
// this process's writes touched since the latest sweep searches (the
// holders now), every other lookup is answered by the sweep (the holders
// at its moment). When write fails (or panics), the reader forgets id
// (see Forget): the change may or may not have been made; a create that
// failed without a refusal makes every lookup search. Once the searches
// that this process's writes cause have cost, in requests, twice the
// sweep's pages, the next lookup sweeps anew. write must never rename a
// website (the API's update keeps the domain).
//
// So this process's own creates, updates and deletes never make the
// pages of one fetch disagree (bulk_fetch.go): only another writer's
// changes cost a second sweep or individual reads. A fetch that outlasts
// WriteWait (a page waiting out a long Retry-After) does not hold the
// write longer: it is sent anyway, and the fetch's checks see it as any
// other writer's. It returns ctx's error, without calling write, when
// ctx ends while it waits.
func (b *BulkReader) Write(ctx context.Context, id int64, write func() (*Website, error)) error {
	release, err := b.holdWrites(ctx, 1)
	if err != nil {
		return err
	}
	defer release() // after the write is counted: a fetch sees it
	var (
		w    *Website
		done bool
	)
	b.mu.Lock()
	b.begun++
	b.inflight++
	b.mu.Unlock()
	defer func() {
		// Recorded even when write panics: the change may have been made.
		b.mu.Lock()
		defer b.mu.Unlock()
		b.inflight--
		b.wroteLocked(id, w, err, done)
	}()
	w, err = write()
	done = true
	return err
}

// wroteLocked records the outcome of a write of the website id (0: a
// create): w and err as write returned them, or done false when it
// panicked.
func (b *BulkReader) wroteLocked(id int64, w *Website, err error, done bool) {
	b.seq++
	switch {
	case id <= 0 && (w == nil || err != nil):
		if !done || createOutcome(err) != outcomeRejected {
			b.lostCreate = b.seq // a website may have been created
		}
	case !done || err != nil:
		b.forgetLocked(id)
	case w == nil:
		b.forgetLocked(id)
		b.own[id] = ownWrite{seq: b.seq} // deleted
	default:
		if id > 0 {
			b.forgetLocked(id)
		}
		b.forgotten[w.ID] = b.seq
		b.own[w.ID] = ownWrite{w: w.clone(), seq: b.seq}
		b.entries[w.ID] = bulkEntry{w: *w.clone(), at: b.now()}
	}
}

// ownWrite is what a write of this process left a website as since the
// latest complete sweep began: w, or nil when it deleted it (or a read
// found it gone). seq is b.seq when it was learned.
type ownWrite struct {
	w   *Website
	seq uint64
}

// holdWrites waits for this process's writes under way and keeps new
// ones waiting until the returned function is called: a fetch of list
// pages takes every slot (writeSlots), a write one. It waits at most
// WriteWait: a write or fetch that takes longer (a long Retry-After, or
// a list read from inside a write) does not hold the caller; it then
// goes on unheld, and the checks of list_sweep.go and bulk_fetch.go see
// the other side as another writer's. It returns ctx's error when ctx
// ends first.
func (b *BulkReader) holdWrites(ctx context.Context, slots int64) (release func(), err error) {
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	held := b.writes.Acquire(wctx, slots) == nil
	cancel()
	if err := ctx.Err(); !held && err != nil {
		return nil, err
	}
	if !held {
		return func() {}, nil
	}
	return func() { b.writes.Release(slots) }, nil
}

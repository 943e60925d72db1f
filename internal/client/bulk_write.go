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
// way, and no fetch begins while it runs. Then it forgets id (see Forget),
// whatever write returned. So this process's own creates, updates and
// deletes do not make a sweep's pages disagree (bulk_fetch.go): only
// another writer's changes cost a second sweep or individual reads. A
// fetch that outlasts WriteWait (a page waiting out a long Retry-After)
// does not hold the write longer: it is sent anyway, and the fetch's
// checks see it as any other writer's. It returns ctx's error, without
// calling write, when ctx ends while it waits.
func (b *BulkReader) Write(ctx context.Context, id int64, write func() error) error {
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	held := b.writes.Acquire(wctx, 1) == nil
	cancel()
	if err := ctx.Err(); !held && err != nil {
		return err
	}
	if held {
		defer b.writes.Release(1) // after the write is counted: a fetch sees it
	}
	err := write()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	if id > 0 {
		b.forgotten[id] = b.seq
		delete(b.entries, id)
		delete(b.gets, id)
	}
	return err
}

// holdWrites waits for this process's writes under way and keeps new
// ones waiting until the returned function is called. A fetch of list
// pages calls it first.
func (b *BulkReader) holdWrites() (release func()) {
	_ = b.writes.Acquire(context.Background(), writeSlots) // cannot fail without a deadline
	return func() { b.writes.Release(writeSlots) }
}

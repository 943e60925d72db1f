package client_test

// ListAll (the analytics_websites data source, which
// feeds the imports and reads that follow) while this process updates
// websites (Write), as an apply does when the data source's read is
// deferred to it and other websites are updated beside it.

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// 300 websites (3 pages). While ListAll reads, this process updates one
// website's privacy through the reader (Write), a page-2 website: before
// each attempt's second read of page 2 (requests 5 and 10: the first attempt stops at 5). No
// other client writes. The reader documents that Write keeps this
// process's changes apart from its sweeps ("its own writes never spoil a
// sweep") and fetch holds them (holdWrites); ListAll, which records a
// complete sweep too, does not, and since every page is now read twice
// and compared with its updated_at, an update that renames nothing spoils
// both attempts: ErrListChanged, "retry when no one else is creating,
// deleting or renaming websites", for the provider's own update of a
// privacy setting. A write that waits for the list (as it does for a
// fetch, up to WriteWait) would leave it whole.
func TestListAllWithOwnWrites(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(300)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, WriteWait: 2 * time.Second, Clock: newFakeClock().Now})
	var lists atomic.Int64
	wrote := make(chan error, 4)
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		switch lists.Add(1) {
		case 5, 10: // each attempt's second read of page 2
			done := make(chan error, 1)
			go func() {
				done <- b.Write(ctx(t), ids[150], func() (*client.Website, error) {
					env.emu.UpdateWebsite(ids[150], func(w *emulator.Website) {
						p := 1
						if w.Privacy != nil && *w.Privacy == 1 {
							p = 0
						}
						w.Privacy = &p
						w.UpdatedAt = w.UpdatedAt.Add(time.Second)
					})
					return env.c.GetWebsite(ctx(t), ids[150]) // the update's answer
				})
			}()
			select {
			case err := <-done:
				wrote <- err
			case <-time.After(500 * time.Millisecond):
				// Held while the list is read: it goes on after.
				go func() { wrote <- <-done }()
			}
		}
	})
	ws, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage})
	t.Logf("%d list requests; %+v", lists.Load(), b.Stats())
	if errors.Is(err, client.ErrListChanged) {
		t.Fatalf("ListAll failed on this process's own privacy updates: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 300 {
		t.Errorf("%d websites, want 300", len(ws))
	}
}

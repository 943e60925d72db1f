package client_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// FindHolders concurrent with this process's renames (Write) in and out of
// the domain, and deletes: no id twice in an answer, no website that never
// held the domain, no error.
func TestHoldersConcurrentWrites(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(300)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	const target = "t.example.org"
	touched := map[int64]bool{}
	for _, id := range ids[10:40] {
		touched[id] = true
	}
	var wg sync.WaitGroup
	for i, id := range ids[10:40] {
		wg.Go(func() {
			for k := range 3 {
				_ = b.Write(ctx(t), id, func() (*client.Website, error) {
					env.emu.UpdateWebsite(id, func(w *emulator.Website) {
						if (i+k)%2 == 0 {
							w.Domain = target
						} else {
							w.Domain = fmt.Sprintf("o%d-%d.example.org", i, k)
						}
						w.UpdatedAt = w.UpdatedAt.Add(time.Second)
					})
					return env.c.GetWebsite(ctx(t), id) // the update's answer
				})
			}
			if i%5 == 0 {
				_ = b.Write(ctx(t), id, func() (*client.Website, error) { env.emu.DeleteWebsite(id); return nil, nil })
			}
		})
	}
	errs := make(chan error, 100)
	for range 8 {
		wg.Go(func() {
			for range 10 {
				ws, err := b.FindHolders(ctx(t), target, func(s string) bool { return s == target })
				if err != nil {
					errs <- err
					return
				}
				seen := map[int64]bool{}
				for _, w := range ws {
					if seen[w.ID] || !touched[w.ID] || w.Domain != target {
						errs <- fmt.Errorf("answer %v: %d twice or never held", ws, w.ID)
						return
					}
					seen[w.ID] = true
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	_ = context.Background
	t.Logf("%+v", b.Stats())
}

package client_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// ListAll, Writes, lookups and reads all at once, several rounds: no hang
// (each round must end within a minute), no error but ErrListChanged.
func TestStressNoHang(t *testing.T) {
	t.Parallel()
	for seed := range 3 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			env := newBulkEnv(t)
			ids := env.seed(350)
			doms := domainsOf(env, ids)
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{WriteWait: 300 * time.Millisecond, Linger: 5 * time.Millisecond})
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			type job struct {
				kind int
				i    int
			}
			var jobs []job
			for range 120 {
				jobs = append(jobs, job{rng.IntN(5), rng.IntN(len(ids))})
			}
			done := make(chan struct{})
			var mu sync.Mutex
			var errs []error
			go func() {
				defer close(done)
				runAll(t, jobs, 10, 0, func(c context.Context, j job) error {
					var err error
					switch j.kind {
					case 0:
						_, err = b.ListAll(c, client.ListOptions{PerPage: client.MaxPerPage})
					case 1:
						id := ids[j.i]
						err = b.Write(c, id, func() (*client.Website, error) {
							env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
							return env.c.GetWebsite(c, id)
						})
					case 2:
						var w *client.Website
						if w, err = b.FindByDomain(c, doms[j.i]); err == nil && w.ID != ids[j.i] {
							err = fmt.Errorf("FindByDomain: %d, want %d", w.ID, ids[j.i])
						}
					case 3:
						d := doms[j.i]
						var ws []client.Website
						if ws, err = b.FindHolders(c, d, func(s string) bool { return s == d }); err == nil && (len(ws) != 1 || ws[0].ID != ids[j.i]) {
							err = fmt.Errorf("FindHolders: %v, want %d", ws, ids[j.i])
						}
					case 4:
						_, err = b.Read(c, ids[j.i])
					}
					if err != nil && !errors.Is(err, client.ErrListChanged) {
						mu.Lock()
						errs = append(errs, fmt.Errorf("job %+v: %w", j, err))
						mu.Unlock()
					}
					return err
				})
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("hang; %+v", b.Stats())
			}
			for _, err := range errs {
				t.Error(err)
			}
			t.Logf("%+v", b.Stats())
		})
	}
}

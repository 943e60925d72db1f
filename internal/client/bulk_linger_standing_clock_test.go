package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A linger ends when its timer fires, whatever Clock says: with a Clock
// that stands still (a caller's fake clock, or a clock stepped back) and
// timers on real time, reads and lookups that linger still return. Before,
// they waited for Clock to pass the linger time, which it never did: the
// lookups of TestHoldersConcurrentWrites hung once in a while, when a
// dropped sweep left them lingering for page 1.
func TestLingerEndsWhenItsTimerFires(t *testing.T) {
	t.Parallel()
	// Far longer than the linger; a wait that ends only with Clock never
	// returns before it.
	wait := func(t *testing.T) context.Context {
		c, cancel := context.WithTimeout(ctx(t), 20*time.Second)
		t.Cleanup(cancel)
		return c
	}
	setup := func(t *testing.T) (*client.BulkReader, []int64) {
		env := newBulkEnv(t)
		ids := env.seed(1000) // 10 pages: reads linger for more reads
		return client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: 10 * time.Millisecond, Clock: newFakeClock().Now}), ids
	}
	t.Run("lookup", func(t *testing.T) {
		t.Parallel()
		b, _ := setup(t)
		if _, err := b.FindHolders(wait(t), "a.example", func(s string) bool { return s == "a.example" }); err != nil {
			t.Fatalf("FindHolders lingering on a standing clock: %v", err)
		}
	})
	t.Run("reads", func(t *testing.T) {
		t.Parallel()
		b, ids := setup(t)
		for _, id := range []int64{ids[999], ids[998], ids[500], ids[10]} {
			if _, err := b.Read(wait(t), id); err != nil {
				t.Fatalf("Read(%d) lingering on a standing clock: %v", id, err)
			}
		}
		if s := b.Stats(); s.Pages == 0 {
			t.Errorf("premise: the reads read no list page, so none lingered for one; %+v", s)
		}
	})
}

package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A write callback that panics after its change reached the
// server (recovered by the caller). The slot is given back (a list does
// not wait WriteWait), and the change is not silently kept from lookups:
// a panic is an outcome this process does not know, as a failed write.
func TestWriteThatPanicsIsForgotten(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(150)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now, WriteWait: time.Hour})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	victim := ids[3]
	w, _ := env.emu.Website(victim)
	func() {
		defer func() { _ = recover() }()
		_ = b.Write(ctx(t), victim, func() (*client.Website, error) {
			if err := env.c.DeleteWebsite(ctx(t), victim); err != nil {
				t.Fatal(err)
			}
			panic("after the delete")
		})
	}()
	c, cancel := context.WithTimeout(ctx(t), 20*time.Second)
	defer cancel()
	if _, err := b.ListAll(c, client.ListOptions{PerPage: client.MaxPerPage, Search: "zzz"}); err != nil {
		t.Fatalf("a list after a write that panicked: %v (the write's slot was kept)", err)
	}
	ws, err := b.FindHolders(ctx(t), w.Domain, func(s string) bool { return s == w.Domain })
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 {
		t.Errorf("FindHolders(%s) = website %d, which this process deleted (its write's callback panicked after the delete); %+v", w.Domain, ws[0].ID, b.Stats())
	}
}

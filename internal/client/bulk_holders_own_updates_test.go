package client_test

import (
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A verified sweep (ListAll of 300), then this process updates 50 of its
// websites' privacy (an apply), then ONE create checks its domain
// (FindHolders): it reads each of the 50 again, one GET after the other,
// where one search (1 request) answers the same question.
func TestOneHeldCheckAfterOwnUpdates(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(300)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[:50] {
		if err := b.Write(ctx(t), id, func() (*client.Website, error) {
			env.emu.UpdateWebsite(id, func(w *emulator.Website) { p := 2; w.Privacy = &p; w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
			return env.c.GetWebsite(ctx(t), id) // the update's answer
		}); err != nil {
			t.Fatal(err)
		}
	}
	before, _, _ := env.requests()
	const d = "brand-new.example.net"
	ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
	if err != nil || len(ws) != 0 {
		t.Fatalf("FindHolders = %v, %v", ws, err)
	}
	after, _, show := env.requests()
	t.Logf("one held check after 50 own updates: %d requests (%d show); %+v", after-before, show, b.Stats())
	if n := after - before; n > 2 {
		t.Errorf("one held-domain check after this process updated 50 websites cost %d requests; one search costs 1", n)
	}
}

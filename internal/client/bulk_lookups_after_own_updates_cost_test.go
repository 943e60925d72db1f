package client_test

import (
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A verified sweep (ListAll of 250: 3 pages), this process
// updates 40 of its websites (an apply; Write, domains kept), then the
// data sources by domain of those 40 read them (FindByDomain, as
// website_data_source.go does at apply, after the updates they depend
// on). Each lookup's domain was "touched" by an own update, so each
// searches: 40 requests, and no ski rental ever brings a new sweep
// (planLocked fetches nothing while the sweep is fresh), where a new
// verified sweep of 3 pages costs about 6 and answers all 40: more than
// twice the better strategy (the BulkReader doc's promise).
func TestLookupsOfOwnUpdatedDomainsCost(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	upd := ids[100:140]
	for _, id := range upd {
		if err := b.Write(ctx(t), id, func() (*client.Website, error) {
			env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Privacy = ptr(1); w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
			return env.c.GetWebsite(ctx(t), id) // the update's answer
		}); err != nil {
			t.Fatal(err)
		}
	}
	before, list0, show0 := env.requests()
	for _, id := range upd {
		w, _ := env.emu.Website(id)
		got, err := b.FindByDomain(ctx(t), w.Domain)
		if err != nil || got.ID != id || got.Privacy == nil || *got.Privacy != 1 {
			t.Fatalf("FindByDomain(%s) = %+v, %v", w.Domain, got, err)
		}
	}
	after, list, show := env.requests()
	t.Logf("40 lookups of own-updated domains: %d requests (%d list, %d show); %+v", after-before, list-list0, show-show0, b.Stats())
	if n := after - before; n > 12 {
		t.Errorf("40 lookups by domain of websites this process updated cost %d requests; "+
			"a new verified sweep of 3 pages costs about 6 and answers them all", n)
	}
}

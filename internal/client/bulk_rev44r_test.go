package client_test

// Issue 44, defect 1: the bulk reader's lookups.

import (
	"errors"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A complete sweep holds two websites that share a domain. This process
// then changes one of them (Write, which forgets it: its domain may have
// changed or not). A lookup by the shared domain is answered from what is
// left of the sweep: the other website alone, adopted silently, where an
// exact search (or the sweep before the change) refuses the ambiguous
// domain. A forgotten website makes the sweep incomplete for every domain,
// not only for the websites it still holds.
func TestFindByDomainAfterForgetRefusesSharedDomain(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(150)
	const shared = "shared.example.com"
	env.emu.UpdateWebsite(ids[10], func(w *emulator.Website) { w.Domain = shared })
	env.emu.UpdateWebsite(ids[120], func(w *emulator.Website) { w.Domain = shared })
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	// An unfiltered list (analytics_websites) is a complete sweep.
	if _, err := b.ListAll(ctx(t), client.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.FindByDomain(ctx(t), shared); !errors.As(err, new(*client.DuplicateDomainError)) {
		t.Fatalf("FindByDomain(%q) before the change = %v; want a DuplicateDomainError", shared, err)
	}
	// This process updates one of them; its domain stays.
	if err := b.Write(ctx(t), ids[120], func() error {
		_, err := env.c.GetWebsite(ctx(t), ids[120]) // stands for the PUT: the server keeps the domain
		return err
	}); err != nil {
		t.Fatal(err)
	}
	w, err := b.FindByDomain(ctx(t), shared)
	if !errors.As(err, new(*client.DuplicateDomainError)) {
		id := int64(0)
		if w != nil {
			id = w.ID
		}
		t.Errorf("FindByDomain(%q) after this process changed website %d = website %d, %v; "+
			"want a DuplicateDomainError (websites %d and %d hold the domain)", shared, ids[120], id, err, ids[10], ids[120])
	}
}

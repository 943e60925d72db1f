package client_test

// The request count of an unchanged refresh, and what a list sweep is.

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A refresh of 500 websites, nothing changed: the reads, all at once (as
// Terraform's refresh, -parallelism 500), cost the five list pages and the
// probe's individual reads, no more: no re-read of a page and no second
// sweep.
func TestRefresh500AtTheFloor(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500)
	var lists atomic.Int64
	env.hook(func(page int, after bool) {
		if !after {
			lists.Add(1)
		}
	})
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Probe: 1, Clock: newFakeClock().Now})
	// The probe: one individual read first.
	if _, err := b.Read(ctx(t), ids[0]); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, id := range ids[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := b.Read(ctx(t), id); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	st := b.Stats()
	t.Logf("list requests %d, stats %+v", lists.Load(), st)
	if n := lists.Load(); n > 5 {
		t.Errorf("an unchanged refresh of 500 websites requested %d list pages, want 5", n)
	}
}

// Imports by domain of 500 websites (for_each), all at once, nothing
// changed: the lookups share one sweep; a few searches at most before it.
func TestImport500ByDomainAtTheFloor(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(500)
	var lists atomic.Int64
	env.hook(func(page int, after bool) {
		if !after {
			lists.Add(1)
		}
	})
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now})
	var wg sync.WaitGroup
	for _, w := range env.emu.Websites() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := b.FindByDomain(ctx(t), w.Domain); err != nil || got.ID != w.ID {
				t.Errorf("FindByDomain(%q) = %v, %v", w.Domain, got, err)
			}
		}()
	}
	wg.Wait()
	t.Logf("list requests %d, stats %+v", lists.Load(), b.Stats())
	if n := lists.Load(); n > 10 {
		t.Errorf("500 imports by domain requested %d list pages", n)
	}
}

// Latent (no caller in the provider sends Favorite today): ListAll takes
// any list without a search as a complete sweep, a list filtered by
// favorite included. The lookup of a domain held by a favorite and by
// another website then answers with the favorite alone.
func TestListAllFavoriteIsNoSweep(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(30)
	const dup = "dup.example.com"
	for _, id := range ids {
		env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Favorite = false })
	}
	env.emu.UpdateWebsite(ids[3], func(w *emulator.Website) { w.Domain, w.Favorite = dup, true })
	env.emu.UpdateWebsite(ids[7], func(w *emulator.Website) { w.Domain = dup })
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	yes := true
	fav, err := b.ListAll(ctx(t), client.ListOptions{Favorite: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if len(fav) != 1 {
		t.Skipf("the emulator did not filter by favorite: %d websites", len(fav))
	}
	w, err := b.FindByDomain(ctx(t), dup)
	if !errors.As(err, new(*client.DuplicateDomainError)) {
		got := "none"
		if w != nil {
			got = fmt.Sprint(w.ID)
		}
		t.Errorf("FindByDomain(%q) after a list of favorites = website %s, %v; want a DuplicateDomainError (%d and %d)",
			dup, got, err, ids[3], ids[7])
	}
}

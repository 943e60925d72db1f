package client_test

// FindHolders after this process changed a website since
// the sweep that answers it.

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A verified sweep (ListAll) holds the domain T on website B. This
// process then updates B's privacy through the reader (Write), leaving
// its domain alone: T was held by B at every moment. FindHolders(T)
// answers from the sweep minus the websites this process changed since,
// so B is left out: none, a holder set that T never had; a create's
// held-domain check is told T is free. The claim: no lookup answers a
// holder set that did not exist at one moment. (FindHolders documents
// that a website changed by the caller is not found until the sweep is
// old; FindByDomain, which searches in that case, answers B.)
func TestHoldersAfterOwnUpdate(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	const target = "t.example.org"
	holder := ids[200]
	env.emu.UpdateWebsite(holder, func(w *emulator.Website) { w.Domain = target })
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	if err := b.Write(ctx(t), holder, func() (*client.Website, error) {
		env.emu.UpdateWebsite(holder, func(w *emulator.Website) { p := 2; w.Privacy, w.Password = &p, "pw" })
		return env.c.GetWebsite(ctx(t), holder) // the update's answer
	}); err != nil {
		t.Fatal(err)
	}
	w, err := b.FindByDomain(ctx(t), target)
	if err != nil || w.ID != holder {
		t.Fatalf("FindByDomain(%q) = %v, %v", target, w, err)
	}
	ws, err := b.FindHolders(ctx(t), target, func(d string) bool { return d == target })
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, w := range ws {
		got = append(got, w.ID)
	}
	if fmt.Sprint(got) != fmt.Sprint([]int64{holder}) {
		t.Errorf("FindHolders(%q) = %v; %d held it at every moment (this process changed its privacy only); %+v", target, got, holder, b.Stats())
	}
}

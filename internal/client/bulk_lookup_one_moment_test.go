package client_test

import (
	"errors"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A lookup now answers with the sweep (one moment) plus this
// process's writes since (later moments), without searching. Another
// client deletes website Y (domain d) after the sweep; this process then
// creates X with d (the server accepts: d is free). No moment had both,
// yet FindByDomain(d) answers a *DuplicateDomainError naming X and Y (an
// import or data source by domain fails), and FindHolders(d) answers
// both. Before 0b782df a lookup searched once this process had written
// since the sweep (seq != sweptSeq), and answered X. (At 0b782df
// FindByDomain still searches here, only because the create left id 0
// "unknown": TestCreateThenFindByDomainCostsNothing. FindHolders
// answers {X, Y} already.)
func TestLookupAfterOwnCreateAndOtherDeleteIsOneMoment(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(150)
	const d = "moved.example.org"
	y := ids[20]
	env.emu.UpdateWebsite(y, func(w *emulator.Website) { w.Domain = d })
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	env.emu.DeleteWebsite(y) // another client, after the sweep
	var x int64
	if err := b.Write(ctx(t), 0, func() (*client.Website, error) {
		res, err := env.c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: d})
		if err != nil {
			return nil, err
		}
		x = res.Website.ID
		return res.Website, nil
	}); err != nil {
		t.Fatal(err)
	}
	w, err := b.FindByDomain(ctx(t), d)
	var dup *client.DuplicateDomainError
	if errors.As(err, &dup) {
		t.Errorf("FindByDomain(%s) = %v: websites %d (deleted before the create) and %d never held it together; %+v", d, err, y, x, b.Stats())
	} else if err != nil || w.ID != x {
		t.Errorf("FindByDomain(%s) = %v, %v; want %d", d, w, err, x)
	}
	ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].ID != x {
		var got []int64
		for _, w := range ws {
			got = append(got, w.ID)
		}
		t.Errorf("FindHolders(%s) = %v: no moment had that set (%d was deleted before %d was created)", d, got, y, x)
	}
}

package client_test

import (
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// this review (held): after a verified sweep, this process creates
// "https://WWW.X-CANONICAL.EXAMPLE" (stored as "x-canonical.example"), then
// looks the stored domain up by FindByDomain and FindHolders, and reads
// the new id: each answers the new website; a pause longer than the TTL
// and a new sweep change nothing.
func TestCanonicalisedOwnCreateIsFound(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(250)
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: clock.Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := b.Write(ctx(t), 0, func() (*client.Website, error) {
		res, err := env.c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "https://WWW.X-CANONICAL.EXAMPLE"})
		if err != nil {
			return nil, err
		}
		id = res.Website.ID
		return res.Website, nil
	}); err != nil {
		t.Fatal(err)
	}
	const d = "x-canonical.example"
	check := func(when string) {
		w, err := b.FindByDomain(ctx(t), d)
		if err != nil || w.ID != id {
			t.Errorf("%s: FindByDomain(%s) = %v, %v; want %d", when, d, w, err, id)
		}
		ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
		if err != nil || len(ws) != 1 || ws[0].ID != id {
			t.Errorf("%s: FindHolders(%s) = %v, %v; want [%d]", when, d, ws, err, id)
		}
		r, err := b.Read(ctx(t), id)
		if err != nil || r.Domain != d {
			t.Errorf("%s: Read(%d) = %v, %v", when, id, r, err)
		}
	}
	check("after the create")
	clock.Advance(10 * time.Second)
	check("after a pause")
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	check("after a new sweep")
	t.Logf("%+v", b.Stats())
}

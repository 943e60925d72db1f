package client_test

import (
	"errors"
	"fmt"
	"slices"
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
	env, ids, b := sweptReader(t, 300)
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

// A verified sweep (ListAll of 300), then this process deletes 20 of its
// websites (Write), then 20 creates check their domains (FindHolders), one
// after the other. The sweep answers each check (no search), and the
// deletes as this process made them: 8de607c read every deleted website
// again on every check (400 GETs where 20 searches would do).
func TestHoldersRereadDeleted(t *testing.T) {
	t.Parallel()
	// known: each delete goes through Write, which learns that the
	// website is gone; forgotten: the outcome is unknown (Forget), so the
	// first check reads each again (20 GETs) and remembers the 404.
	for _, how := range []string{"known", "forgotten"} {
		t.Run(how, func(t *testing.T) { holdersAfterOwnDeletes(t, how == "forgotten") })
	}
}

func holdersAfterOwnDeletes(t *testing.T, forget bool) {
	t.Parallel()
	env, ids, b := sweptReader(t, 300)
	for _, id := range ids[:20] {
		if forget {
			env.emu.DeleteWebsite(id)
			b.Forget(id)
			continue
		}
		if err := b.Write(ctx(t), id, func() (*client.Website, error) {
			if !env.emu.DeleteWebsite(id) {
				return nil, errors.New("not deleted")
			}
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	before, _, _ := env.requests()
	const checks = 20
	for i := range checks {
		d := fmt.Sprintf("new-%d.example.net", i)
		ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
		if err != nil || len(ws) != 0 {
			t.Fatalf("FindHolders(%q) = %v, %v", d, ws, err)
		}
	}
	total, _, show := env.requests()
	cost := total - before
	better := checks // one search each
	t.Logf("%d checks after 20 own deletes: %d requests (%d show); %+v", checks, cost, show, b.Stats())
	if cost > 2*better+2 {
		t.Errorf("%d held-domain checks after this process deleted 20 websites cost %d requests; one search each costs %d", checks, cost, better)
	}
}

// The same with renames in, out and a delete: the checks see each as this
// process's write left it.
func TestHoldersRereadRenamed(t *testing.T) {
	t.Parallel()
	env, ids, b := sweptReader(t, 300)
	const target = "t.example.org"
	// ids[5] renamed INTO target, ids[6] holds it and is renamed OUT,
	// ids[7] holds it and is deleted, ids[8] holds it untouched.
	for _, id := range ids[6:9] {
		env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Domain = target })
	}
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	write := func(id int64, f func()) {
		if err := b.Write(ctx(t), id, func() (*client.Website, error) {
			f()
			w, err := env.c.GetWebsite(ctx(t), id) // the update's answer
			if errors.Is(err, client.ErrNotFound) {
				return nil, nil // deleted
			}
			return w, err
		}); err != nil {
			t.Fatal(err)
		}
	}
	write(ids[5], func() {
		env.emu.UpdateWebsite(ids[5], func(w *emulator.Website) { w.Domain = target; w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
	})
	write(ids[6], func() {
		env.emu.UpdateWebsite(ids[6], func(w *emulator.Website) { w.Domain = "out.example.org"; w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
	})
	write(ids[7], func() { env.emu.DeleteWebsite(ids[7]) })
	for range 5 {
		ws, err := b.FindHolders(ctx(t), target, func(s string) bool { return s == target })
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, w := range ws {
			got = append(got, w.ID)
		}
		if want := []int64{ids[5], ids[8]}; !slices.Equal(got, want) {
			t.Errorf("FindHolders = %v, want %v", got, want)
		}
	}
	t.Logf("%+v", b.Stats())
}

// An apply of creates: each checks its domain (FindHolders), then creates
// it through the reader (Write). The checks are answered by the sweep and
// the creates as they returned, a website created here included: no
// request but the POSTs. 0b782df read GET /websites/0 after each create.
func TestHoldersAfterOwnCreates(t *testing.T) {
	t.Parallel()
	env, _, b := sweptReader(t, 300)
	holders := func(d string) []client.Website {
		t.Helper()
		ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	before, _, _ := env.requests()
	var created []int64
	for i := range 30 {
		d := fmt.Sprintf("created-%d.example.net", i)
		if ws := holders(d); len(ws) != 0 {
			t.Fatalf("before its create, %s is held by %v", d, ws)
		}
		if err := b.Write(ctx(t), 0, func() (*client.Website, error) {
			res, err := env.c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: d})
			if err != nil {
				return nil, err
			}
			created = append(created, res.Website.ID)
			return res.Website, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if total, _, _ := env.requests(); total-before != 30 {
		t.Errorf("30 checks and creates after a sweep: %d requests besides the 30 POSTs; want none", total-before-30)
	}
	for i, id := range created {
		ws := holders(fmt.Sprintf("created-%d.example.net", i))
		if len(ws) != 1 || ws[0].ID != id {
			t.Errorf("after its create, created-%d.example.net is held by %v, want website %d", i, ws, id)
		}
	}
}

// After a create through Write, a lookup of another domain is answered
// by the sweep (no request), and one of the created domain by one search,
// the holders as they are now: the sweep shows an earlier moment, which
// the create alone cannot bring up to date (another client may have
// deleted or created a website of that domain since). 0b782df read GET
// /websites/0 after every create.
func TestLookupsAfterOwnCreate(t *testing.T) {
	t.Parallel()
	env, ids, b := sweptReader(t, 150)
	const d = "created-here.example.net"
	if err := env.create(t, b, d); err != nil {
		t.Fatal(err)
	}
	other := domainsOf(env, ids[40:41])[0]
	for _, c := range []struct {
		domain string
		find   bool
		cost   int
	}{{other, false, 0}, {other, true, 0}, {d, false, 1}, {d, true, 1}} {
		before, list0, show0 := env.requests()
		var err error
		if c.find {
			_, err = b.FindByDomain(ctx(t), c.domain)
		} else {
			var ws []client.Website
			ws, err = b.FindHolders(ctx(t), c.domain, func(s string) bool { return s == c.domain })
			if err == nil && len(ws) != 1 {
				err = fmt.Errorf("holders %v, want one", ws)
			}
		}
		if err != nil {
			t.Fatalf("lookup of %s (FindByDomain %v): %v", c.domain, c.find, err)
		}
		total, list, show := env.requests()
		if total-before != c.cost || show != show0 || list-list0 != c.cost {
			t.Errorf("lookup of %s (FindByDomain %v): %d requests (%d GET /websites/{id}), want %d search(es); %+v", c.domain, c.find, total-before, show-show0, c.cost, b.Stats())
		}
	}
}

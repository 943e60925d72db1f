package client_test

// Review this of 8de607c: sweepLocally's cut, FindHolders's re-reads,
// ListAll's hold on writes, lookup costs.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// serverPages reads the list as the server pages it, from page `from` to
// the end, in the server's order (one request per page).
func serverPages(t *testing.T, c *client.Client, opts client.ListOptions, from int) []int64 {
	t.Helper()
	var ids []int64
	for page := from; ; page++ {
		o := opts
		o.Page = page
		p, err := c.ListWebsites(ctx(t), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range p.Websites {
			ids = append(ids, w.ID)
		}
		if !p.HasNext || len(p.Websites) == 0 {
			return ids
		}
	}
}

// AllWebsites from page P of any order is what the server's pages P..end
// hold (unique domains, so the server's order is one order).
func TestLocalCut(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(237)
	// Domains in another order than ids, unique.
	for i, id := range ids {
		d := fmt.Sprintf("%c%03d-x.example.com", 'a'+(i*7)%26, i)
		if i%3 == 0 {
			d = fmt.Sprintf("%c%03d-X.Example.com", 'a'+(i*7)%26, i)
		}
		env.emu.UpdateWebsite(id, func(w *emulator.Website) { w.Domain = d })
	}
	for _, order := range []struct{ by, dir string }{{"", ""}, {client.SortByID, client.SortDesc}, {"", client.SortAsc}, {client.SortByID, client.SortAsc}, {client.SortByDomain, client.SortAsc}, {client.SortByDomain, client.SortDesc}, {client.SortByDomain, ""}} {
		for _, per := range []int{0, 10, 100} {
			for _, search := range []string{"", "a0"} {
				for _, page := range []int{0, 2, 3, 24, 30} {
					opts := client.ListOptions{SortBy: order.by, Sort: order.dir, PerPage: per, Search: search}
					want := serverPages(t, env.c, opts, max(page, 1))
					opts.Page = page
					var got []int64
					for w, err := range env.c.AllWebsites(ctx(t), opts) {
						if err != nil {
							t.Fatalf("%+v: %v", opts, err)
						}
						got = append(got, w.ID)
					}
					if !slices.Equal(got, want) {
						t.Errorf("%+v: %d websites %v..., server pages from %d: %d %v...", opts, len(got), head(got), page, len(want), head(want))
					}
				}
			}
		}
	}
}

func head(ids []int64) []int64 { return ids[:min(len(ids), 5)] }

// A verified sweep (ListAll of 300), then this process deletes 20 of its
// websites (Write), then 20 creates check their domains (FindHolders), one
// after the other. The sweep answers each check (no search); the deleted
// websites are "changed since the sweep" and read again: each Read is a
// GET that answers 404, which is not remembered, so every check reads all
// 20 again: 400 GETs where 20 searches (or one more sweep read twice,
// 6 pages) would do. The bound the reader states: about twice the better.
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
	env := newBulkEnv(t)
	ids := env.seed(300)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
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

// The same with renames: each renamed website is read once, then served
// from what the Read stored (cost bounded).
func TestHoldersRereadRenamed(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(300)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
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

// ListAll while a write of this process is under way waits for it
// (holdWrites, on context.Background): a ListAll whose ctx ends meanwhile
// does not return until the write does.
func TestListAllCancelledWhileWriteRuns(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(150)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	inWrite, release := make(chan struct{}), make(chan struct{})
	wrote := make(chan error, 1)
	go func() {
		wrote <- b.Write(ctx(t), 0, func() (*client.Website, error) {
			close(inWrite)
			select {
			case <-release:
			case <-time.After(20 * time.Second):
			}
			return nil, nil
		})
	}()
	<-inWrite
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := b.ListAll(c, client.ListOptions{PerPage: client.MaxPerPage})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ListAll with an ended ctx: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("ListAll with an ended ctx still waits, 10s on, for a write of this process under way")
		defer func() { t.Logf("ListAll at last: %v", <-done) }()
	}
	close(release)
	if err := <-wrote; err != nil {
		t.Error(err)
	}
}

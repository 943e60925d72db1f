package client_test

// Review rev44r of issue 44 (defects 1 and 2): a sweep filtered by search.

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The snapshot proof of list_sweep.go rests on "ids only grow: a new
// website's id is above every id the list has held". A list filtered by
// search is not closed that way: an update of a domain (by another pipeline,
// or the web interface) brings an OLD id into the filtered list, anywhere in
// it, and takes another out, keeping meta.total. Between page 1 and page 2,
// one match of page 1 renamed out of the search and one old website renamed
// into it shift the first website of page 2 onto page 1, already read: it
// is never returned although it existed, and matched, throughout; the
// pages still pass every check (ids decreasing, same total, count = total).
// Here that website shares its domain with another: the exact lookup by
// domain then silently returns the other one instead of refusing the
// ambiguous domain.
func TestRev44rSearchSweepRenameInAndOut(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	const dup = "dup.example.com"
	seed := func(d string) int64 { return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
	outsider := seed("o.other.org") // oldest, not matched by the search
	x := seed(dup)                  // the oldest match
	for i := range 49 {
		seed(fmt.Sprintf("a%03d.%s", i, dup))
	}
	y := seed(dup) // 101st match newest first: the first of page 2
	var page1 []int64
	for i := range 100 {
		page1 = append(page1, seed(fmt.Sprintf("b%03d.%s", i, dup)))
	}
	var once sync.Once
	env.hook(func(page int, after bool) {
		if page == 2 && !after {
			once.Do(func() {
				// Another pipeline renames a match of page 1 out of the
				// search, and an old website into it: meta.total stays.
				env.emu.UpdateWebsite(page1[50], func(w *emulator.Website) { w.Domain = "renamed.other.org" })
				env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o." + dup })
			})
		}
	})
	w, err := env.c.FindWebsiteByDomain(ctx(t), dup)
	var de *client.DuplicateDomainError
	if !errors.As(err, &de) {
		got := "none"
		if w != nil {
			got = fmt.Sprint(w.ID)
		}
		t.Errorf("FindWebsiteByDomain(%q) = website %s, %v; want a DuplicateDomainError naming %d and %d "+
			"(both held the domain throughout) or an error saying the list changed", dup, got, err, x, y)
	}
}

// The same through a full list filtered by search (analytics_websites with
// search, terraform query): a website that matched throughout is missing
// without a word.
func TestRev44rListAllSearchRenameInAndOut(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	seed := func(d string) int64 { return env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: d}).ID }
	outsider := seed("o.other.org")
	var all []int64
	for i := range 150 {
		all = append(all, seed(fmt.Sprintf("s%03d.shop.example", i)))
	}
	var once sync.Once
	env.hook(func(page int, after bool) {
		if page == 2 && !after {
			once.Do(func() {
				env.emu.UpdateWebsite(all[120], func(w *emulator.Website) { w.Domain = "renamed.other.org" })
				env.emu.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.shop.example" })
			})
		}
	})
	for _, opts := range []client.ListOptions{{Search: "shop.example"}} {
		ws, err := client.ListAllWebsites(env.c, ctx(t), opts)
		if err != nil {
			if errors.Is(err, client.ErrListChanged) {
				continue // said so: fine
			}
			t.Fatal(err)
		}
		got := map[int64]bool{}
		for _, w := range ws {
			got[w.ID] = true
		}
		for _, id := range all {
			if id != all[120] && !got[id] {
				t.Errorf("website %d matched the search throughout, but the list of %d websites misses it", id, len(ws))
			}
		}
	}
}

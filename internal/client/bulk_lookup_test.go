package client_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// lookupResult is the outcome of one FindByDomain.
type lookupResult struct {
	ws  []client.Website
	err error
}

// lookupAll looks domains up with the given number of workers, as the
// imports of one Terraform plan do.
func lookupAll(t *testing.T, b *client.BulkReader, domains []string, workers int) map[string]lookupResult {
	t.Helper()
	return runAll(t, domains, workers, 0, func(c context.Context, d string) lookupResult {
		ws, err := client.FindAllByDomain(b, c, d)
		return lookupResult{ws, err}
	})
}

// checkSameAsSearch compares every lookup with an exact search made now,
// one by one.
func checkSameAsSearch(t *testing.T, c *client.Client, got map[string]lookupResult) {
	t.Helper()
	for d, r := range got {
		want, err := client.FindWebsitesByDomain(c, ctx(t), d)
		if err != nil {
			t.Fatalf("FindWebsitesByDomain(%q): %v", d, err)
		}
		if r.err != nil || !reflect.DeepEqual(r.ws, want) {
			t.Errorf("FindByDomain(%q) = %v, %v\nsearch one by one = %v", d, ids(r.ws), r.err, ids(want))
		}
	}
}

func ids(ws []client.Website) []int64 {
	out := []int64{}
	for _, w := range ws {
		out = append(out, w.ID)
	}
	return out
}

// domainsOf returns the domains of the emulator's websites with the given
// ids.
func domainsOf(env *bulkEnv, want []int64) []string {
	byID := map[int64]string{}
	for _, w := range env.emu.Websites() {
		byID[w.ID] = w.Domain
	}
	out := make([]string, len(want))
	for i, id := range want {
		out[i] = byID[id]
	}
	return out
}

// Lookups answer what one exact search per domain answers: the user's
// websites across pages, duplicates (one on page 1, one on a later page),
// another user's domain (not found, also when it differs from ours only by
// case), a domain that no website has, and substrings of real domains.
func TestFindByDomainMatchesSearch(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	own := env.seed(250)
	dup := env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: domainsOf(env, own[3:4])[0]}).ID
	env.emu.Seed(otherKey, emulator.Website{Domain: "theirs.example.org"})
	env.emu.Seed(otherKey, emulator.Website{Domain: domainsOf(env, own[200:201])[0]}) // the same domain, another user
	env.emu.DeleteWebsite(own[100])
	domains := append(domainsOf(env, append(own[:100:100], own[101:]...)), "theirs.example.org", "nobody.example.net", "site-00001.example", "example.com")
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
	got := lookupAll(t, b, domains, 10)
	checkSameAsSearch(t, env.c, got)
	if r := got[domainsOf(env, own[3:4])[0]]; len(r.ws) != 2 || r.ws[1].ID != dup {
		t.Errorf("duplicate domain: %v, want %d and %d", ids(r.ws), own[3], dup)
	}
	for _, d := range []string{"theirs.example.org", "nobody.example.net"} {
		if r := got[d]; r.err != nil || len(r.ws) != 0 {
			t.Errorf("%s: %v, %v, want none", d, ids(r.ws), r.err)
		}
	}
	if st := b.Stats(); st.Sweeps != 1 || st.LookupHits == 0 {
		t.Errorf("stats %+v, want one sweep that answered lookups", st)
	}
	one, err := b.FindByDomain(ctx(t), domainsOf(env, own[3:4])[0])
	var dupErr *client.DuplicateDomainError
	if !errors.As(err, &dupErr) || !reflect.DeepEqual(dupErr.IDs, []int64{own[3], dup}) {
		t.Errorf("FindOneByDomain of a duplicate: %+v, %v", one, err)
	}
	if _, err := b.FindByDomain(ctx(t), "theirs.example.org"); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("FindOneByDomain of another user's domain: %v, want not found", err)
	}
}

// Websites created, deleted and changed between sweeps (a new burst of
// lookups after the TTL) and within one (the same burst).
func TestFindByDomainChanges(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	own := env.seed(150)
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: clock.Now, Linger: -1})
	domains := domainsOf(env, own)
	checkSameAsSearch(t, env.c, lookupAll(t, b, domains, 10))

	// Within the burst: a website created since the sweep is not in it and
	// is found by the search; the domain of one the provider changed
	// (Forget) too. An update never renames (the API keeps the domain),
	// but another client may have: the changed website is read again
	// once, and the sweep still answers for every other domain it holds.
	created := env.seed(1)[0]
	createdDomain := domainsOf(env, []int64{created})[0]
	if _, err := env.c.UpdateWebsite(ctx(t), own[7], client.WebsiteInput{Domain: "renamed.example.net"}); err != nil {
		t.Fatal(err)
	}
	b.Forget(own[7])
	env.emu.ResetStats()
	got := lookupAll(t, b, []string{createdDomain, "renamed.example.net", domains[7], domains[8]}, 1)
	if total, list, _ := env.requests(); total != 4 || list != 3 {
		t.Errorf("%d requests (%d list), want 3 searches and a read", total, list)
	}
	checkSameAsSearch(t, env.c, got)

	// A new burst after the TTL sweeps again: a website deleted since is
	// not found, a new one is.
	env.emu.DeleteWebsite(own[9])
	newer := env.seed(1)[0]
	clock.Advance(client.DefaultBulkTTL + time.Second)
	check := append([]string{domains[9]}, domainsOf(env, []int64{newer})...)
	check = append(check, domains[10:]...)
	got = lookupAll(t, b, check, 10)
	checkSameAsSearch(t, env.c, got)
	if r := got[domains[9]]; r.err != nil || len(r.ws) != 0 {
		t.Errorf("deleted website: %v, %v, want not found", ids(r.ws), r.err)
	}
	if st := b.Stats(); st.Sweeps != 2 {
		t.Errorf("stats %+v, want a second sweep", st)
	}
}

// What adoption costs: the lookups of the imports, and the reads that
// follow each import.
func TestFindByDomainRequestCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		onServer int
		pick     func([]int64) []int64
		maxTotal int
	}{
		// A sweep that answers lookups reads its pages twice (verifyPages).
		{name: "500 of 500", onServer: 500, pick: all, maxTotal: 10},
		{name: "40 of 40", onServer: 40, pick: all, maxTotal: 1},
		// Ski rental, as for reads: no more than about twice the better of
		// one search per domain and one sweep (50 pages, read twice).
		{name: "250 of 5000", onServer: 5000, pick: every(20), maxTotal: 2*100 + 10},
		{name: "1 among 5000", onServer: 5000, pick: pick(2500), maxTotal: 2},
		{name: "1 among 50", onServer: 50, pick: pick(25), maxTotal: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			want := tc.pick(env.seed(tc.onServer))
			env.emu.ResetStats()
			// A fake clock: the TTL does not run out during a slow sweep.
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now, Linger: -1})
			domains := domainsOf(env, want)
			got := lookupAll(t, b, domains, 10)
			read := readAll(t, b, want, 10)
			total, list, show := env.requests()
			t.Logf("%d lookups and reads: %d requests (%d list, %d show); %+v", len(want), total, list, show, b.Stats())
			if total > tc.maxTotal {
				t.Errorf("%d requests, want at most %d", total, tc.maxTotal)
			}
			for i, id := range want {
				if r := got[domains[i]]; r.err != nil || len(r.ws) != 1 || r.ws[0].ID != id {
					t.Fatalf("lookup of website %d: %v, %v", id, ids(r.ws), r.err)
				}
			}
			checkSameAsGet(t, env.c, read)
		})
	}
}

// With the reader off, every lookup is an exact search.
func TestFindByDomainDisabled(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	own := env.seed(120)
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{TTL: -1})
	got := lookupAll(t, b, domainsOf(env, own[:30]), 4)
	checkSameAsSearch(t, env.c, got)
	if st := b.Stats(); st.Searches != 30 || st.Pages != 0 {
		t.Errorf("stats %+v, want 30 searches and no sweep", st)
	}
}

// An unfiltered list (the list data source) is a sweep: the imports it
// feeds, by domain or by id, and their reads cost nothing more. A filtered
// one is not.
func TestBulkReaderListAll(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	own := env.seed(250)
	env.emu.Seed(otherKey, emulator.Website{Domain: "theirs.example.org"})
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
	if ws, err := b.ListAll(ctx(t), client.ListOptions{Search: "site-0000", PerPage: client.MaxPerPage}); err != nil || len(ws) != 9 {
		t.Fatalf("filtered list: %d websites, %v", len(ws), err)
	}
	if st := b.Stats(); st.Sweeps != 0 {
		t.Errorf("a filtered list counted as a sweep: %+v", st)
	}
	env.emu.ResetStats()
	ws, err := b.ListAll(ctx(t), client.ListOptions{SortBy: client.SortByDomain, Sort: client.SortDesc, PerPage: client.MaxPerPage})
	if err != nil || len(ws) != len(own) {
		t.Fatalf("list: %d websites, %v", len(ws), err)
	}
	listed, _, _ := env.requests()
	got := lookupAll(t, b, domainsOf(env, own), 10)
	read := readAll(t, b, own, 10)
	if total, _, _ := env.requests(); total != listed {
		t.Errorf("the lookups and reads after the list cost %d requests, want none", total-listed)
	}
	checkSameAsSearch(t, env.c, got)
	checkSameAsGet(t, env.c, read)
	// Another user's domain is still looked up (and not found).
	if _, err := b.FindByDomain(ctx(t), "theirs.example.org"); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("another user's domain: %v, want not found", err)
	}
}

// FindHolders, as the held-domain check of many creates uses it, with a
// match that ignores case: the first lookup reads page 1 (which tells the
// sweep's cost) and searches; lookups search while they are at most twice
// the pages left, plus one (the sweep reads its pages twice for them), then
// sweep once; a fresh sweep then answers every lookup,
// a domain it does not hold included, with no request more. Each answer is
// the one a search would give (a stored domain in another case included).
func TestFindHoldersSearchThenSweep(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	own := env.seed(250) // three pages of 100
	mixed := env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "MiXed.Example.com"}).ID
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: clock.Now, Linger: -1})
	holders := func(domain string) []int64 {
		t.Helper()
		ws, err := b.FindHolders(ctx(t), domain, func(d string) bool { return strings.EqualFold(d, domain) })
		if err != nil {
			t.Fatalf("FindHolders(%q): %v", domain, err)
		}
		return ids(ws)
	}
	steps := []struct {
		domain string
		want   []int64
		lists  int // GET /websites sent so far
	}{
		// Searches while the lookups are at most twice the pages left
		// (2), plus one: a sweep for lookups reads its pages twice.
		{"mixed.example.com", []int64{mixed}, 2},                // page 1, then a search
		{"nobody.example.net", []int64{}, 3},                    // a search
		{domainsOf(env, own[5:6])[0], []int64{own[5]}, 4},       // a search
		{"nobody-else.example.net", []int64{}, 5},               // a search
		{domainsOf(env, own[240:241])[0], []int64{own[240]}, 6}, // a search: 5 lookups
		{"MIXED.example.COM", []int64{mixed}, 11},               // pages 2 and 3, then all three again
		{"nobody-at-all.example.net", []int64{}, 11},            // the sweep answers
		{domainsOf(env, own[7:8])[0], []int64{own[7]}, 11},
	}
	for _, s := range steps {
		got := holders(s.domain)
		if _, list, _ := env.requests(); !reflect.DeepEqual(got, s.want) || list != s.lists {
			t.Errorf("FindHolders(%q) = %v after %d GET /websites; want %v after %d", s.domain, got, list, s.want, s.lists)
		}
	}
}

// A lookup's cost is not estimated from page 1, which
// holds the NEWEST websites, the most biased sample of a list when the
// websites a search matches were created together. A user holding 900
// websites of other domains who recently added 100 tenant-N.example.com
// creates example.com itself: the search answers its 100 matches in one
// page, so the lookup costs page 1 and the search (an estimate from page
// 1 made it sweep the list's ten pages).
func TestFindHoldersCostNotEstimatedFromNewestPage(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	for i := range 900 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("shop-%04d.other.org", i)})
	}
	for i := range 100 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("tenant-%04d.example.com", i)})
	}
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now, Linger: -1})
	ws, err := b.FindHolders(ctx(t), "example.com", func(d string) bool { return strings.EqualFold(d, "example.com") })
	if err != nil || len(ws) != 0 {
		t.Fatalf("FindHolders: %v, %v", ids(ws), err)
	}
	if _, list, _ := env.requests(); list > 2 {
		t.Errorf("one held-domain lookup cost %d GET /websites; its search answers in one page: want at most 2 (page 1 and the search)", list)
	}
}

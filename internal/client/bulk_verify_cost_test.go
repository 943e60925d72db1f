package client_test

// What one lookup by domain costs after a refresh's sweep.

import (
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A refresh of 1000 managed websites sweeps the list (one probe GET and
// 10 pages, read once: reads by id need no more). The same run then looks
// ONE domain up (a data "analytics_website" by domain, which shares the
// refresh's sweep). The better of the two strategies for that lookup is one
// exact search (1 request); the reader's own documentation bounds any
// pattern at about twice the better strategy. Instead, the first lookup
// after a sweep made by reads re-reads every page of it (fetchVerify):
// 10 requests for one lookup, 50 on a 5000-website account, against a
// 60-requests-per-minute throttle.
func TestOneLookupAfterRefreshSearches(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(1000) // 10 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil { // the probe
		t.Fatal(err)
	}
	for id, r := range readAll(t, b, ids[1:], 20) {
		if r.err != nil {
			t.Fatalf("read %d: %v", id, r.err)
		}
	}
	before, _, _ := env.requests()
	if st := b.Stats(); st.Sweeps != 1 {
		t.Fatalf("the refresh did not sweep: %+v", st)
	}
	domain := domainsOf(env, ids[500:501])[0]
	w, err := b.FindByDomain(ctx(t), domain)
	if err != nil || w.ID != ids[500] {
		t.Fatalf("FindByDomain(%q) = %v, %v", domain, w, err)
	}
	after, _, _ := env.requests()
	t.Logf("refresh: %d requests; one lookup after it: %d more; %+v", before, after-before, b.Stats())
	if n := after - before; n > 2 {
		t.Errorf("one lookup after the refresh cost %d requests (every page of the sweep again); one search costs 1", n)
	}
}

// The same lookup made FIRST in the run (a data source read before the
// managed websites' refresh): it is answered by page 1 and a search, as
// before. Yet, as it was counted in the burst, the refresh's sweep that
// follows reads every page twice (the inline verifyPages), although no
// lookup waits for it: the refresh of 1000 costs 20 pages instead of 10.
func TestLookupFirstLeavesTheRefreshAtItsPages(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(1000) // 10 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	domain := domainsOf(env, ids[500:501])[0]
	if w, err := b.FindByDomain(ctx(t), domain); err != nil || w.ID != ids[500] {
		t.Fatalf("FindByDomain(%q) = %v, %v", domain, w, err)
	}
	lookup, _, _ := env.requests()
	if _, err := b.Read(ctx(t), ids[0]); err != nil {
		t.Fatal(err)
	}
	for id, r := range readAll(t, b, ids[1:], 20) {
		if r.err != nil {
			t.Fatalf("read %d: %v", id, r.err)
		}
	}
	total, list, show := env.requests()
	t.Logf("lookup: %d requests; then the refresh: %d more (%d list, %d show in all); %+v", lookup, total-lookup, list, show, b.Stats())
	if n := total - lookup; n > 12 {
		t.Errorf("the refresh of 1000 after one lookup cost %d requests; want its 10 pages (and a probe)", n)
	}
}

// The commonest case: a plan that adds ONE website to a configuration that
// manages 1000. The refresh sweeps (probe + 10 pages); the create's check
// that its domain is not held (FindHolders, held-domain check) then re-reads
// all 10 pages, where the sweep answered it for free before this change and
// one search would cost 1.
func TestOneHeldCheckAfterRefreshSearches(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(1000)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil {
		t.Fatal(err)
	}
	for id, r := range readAll(t, b, ids[1:], 20) {
		if r.err != nil {
			t.Fatalf("read %d: %v", id, r.err)
		}
	}
	before, _, _ := env.requests()
	ws, err := b.FindHolders(ctx(t), "brand-new.example.net", func(d string) bool { return d == "brand-new.example.net" })
	if err != nil || len(ws) != 0 {
		t.Fatalf("FindHolders = %v, %v", ws, err)
	}
	after, _, _ := env.requests()
	t.Logf("refresh: %d requests; one held-domain check after it: %d more; %+v", before, after-before, b.Stats())
	if n := after - before; n > 2 {
		t.Errorf("one held-domain check after the refresh cost %d requests; one search costs 1", n)
	}
}

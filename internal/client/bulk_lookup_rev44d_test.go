package client_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Review rev44d: the held-domain check of one create "costs a request or
// two however many websites the user holds" (provider_data.go
// heldDomains). Its search is a substring match (LIKE %q%), so the search
// for an apex domain answers every subdomain the user holds: a SaaS with
// 1000 tenants at <tenant>.example.com that creates example.com itself
// reads page 1 and then all ten pages of the search, more than the whole
// sweep (ten pages) it was meant to save, at plan and again at apply.
// No lookup can cost less than ten pages here: the search must show every
// one of its 1000 answers to rule out example.com itself. When page 1
// shows that the search costs the sweep's pages, the lookup sweeps, and the
// sweep answers the lookups after it.
func TestRev44dFindHoldersApexSearchCost(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	for i := range 1000 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("tenant-%04d.example.com", i)})
	}
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now, Linger: -1})
	ws, err := b.FindHolders(ctx(t), "example.com", func(d string) bool { return strings.EqualFold(d, "example.com") })
	if err != nil || len(ws) != 0 {
		t.Fatalf("FindHolders: %v, %v", ids(ws), err)
	}
	if _, list, _ := env.requests(); list != 10 {
		t.Errorf("one held-domain lookup cost %d GET /websites, want the sweep's 10", list)
	}
	ws, err = b.FindHolders(ctx(t), "tenant-0007.example.com", func(d string) bool { return strings.EqualFold(d, "tenant-0007.example.com") })
	if err != nil || len(ws) != 1 {
		t.Fatalf("FindHolders(tenant-0007.example.com): %v, %v", ids(ws), err)
	}
	if _, list, _ := env.requests(); list != 10 {
		t.Errorf("the next lookup: %d GET /websites in all, want 10 (the sweep answers)", list)
	}
}

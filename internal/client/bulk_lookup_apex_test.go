package client_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The search of the held-domain check is a substring match
// (LIKE %q%), and the API has no exact one, so the lookup of an apex domain
// answers every subdomain the user holds: a SaaS with 1000 tenants at
// <tenant>.example.com that creates example.com itself reads them all,
// one way or another. What holds: the lookup costs no more than a sweep
// (ten pages) and the first page that told its size, and it finds nothing
// that does not match exactly. A search of several pages is read twice (a
// website renamed into the search would shift a page read before), so
// the bound is twice a sweep's pages and that first page.
func TestFindHoldersApexSearchCost(t *testing.T) {
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
	if _, list, _ := env.requests(); list > 2*10+1 {
		t.Errorf("one held-domain lookup cost %d GET /websites, want at most twice a sweep's 10 and one", list)
	}
}

package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// requestsCheck checks the emulator's request counters since the last
// ResetStats: at most maxTotal requests besides GET /account, at most
// accounts GET /account (one per Terraform command that creates, imports,
// updates or deletes; none for a refresh of websites whose owner the state
// remembers), and exactly the given count per method.
func requestsCheck(env *acctest.Env, maxTotal, accounts int, exact map[string]int) error {
	s := env.Stats()
	account := s.ByRoute["GET /api/v1/account"]
	if account > accounts {
		return fmt.Errorf("%d GET /account requests, want at most %d (by route: %v)", account, accounts, s.ByRoute)
	}
	if s.Total-account > maxTotal {
		return fmt.Errorf("%d API requests besides GET /account, want at most %d (by route: %v)", s.Total-account, maxTotal, s.ByRoute)
	}
	s.ByMethod["GET"] -= account
	for method, want := range exact {
		if got := s.ByMethod[method]; got != want {
			return fmt.Errorf("%d %s requests, want exactly %d (by route: %v)", got, method, want, s.ByRoute)
		}
	}
	if s.Throttled > 0 || s.ByStatus["200"]+s.ByStatus["201"] != s.Total {
		return fmt.Errorf("unsuccessful requests: by status %v", s.ByStatus)
	}
	return nil
}

// TestAccWebsite_bulk checks the request budget of many websites: one
// request per create, update and delete, and a refresh of 150 websites in a
// list sweep of two pages (plus the one individual read that comes first,
// and no GET /account: the state remembers every website's owner) instead
// of 150 reads. It drives the CLI itself (the provider built from this
// tree, as a process of its own, without the race detector that makes 150
// websites in-process slow), in the commands terraform-plugin-testing's
// steps would run: a plan saved and applied, so that the plan's and the
// apply's processes each pay their own sweeps.
func TestAccWebsite_bulk(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "request counts: how often and how many at once the CLI calls the provider")
	acctest.NeedsEmulator(t, "counts the emulator's requests per operation with the throttle off (150 websites)")
	const n = 150
	// A throttle that never refuses: this test counts requests.
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}))
	w := acctest.NewWorkdir(t)
	websites := func(extra string) {
		w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "bulk" {
  count  = %d
  domain = "bulk-${count.index}.example.com"
  %s
}
`, n, extra)))
	}
	check := func(what string, err error) {
		t.Helper()
		t.Logf("%s: by route %v", what, env.Stats().ByRoute)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	planApply := func(args ...string) {
		t.Helper()
		w.MustRun(0, append([]string{"plan", "-out=bulk.tfplan"}, args...)...)
		w.MustRun(0, "apply", "bulk.tfplan")
	}
	// refresh: a plan that reads all 150 websites and finds nothing to do
	refresh := func(what string) {
		t.Helper()
		env.ResetStats()
		w.MustRun(0, "plan", "-detailed-exitcode")
		check(what, requestsCheck(env, 3, 0, nil))
	}

	// create: exactly one POST each, and one list of the user's websites
	// per plan (the plan's and the apply's), which every create's
	// held-domain check shares (findDomain)
	websites("")
	env.ResetStats()
	planApply()
	check("create", requestsCheck(env, n+2, 2, map[string]int{"POST": n}))
	refresh("refresh after the create")

	// update: exactly one PUT each, plus the refresh before it and the
	// identity check of the apply (a sweep too)
	websites(`email_reports = true`)
	env.ResetStats()
	planApply()
	check("update", requestsCheck(env, n+2*3, 2, map[string]int{"PUT": n, "POST": 0, "DELETE": 0}))
	refresh("refresh after the update")

	// destroy: exactly one DELETE each (the plan's refresh and the apply's
	// identity check are sweeps), and the statistics checks of the destroy
	// plan (a budget)
	env.ResetStats()
	planApply("-destroy")
	if got := env.Stats().ByRoute["GET /api/v1/stats/{id}"]; got > maxStatisticsRequests {
		t.Errorf("%d statistics requests, want at most %d", got, maxStatisticsRequests)
	}
	// The identity check's reads that arrive before its sweep are read
	// individually: at most Terraform's parallelism.
	check("destroy", requestsCheck(env, n+2*3+10+maxStatisticsRequests, 2, map[string]int{"DELETE": n, "PUT": 0, "POST": 0}))
	if left := len(env.Websites()); left != 0 {
		t.Errorf("%d websites left after the destroy", left)
	}
}

// TestAccWebsite_bulkIdentityCost: the identity check of the deletes of a
// destroy (website_identity.go) costs the bulk reader's list pages, not a
// request per website: a destroy of 100 websites reads them in one
// individual GET and one list page, on top of the refresh's, and deletes
// each once.
func TestAccWebsite_bulkIdentityCost(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "request counts: how often and how many at once the CLI calls the provider")
	acctest.NeedsEmulator(t, "counts the emulator's requests with the throttle off (100 websites)")
	const n = 100
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`
resource "analytics_website" "bulk" {
  count  = %d
  domain = "identity-${count.index}.example.com"
}
`, n))
	w.MustRun(0, "apply", "-auto-approve")

	env.ResetStats()
	w.MustRun(0, "plan", "-detailed-exitcode")
	refresh := env.Stats()
	t.Logf("a refresh of %d websites: %d requests, by route %v", n, refresh.Total, refresh.ByRoute)

	env.ResetStats()
	w.MustRun(0, "destroy", "-auto-approve")
	destroy := env.Stats()
	t.Logf("a destroy of %d websites: %d requests, by route %v", n, destroy.Total, destroy.ByRoute)
	reads := destroy.ByRoute["GET /api/v1/websites/{id}"] + destroy.ByRoute["GET /api/v1/websites"]
	refreshReads := refresh.ByRoute["GET /api/v1/websites/{id}"] + refresh.ByRoute["GET /api/v1/websites"]
	// The destroy's plan refreshes (as the plan above) and may count the
	// websites; its apply checks every website's identity.
	if destroy.ByRoute["DELETE /api/v1/websites/{id}"] != n || reads > 2*refreshReads+1 {
		t.Errorf("a destroy of %d websites: %d reads of websites (a refresh: %d), %d deletes; want at most %d reads",
			n, reads, refreshReads, destroy.ByRoute["DELETE /api/v1/websites/{id}"], 2*refreshReads+1)
	}
	if len(env.Websites()) != 0 {
		t.Errorf("%d websites left", len(env.Websites()))
	}
}

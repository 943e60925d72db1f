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
// steps would run for the create and the update: a plan saved and applied,
// so that the plan's and the apply's processes each pay their own sweeps;
// then terraform destroy, whose identity check of the deletes costs the
// list's pages, not a read per website. The other CLIs run all but the
// update.
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
	// websiteReads are the reads of websites since the last ResetStats.
	websiteReads := func() int {
		s := env.Stats()
		return s.ByRoute["GET /api/v1/websites/{id}"] + s.ByRoute["GET /api/v1/websites"]
	}
	// refresh: a plan that reads all 150 websites and finds nothing to do;
	// it returns the plan's reads of websites.
	refresh := func(what string) int {
		t.Helper()
		env.ResetStats()
		w.MustRun(0, "plan", "-detailed-exitcode")
		check(what, requestsCheck(env, 3, 0, nil))
		return websiteReads()
	}

	// create: exactly one POST each, and one list of the user's websites
	// per plan (the plan's and the apply's), which every create's
	// held-domain check shares (findDomain)
	websites("")
	env.ResetStats()
	planApply()
	check("create", requestsCheck(env, n+2, 2, map[string]int{"POST": n}))
	// The refresh's budget is checked once, after the last write: after
	// the update, or here in a repeat pass (which skips the update).
	var refreshReads int
	if acctest.RepeatPass() {
		refreshReads = refresh("refresh after the create")
	}

	// update: exactly one PUT each, plus the refresh before it and the
	// identity check of the apply (a sweep too). Not in a repeat pass
	// (acctest.RepeatPass): its identity check is the destroy's
	// (checkIdentity through the bulk reader).
	if !acctest.RepeatPass() {
		websites(`email_reports = true`)
		env.ResetStats()
		planApply()
		check("update", requestsCheck(env, n+2*3, 2, map[string]int{"PUT": n, "POST": 0, "DELETE": 0}))
		refreshReads = refresh("refresh after the update")
	}

	// destroy (one process, as terraform destroy runs): exactly one DELETE
	// each, and the statistics checks of the destroy plan (a budget). The
	// identity check of the deletes (website_identity.go) costs the bulk
	// reader's list pages, not a request per website: on top of the
	// plan's refresh, one individual GET and the list's pages, the first
	// read again at the sweep's end (client.BulkReader): at most the
	// refresh's reads twice and two more.
	env.ResetStats()
	w.MustRun(0, "destroy", "-auto-approve")
	if got := env.Stats().ByRoute["GET /api/v1/stats/{id}"]; got > maxStatisticsRequests {
		t.Errorf("%d statistics requests, want at most %d", got, maxStatisticsRequests)
	}
	if reads := websiteReads(); reads > 2*refreshReads+2 {
		t.Errorf("a destroy of %d websites read websites %d times (a refresh: %d); want at most %d",
			n, reads, refreshReads, 2*refreshReads+2)
	}
	check("destroy", requestsCheck(env, n+2*refreshReads+2+maxStatisticsRequests, 1, map[string]int{"DELETE": n, "PUT": 0, "POST": 0}))
	if left := len(env.Websites()); left != 0 {
		t.Errorf("%d websites left after the destroy", left)
	}
}

// The write-back of a folded exclude_ips forgets
// the bulk reader's record of the website before its identity check, so
// that the check reads it afresh (a list read earlier in the apply may be
// 5 s old, and the write-back must not undo a web change made since). That
// costs one individual read per website written back, on top of an
// update's budget (TestAccWebsite_bulk: one PUT each, and the sweeps of the
// plan's refresh and of the apply's identity checks); the guide on
// performance says so. This test holds the write-back to that cost.
func TestAccWebsite_bulkWriteBackBudget(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites (client.BulkReader)")
	acctest.NeedsEmulator(t, "counts the emulator's requests per operation with the throttle off; stores repeats")
	const n = 40
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "bulk" {
  count       = %d
  domain      = "wb-${count.index}.example.com"
  exclude_ips = ["1.2.3.4"]
}
`, n)))
	w.MustRun(0, "apply", "-auto-approve")
	// The web interface stores every list with a repeated line.
	for _, ws := range env.Websites() {
		env.UpdateWebsite(ws.ID, func(x *emulator.Website) { x.ExcludeIPs = "1.2.3.4\n1.2.3.4" })
	}
	env.ResetStats()
	w.MustRun(0, "plan", "-out=bulk.tfplan")
	planStats := env.Stats()
	t.Logf("plan: by route %v", planStats.ByRoute)
	env.ResetStats()
	w.MustRun(0, "apply", "bulk.tfplan")
	s := env.Stats()
	t.Logf("apply: by route %v", s.ByRoute)
	for _, ws := range env.Websites() {
		if ws.ExcludeIPs != "1.2.3.4" {
			t.Fatalf("website %d holds %q after the write-back", ws.ID, ws.ExcludeIPs)
		}
	}
	account := s.ByRoute["GET /api/v1/account"]
	if got := s.ByRoute["PUT /api/v1/websites/{id}"]; got != n {
		t.Errorf("%d PUT requests for the write-back of %d websites, want one each (by route: %v)", got, n, s.ByRoute)
	}
	if got := s.ByRoute["GET /api/v1/websites/{id}"]; got > n {
		t.Errorf("%d individual reads for the write-back of %d websites, want at most one each (by route: %v)",
			got, n, s.ByRoute)
	}
	// One PUT and one read each, and the sweeps: TestAccWebsite_bulk's
	// update budget (n+2*3 for the plan and the apply together) and n reads.
	if got := s.Total - account + planStats.Total - planStats.ByRoute["GET /api/v1/account"]; got > 2*n+2*3 {
		t.Errorf("the write-back of %d websites cost %d requests besides GET /account (plan and apply), want at "+
			"most %d (apply by route: %v)", n, got, 2*n+2*3, s.ByRoute)
	}
	w.DestroyIfLive()
}

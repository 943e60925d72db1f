package provider

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

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

// requestsPlanCheck is requestsCheck as a plan check.
type requestsPlanCheck struct {
	env      *acctest.Env
	maxTotal int
	accounts int
}

func (c requestsPlanCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = requestsCheck(c.env, c.maxTotal, c.accounts, nil)
}

// TestAccWebsite_bulk checks the request budget of many websites: one
// request per create, update and delete, and a refresh of 150 websites in a
// list sweep of two pages (plus the one individual read that comes first,
// and no GET /account: the state remembers every website's owner) instead
// of 150 reads. On the other CLIs (acctest.RepeatPassSteps) it runs the
// create, the refresh and the destroy, whose counts depend on when the
// CLI's calls arrive; the update, whose identity check is the destroy's
// (checkIdentity through the bulk reader), ran on Terraform 1.8.5.
func TestAccWebsite_bulk(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "request counts: how often and how many at once the CLI calls the provider")
	acctest.NeedsEmulator(t, "counts the emulator's requests per operation with the throttle off (150 websites)")
	const n = 150
	// A throttle that never refuses: this test counts requests.
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}))
	websites := func(extra string) string {
		return env.Config(fmt.Sprintf(`
resource "analytics_website" "bulk" {
  count  = %d
  domain = "bulk-${count.index}.example.com"
  %s
}
`, n, extra))
	}

	env.TestCase(t, resource.TestCase{
		Steps: acctest.RepeatPassSteps([]resource.TestStep{
			{ // create: exactly one POST each, and one list of the user's
				// websites per plan (the plan's and the apply's), which every
				// create's held-domain check shares (findDomain)
				PreConfig: env.ResetStats,
				Config:    websites(""),
				Check: func(*terraform.State) error {
					return requestsCheck(env, n+2, 2, map[string]int{"POST": n})
				},
			},
			{ // refresh only: a plan that reads all 150 websites
				PreConfig: env.ResetStats,
				Config:    websites(""),
				PlanOnly:  true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						plancheck.ExpectEmptyPlan(),
						requestsPlanCheck{env: env, maxTotal: 3, accounts: 0},
					},
				},
			},
			{ // update: exactly one PUT each, plus the refresh before it and
				// the identity check of the apply (a sweep too)
				PreConfig: env.ResetStats,
				Config:    websites(`email_reports = true`),
				Check: func(*terraform.State) error {
					return requestsCheck(env, n+2*3, 2, map[string]int{"PUT": n, "POST": 0, "DELETE": 0})
				},
			},
			{ // destroy: exactly one DELETE each (the step's extra refreshes
				// for Check and the apply's identity check are sweeps too),
				// and the statistics checks of the two destroy plans the step
				// runs (a budget each)
				PreConfig: env.ResetStats,
				Config:    websites(`email_reports = true`),
				Destroy:   true,
				Check: func(*terraform.State) error {
					if got := env.Stats().ByRoute["GET /api/v1/stats/{id}"]; got > 2*maxStatisticsRequests {
						return fmt.Errorf("%d statistics requests, want at most %d", got, 2*maxStatisticsRequests)
					}
					// The identity check's reads that arrive before its sweep
					// are read individually: at most Terraform's parallelism.
					return requestsCheck(env, n+4*3+10+2*maxStatisticsRequests, 4, map[string]int{"DELETE": n, "PUT": 0, "POST": 0})
				},
			},
		}, 0, 1, 3),
	})
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

package provider

// A plan that adds one website to a configuration that manages many: the
// refresh sweeps the list, and the create's held-domain check (FindHolders)
// searches.

import (
	"fmt"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// 250 managed websites (3 list pages) and one new one: the refresh sweeps
// the list (its pages read once), and the one held-domain check searches
// rather than read every page again (a sweep answers lookups only once its
// pages read the same twice, worth it for many lookups, not for one).
func TestAccWebsite_heldCheckAfterRefreshCost(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 250 websites")
	opts := planUsers(t, keyUnlimitedPlan)
	opts.RateLimit, opts.RateWindow = 100000, time.Second
	env := acctest.New(t, acctest.Emulator(opts))
	w := acctest.NewWorkdir(t)
	list := ""
	for i := range 250 {
		s := env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint("held", i))})
		list += fmt.Sprintf("    %q = \"%d\"\n", s.Domain, s.ID)
	}
	managed := fmt.Sprintf(`
locals {
  imported = {
%s  }
}
resource "analytics_website" "imp" {
  for_each = local.imported
  domain   = each.key
}
import {
  for_each = local.imported
  to       = analytics_website.imp[each.key]
  id       = each.value
}
`, list)
	w.Write("main.tf", env.Config(managed))
	w.MustRun(0, "apply", "-auto-approve", "-parallelism=10")
	domain := env.Domain("one-new")
	w.Write("main.tf", env.Config(managed+fmt.Sprintf(`
resource "analytics_website" "one" {
  domain = %q
}
`, domain)))
	env.ResetStats()
	w.MustRun(0, "plan", "-parallelism=10")
	got := env.Stats().ByRoute["GET /api/v1/websites"]
	t.Logf("GET /websites %d, by route %v", got, env.Stats().ByRoute)
	// 3 pages and page 1 again, and the check's search: 4 to 6 requests
	// seen, by how Terraform interleaves the check with the refresh (6 in
	// most runs under load); a check that read every page again would cost
	// 8.
	if got > 6 {
		t.Errorf("the plan of 250 managed websites and one create sent %d GET /websites; want the refresh's "+
			"sweep (3 pages, page 1 again) and one search", got)
	}
}

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// 250 websites held; 40 managed ones, each with a data source by
// domain that depends on it. An apply that updates the 40 (exclude_bots)
// reads the 40 data sources after the updates (apply walk): each lookup's
// domain was touched by an own update, so each is a search (one list
// request each) while the apply's sweep is fresh. The list requests of
// that apply are counted: the sweeps of the refresh and of the updates'
// identity checks cost about 3-4 each; the 40 searches come on top, where
// one more verified sweep (about 6) answers every lookup.
func TestAccWebsite_lookupsAfterOwnUpdatesCost(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds 250 websites")
	env, w := heldEnv(t, 210, "old")
	prefix := env.Domain("lu")
	hcl := func(bots bool) string {
		return env.Config(fmt.Sprintf(`
resource "analytics_website" "w" {
  for_each     = toset([for i in range(40) : "c${i}.%s"])
  domain       = each.value
  exclude_bots = %t
}
data "analytics_website" "byd" {
  for_each = analytics_website.w
  domain   = each.value.domain
}
output "bad" {
  value = join(",", [for k, r in analytics_website.w : k if data.analytics_website.byd[k].exclude_bots != r.exclude_bots])
}
`, prefix, bots))
	}
	w.Write("main.tf", hcl(true))
	if out, code := w.Run("apply", "-auto-approve", "-parallelism=10", "-no-color"); code != 0 {
		t.Fatalf("create: exit %d:\n%s", code, out)
	}
	w.Write("main.tf", hcl(false))
	before := env.Stats().ByRoute["GET /api/v1/websites"]
	out, code := w.Run("apply", "-auto-approve", "-parallelism=10", "-no-color")
	if code != 0 {
		t.Fatalf("update: exit %d:\n%s", code, out)
	}
	lists := env.Stats().ByRoute["GET /api/v1/websites"] - before
	bad, _ := w.Run("output", "-raw", "bad")
	t.Logf("the apply that updated 40 websites (250 held) read the list %d times", lists)
	if strings.TrimSpace(bad) != "" {
		t.Errorf("data sources that disagree with their resources: %s", bad)
	}
	if lists > 24 {
		t.Errorf("the apply that updated 40 websites and read their 40 data sources by domain sent %d list requests; "+
			"3 pages read twice answer every lookup", lists)
	}
}

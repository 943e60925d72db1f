package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Applies that create, update and delete websites while data
// sources read the same websites by domain and by id (read at apply,
// after the writes), with 120 websites held and -parallelism=10: every
// data source answers the website its resource holds.
func TestAccWebsite_lookupsBesideWrites(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds 120 websites")
	env, w := heldEnv(t, 120, "old")
	prefix := env.Domain("lw")
	hcl := func(n int, bots bool) string {
		return env.Config(fmt.Sprintf(`
resource "analytics_website" "w" {
  for_each     = toset([for i in range(%d) : "c${i}.%s"])
  domain       = each.value
  exclude_bots = %t
}
data "analytics_website" "byd" {
  for_each = analytics_website.w
  domain   = each.value.domain
}
data "analytics_website" "byid" {
  for_each = analytics_website.w
  id       = each.value.id
}
output "bad" {
  value = join(",", concat(
    [for k, r in analytics_website.w : k if data.analytics_website.byd[k].id != r.id],
    [for k, r in analytics_website.w : k if data.analytics_website.byid[k].domain != r.domain],
    [for k, r in analytics_website.w : k if data.analytics_website.byid[k].exclude_bots != r.exclude_bots],
  ))
}
`, n, prefix, bots))
	}
	for i, step := range []struct {
		n    int
		bots bool
	}{{12, true}, {12, false}, {8, true}, {14, false}} {
		w.Write("main.tf", hcl(step.n, step.bots))
		out, code := w.Run("apply", "-auto-approve", "-parallelism=10", "-no-color")
		if code != 0 {
			t.Fatalf("step %d: apply exit %d:\n%s", i, code, out)
		}
		bad, _ := w.Run("output", "-raw", "bad")
		if strings.TrimSpace(bad) != "" {
			t.Errorf("step %d: data sources that disagree with their resources: %s", i, bad)
		}
	}
}

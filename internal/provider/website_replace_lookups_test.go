package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// this review (held): replacements (-replace: delete, then create of the same
// domain) of 6 of 12 websites, 150 held, -parallelism=10, with data
// sources by domain and by id that depend on the resources: each data
// source answers the new website, never the deleted one.
func TestAccWebsite_replaceBesideLookups(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds 150 websites")
	env, w := heldEnv(t, 150, "old")
	prefix := env.Domain("rp")
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "w" {
  for_each = toset([for i in range(12) : "c${i}.%s"])
  domain   = each.value
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
  ))
}
output "ids" {
  value = join(",", [for k, r in analytics_website.w : r.id])
}
`, prefix)))
	if out, code := w.Run("apply", "-auto-approve", "-parallelism=10", "-no-color"); code != 0 {
		t.Fatalf("create: exit %d:\n%s", code, out)
	}
	before, _ := w.Run("output", "-raw", "ids")
	for round := range 2 {
		args := []string{"apply", "-auto-approve", "-parallelism=10", "-no-color"}
		for i := round; i < 12; i += 2 {
			args = append(args, fmt.Sprintf(`-replace=analytics_website.w["c%d.%s"]`, i, prefix))
		}
		out, code := w.Run(args...)
		if code != 0 {
			t.Fatalf("round %d: replace: exit %d:\n%s", round, code, out)
		}
		bad, _ := w.Run("output", "-raw", "bad")
		if strings.TrimSpace(bad) != "" {
			t.Errorf("round %d: data sources that disagree with their resources: %s", round, bad)
		}
	}
	after, _ := w.Run("output", "-raw", "ids")
	if before == after {
		t.Errorf("no website was replaced: %s", after)
	}
}

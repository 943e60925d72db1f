package provider

// Issue 44 (defect 1): what a run's list sweep answers
// after the run changed a website.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Two websites share a domain (the application has no unique index on
// it). One apply lists every website (analytics_websites, read at apply:
// a complete sweep), then updates one of the two (its domain stays), then
// reads the website with the shared domain (analytics_website by domain,
// after the update). The lookup is answered from the sweep minus the
// website the update forgot: the other website alone, adopted silently,
// where the same configuration read in a fresh run refuses the ambiguous
// domain.
func TestAccWebsite_lookupAfterUpdateRefusesSharedDomain(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain, which the server's validation refuses")
	env := acctest.New(t)
	domain := env.Domain("rev44r-shared")
	ids, _ := seedSameDomain(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"))
	w := acctest.NewWorkdir(t)
	hcl := func(round, ips string, lookup bool) string {
		s := env.ProviderBlock() + fmt.Sprintf(`
import {
  to = analytics_website.b
  id = "%d"
}
resource "terraform_data" "gate" {
  input = %q
}
data "analytics_websites" "all" {
  depends_on = [terraform_data.gate]
}
resource "analytics_website" "b" {
  domain      = %q
  exclude_ips = [%q]
  depends_on  = [data.analytics_websites.all]
}
`, ids[1], round, domain, ips)
		if lookup {
			s += fmt.Sprintf(`
data "analytics_website" "x" {
  domain     = %q
  depends_on = [analytics_website.b]
}
output "x" {
  value = data.analytics_website.x.id
}
`, domain)
		}
		return s
	}
	w.Write("main.tf", hcl("1", "2.2.2.2", false))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", hcl("2", "9.9.9.9", true))
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code == 0 {
		got, _ := w.Run("output", "-raw", "x")
		t.Errorf("the apply read analytics_website by the domain %q, which websites %d and %d share, as website %s "+
			"without an error (a fresh run refuses the domain as ambiguous)\n%s", domain, ids[0], ids[1],
			strings.TrimSpace(got), out)
	}
	// The same configuration in a fresh run: refused.
	out2, code2 := w.Run("plan", "-no-color")
	t.Logf("fresh plan (exit %d):\n%s", code2, out2)
}

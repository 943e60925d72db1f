package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsites_searchBackslashIsLiteral: the search of
// analytics_websites is documented as "a substring match" and is literal
// for "_" (TestAccWebsites_searchIsLiteralSubstring), but the server's
// LIKE reads "\" as an escape: a search that holds a backslash never
// finds the website whose domain holds it (the web interface stores
// "shop\eu.<domain>" as typed), and the list silently missed it (review
// rev44ao). The search is escaped for LIKE now.
func TestAccWebsites_searchBackslashIsLiteral(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := `shop\` + env.Domain("bs-search")
	env.Seed(env.Key, emulator.Website{Domain: domain})
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
data "analytics_websites" "bs" {
  search = %q
}
output "domains" {
  value = join(",", [for s in data.analytics_websites.bs.websites : s.domain])
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	out := strings.TrimSpace(string(w.Stdout("output", "-raw", "domains")))
	if out != domain {
		t.Errorf("analytics_websites with search = %q lists %q, want the website %q", domain, out, domain)
	}
}

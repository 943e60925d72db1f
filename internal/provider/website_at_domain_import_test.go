package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_atDomainImportOnItsOwn: the adoption guide leaves out a
// website whose stored domain holds "@" (a URL with a password pasted into
// the web interface: a resource address keyed by domain would show it) and
// says to import such a website by id on its own. Done with the stored
// domain in the configuration, the plan was refused ("Invalid Domain"), so
// the website could not be managed at all (review rev44an). It imports
// now, with a warning that leaves the text before "@" out.
func TestAccWebsite_atDomainImportOnItsOwn(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w := acctest.NewWorkdir(t)
	stored := "user:s3cr3t-pw@" + env.Domain("at-own")
	site := env.Seed(env.Key, emulator.Website{Domain: stored})
	w.Write("main.tf", env.Config(fmt.Sprintf(`import {
  to = analytics_website.test
  id = %q
}
resource "analytics_website" "test" {
  domain       = %q
  exclude_bots = false
}
`, fmt.Sprint(site.ID), stored)))
	out, code := w.Run("plan", "-no-color")
	if code != 0 || !strings.Contains(out, "1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Errorf("the import by id of the website whose stored domain holds \"@\", as the guide says, with the stored "+
			"domain configured: exit %d, want a plan that only imports:\n%s", code, strings.ReplaceAll(out, "s3cr3t-pw", "***"))
	}
}

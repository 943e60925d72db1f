package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_userNameNotASecret: the web interface stores an
// e-mail address typed as a domain ("campaign@<host>": every label but the
// last may hold any character). Any list read of the account (the adoption
// guide's analytics_websites) registers the text before "@" as a secret
// (redact.AddURLSecrets), though without a ":" it is a user name, here a
// plain word: from then on every message of the provider that names
// another website whose domain holds that word has it cut out, and the
// warnings of the import by id of that other website name a domain that
// does not exist (review rev44ao). Only user information with a password
// (a ":") is registered now.
func TestAccWebsite_userNameNotASecret(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	env.Seed(env.Key, emulator.Website{Domain: "campaign@" + env.Domain("mail")})
	other := env.Domain("campaign")
	site := env.Seed(env.Key, emulator.Website{Domain: other})
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
data "analytics_websites" "all" {}
import {
  to = analytics_website.test
  id = %q
}
resource "analytics_website" "test" {
  domain     = %q
  depends_on = [data.analytics_websites.all]
}
`, fmt.Sprint(site.ID), other)))
	out, code := w.Run("plan", "-no-color")
	if code != 0 {
		t.Fatalf("plan failed (exit %d):\n%s", code, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Website Imported by ID") {
		t.Fatalf("no import warning:\n%s", out)
	}
	if !strings.Contains(flat, fmt.Sprintf("the website %q", other)) {
		t.Errorf("the import warning does not name the imported website's domain %q as it is:\n%s", other, out)
	}
}

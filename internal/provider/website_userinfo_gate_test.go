package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_userNameNotASecretInConfig: as
// TestAccWebsite_userNameNotASecret, but the website the web interface
// stored as "campaign@<host>" is managed (imported by id, its domain in
// the configuration, as the adoption guide says), with no list read at
// all. The protocol gate (gate_secrets.go walkStrings -> addURLSecrets)
// registers the user information of every string of a request's
// configuration and state, with or without a ":", so "campaign" is a
// secret again, and the import warning of another website whose domain
// holds that word named a domain that does not exist (review rev44ap).
// Without a scheme, a name alone before "@" is no secret now
// (redact.AddURLSecrets).
func TestAccWebsite_userNameNotASecretInConfig(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	mailDomain := "campaign@" + env.Domain("mail")
	mail := env.Seed(env.Key, emulator.Website{Domain: mailDomain})
	other := env.Domain("campaign")
	site := env.Seed(env.Key, emulator.Website{Domain: other})
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
import {
  to = analytics_website.mail
  id = %q
}
resource "analytics_website" "mail" {
  domain = %q
}
import {
  to = analytics_website.test
  id = %q
}
resource "analytics_website" "test" {
  domain     = %q
  depends_on = [analytics_website.mail]
}
`, fmt.Sprint(mail.ID), mailDomain, fmt.Sprint(site.ID), other)))
	out, code := w.Run("plan", "-no-color")
	if code != 0 {
		t.Fatalf("plan failed (exit %d):\n%s", code, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Website Imported by ID") {
		t.Fatalf("no import warning:\n%s", out)
	}
	if strings.Contains(flat, "[REDACTED]") || !strings.Contains(flat, fmt.Sprintf("the website %q", other)) {
		t.Errorf("a message has a user name cut out; the import warning does not name the imported website's "+
			"domain %q as it is:\n%s", other, out)
	}
}

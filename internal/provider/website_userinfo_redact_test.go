package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_userNameNotASecret: the web interface stores an e-mail
// address typed as a domain ("campaign@<host>": every label but the last
// may hold any character). Its text before "@" was registered as a secret
// (redact.AddURLSecrets), though without a ":" it is a user name, here a
// plain word: from then on every message of the provider that names
// another website whose domain holds that word had it cut out, and the
// warning of the import by id of that other website named a domain that
// does not exist. It happened when a list read decoded the domain (review
// rev44ao), and when the protocol gate read it from the configuration of
// the website managed (review rev44ap). Without a scheme, only user
// information with a password (a ":") is registered now.
func TestAccWebsite_userNameNotASecret(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	acctest.Parent(t)
	for _, tc := range []struct {
		name string
		// config reads or manages the website of mail (id, domain).
		config func(id int64, domain string) string
	}{
		{"list read", func(int64, string) string { return "data \"analytics_websites\" \"all\" {}\n" }},
		{"configuration", func(id int64, domain string) string {
			return fmt.Sprintf("import {\n  to = analytics_website.mail\n  id = \"%d\"\n}\n"+
				"resource \"analytics_website\" \"mail\" {\n  domain = %q\n}\n", id, domain)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.New(t, acctest.Emulator(emulator.Options{}))
			mail := env.Seed(env.Key, emulator.Website{Domain: "campaign@" + env.Domain("mail")})
			other := env.Domain("campaign")
			site := env.Seed(env.Key, emulator.Website{Domain: other})
			dependsOn := "data.analytics_websites.all"
			if tc.name == "configuration" {
				dependsOn = "analytics_website.mail"
			}
			w := acctest.NewWorkdir(t)
			w.Write("main.tf", env.Config(tc.config(mail.ID, mail.Domain)+fmt.Sprintf("import {\n  to = "+
				"analytics_website.test\n  id = \"%d\"\n}\nresource \"analytics_website\" \"test\" {\n  domain     = %q\n"+
				"  depends_on = [%s]\n}\n", site.ID, other, dependsOn)))
			out, code := w.Run("plan", "-no-color")
			if code != 0 {
				t.Fatalf("plan failed (exit %d):\n%s", code, out)
			}
			flat := strings.Join(strings.Fields(out), " ")
			if !strings.Contains(flat, "Website Imported by ID") {
				t.Fatalf("no import warning:\n%s", out)
			}
			if strings.Contains(flat, "[REDACTED]") || !strings.Contains(flat, fmt.Sprintf("the website %q", other)) {
				t.Errorf("a message has a user name cut out; the import warning does not name the imported "+
					"website's domain %q as it is:\n%s", other, out)
			}
		})
	}
}

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_importByIDAtDomainNotRepeated: a website whose
// stored domain holds "@" (a URL with user information pasted into the web
// interface; the server stores "user:password@host" as given). The
// provider never repeats text before "@" in a message (domainProblem,
// importTarget, storedOnlyDomain's exclusion of "@"), but the import by id
// warned "Website Imported by ID" with the whole stored domain, twice: the
// password reached terraform import's output and CI logs (review
// rev44am). The client now registers the user information of every domain
// it reads with the redactor, before anything quotes or logs it.
func TestAccWebsite_importByIDAtDomainNotRepeated(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w := acctest.NewWorkdir(t)
	site := env.Seed(env.Key, emulator.Website{Domain: "user:s3cr3t-pw@" + env.Domain("at-import")})
	w.Write("main.tf", env.Config(fmt.Sprintf("resource \"analytics_website\" \"test\" {\n  domain = %q\n}\n",
		env.Domain("at-import"))))
	w.Env = append(w.Env, "TF_LOG_PROVIDER=trace")
	stdout, stderr, _ := w.RunSplit("import", "-no-color", "analytics_website.test", fmt.Sprint(site.ID))
	for what, out := range map[string]string{"output": stdout, "provider's trace log": stderr} {
		if n := strings.Count(out, "s3cr3t-pw"); n > 0 {
			t.Errorf("terraform import by id repeats the text before \"@\" of the website's domain %d times in its %s:\n%s",
				n, what, out)
		}
	}
}

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

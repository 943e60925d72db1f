package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_importByDomainBackslash: the web interface stores
// "shop\eu.<domain>" as typed (any character before the last label), and
// the provider accepts it as a stored-only domain (a warning). In an
// account of more than one list page, the import by that domain searches
// for it, and the server's LIKE reads "\" as an escape: the website is
// "not found", and the import (the adoption guide's import by domain)
// failed although the website exists (review rev44ao). The search is
// escaped for LIKE now.
func TestAccWebsite_importByDomainBackslash(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	for i := range 120 {
		env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprintf("filler-%03d", i))})
	}
	domain := `shop\` + env.Domain("bs-import")
	env.Seed(env.Key, emulator.Website{Domain: domain})
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf("import {\n  to = analytics_website.test\n  id = %q\n}\n"+
		"resource \"analytics_website\" \"test\" {\n  domain = %q\n}\n", domain, domain)))
	if out, code := w.Run("plan", "-no-color"); code != 0 {
		t.Fatalf("the import by domain of the website stored as %q does not plan (exit %d):\n%s", domain, code, out)
	}
}

package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_webTypedIPsFoldedNoOrder: the web interface
// stores exclude_ips as typed: "1.2.3.4", " 5.6.7.8 " (spaces at both
// ends), "1.2.3.4" again. The server's value starts and ends with
// "1.2.3.4", so its trimming kept it. A read folds the repeat
// (foldIPEntries), leaving ["1.2.3.4", " 5.6.7.8 "], for which no order of
// lines survives the trimming (laravel.KeptOrder is false), and
// checkInertIPs refuses it: "cannot be stored as written". So a website
// as the web interface stored it blocks the plan of a configuration that
// copies its list (the adoption guide's recipes; the "unmanaged" case,
// without exclude_ips in the configuration, plans) (review rev44am). Now a
// list the plan does not write is not checked for an order, and no
// write-back of it is planned.
func TestAccWebsite_webTypedIPsFoldedNoOrder(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a list the web interface stores")
	acctest.Parent(t)
	for _, tc := range []struct {
		name string
		ips  string // the configuration's exclude_ips line, if any
	}{
		{"copied", `  exclude_ips = ["1.2.3.4", " 5.6.7.8 "]` + "\n"},
		{"unmanaged", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.New(t, acctest.Emulator(emulator.Options{}))
			w := acctest.NewWorkdir(t)
			domain := env.Domain("typed-fold")
			seed := emulator.Website{Domain: domain}
			seed.ExcludeIPs = "1.2.3.4\r\n 5.6.7.8 \r\n1.2.3.4"
			site := env.Seed(env.Key, seed)
			w.Write("main.tf", env.Config(fmt.Sprintf("import {\n  to = analytics_website.test\n  id = \"%d\"\n}\n"+
				"resource \"analytics_website\" \"test\" {\n  domain = %q\n%s}\n", site.ID, domain, tc.ips)))
			out, code := w.Run("plan", "-no-color")
			if code != 0 {
				t.Errorf("the plan of a website whose exclude_ips the web interface stored as %q: exit code %d, "+
					"want a plan:\n%s", site.ExcludeIPs, code, out)
			}
		})
	}
}

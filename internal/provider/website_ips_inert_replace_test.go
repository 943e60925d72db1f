package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestAccWebsite_webTypedIPsReplacement: a website whose
// exclude_ips holds entries typed in the web interface ("10.0.0.300", an
// address with a stray space), copied into the configuration as the
// adoption guide says, plans with a warning (a810282). A replacement of that
// website (a new domain, -replace) is planned twice by Terraform, the second
// time without prior state: checkInertIPs then finds nothing "held" and
// refuses the very entries the first plan kept, so the website cannot be
// replaced (or moved to a new domain) without editing a list the server
// holds; the error says the entry is refused though the warning just said
// it is kept (review rev44am). The first plan now records the list the
// server holds for the second (heldIPsKey).
func TestAccWebsite_webTypedIPsReplacement(t *testing.T) {
	for _, tc := range []struct {
		name    string
		newName bool // a new domain; else -replace
	}{{"new domain", true}, {"replace", false}} {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.New(t)
			domain := env.Domain("typed-ips-repl")
			w := acctest.NewWorkdir(t)
			typed := []string{"10.0.0.300", "1.2.3.4 ", "9.9.9.9"}
			config := func(d string, ips ...string) string {
				quoted := make([]string, len(ips))
				for i, s := range ips {
					quoted[i] = fmt.Sprintf("%q", s)
				}
				return env.Config(fmt.Sprintf("resource \"analytics_website\" \"test\" {\n  domain      = %q\n"+
					"  exclude_ips = [%s]\n}\n", d, strings.Join(quoted, ", ")))
			}
			w.Write("main.tf", config(domain, "9.9.9.9"))
			w.MustRun(0, "apply", "-auto-approve")
			env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = typed })
			w.Write("main.tf", config(domain, typed...))
			w.MustRun(0, "plan", "-detailed-exitcode") // kept, with a warning

			args := []string{"plan", "-no-color"}
			if tc.newName {
				w.Write("main.tf", config(env.Domain("typed-ips-repl2"), typed...))
			} else {
				args = append(args, "-replace=analytics_website.test")
			}
			out, code := w.Run(args...)
			if code != 0 {
				t.Errorf("terraform %s of the website whose exclude_ips the server holds as %q: exit code %d, "+
					"want a plan (the first plan keeps those entries with a warning):\n%s",
					strings.Join(args, " "), typed, code, out)
			}
			w.Write("main.tf", config(domain, typed...))
			w.DestroyIfLive()
		})
	}
}

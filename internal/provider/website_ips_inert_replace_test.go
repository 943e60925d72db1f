package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestAccWebsite_webTypedIPsReplacement: a website whose exclude_ips holds
// entries typed in the web interface ("10.0.0.300", an address with a stray
// space), copied into the configuration as the adoption guide says, plans
// with a warning. A replacement of it (a new domain, -replace, a taint)
// creates a new website, which gets no entry that never matches: the plan
// refuses it, saying why and what to do, and nothing is destroyed. The
// second plan of a replacement once took the entries as held, and the
// create planned again at apply refused them after the destroy: the
// website and its statistics were deleted and nothing created (reviews
// rev44am, rev44an).
func TestAccWebsite_webTypedIPsReplacement(t *testing.T) {
	acctest.Parent(t)
	for _, how := range []string{"new domain", "replace", "taint"} {
		t.Run(how, func(t *testing.T) {
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
			id := env.MustWebsite(t, domain).ID
			env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = typed })
			w.Write("main.tf", config(domain, typed...))
			w.MustRun(0, "apply", "-auto-approve") // kept, with a warning

			args := []string{"apply", "-auto-approve", "-no-color"}
			switch how {
			case "new domain":
				w.Write("main.tf", config(env.Domain("typed-ips-repl2"), typed...))
			case "replace":
				args = append(args, "-replace=analytics_website.test")
			case "taint":
				w.MustRun(0, "taint", "analytics_website.test")
			}
			out, code := w.Run(args...)
			flat := strings.Join(strings.Fields(out), " ")
			if code == 0 || !strings.Contains(flat, `"10.0.0.300" is not an IPv4`) || !strings.Contains(flat, "This plan creates a website") {
				t.Errorf("a replacement (%s) of the website whose exclude_ips the server holds as %q: exit code %d, "+
					"want the plan refused, saying that a new website gets no such entry:\n%s", how, typed, code, out)
			}
			if got := env.MustWebsite(t, domain); got.ID != id {
				t.Errorf("website %d is gone (the server holds %d for %q):\n%s", id, got.ID, domain, out)
			}
			if how == "taint" {
				w.MustRun(0, "untaint", "analytics_website.test") // as the error says
				w.MustRun(0, "plan", "-detailed-exitcode")
			}
			w.Write("main.tf", config(domain, typed...))
			w.DestroyIfLive()
		})
	}
}

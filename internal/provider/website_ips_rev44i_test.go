package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Review rev44i (of a35b1b2): with -refresh=false the plan has no refresh,
// so a list the web interface changed long before the plan is left out by
// an update whose plan does not change exclude_ips (held: the server keeps
// it), but the warning says it "changed on the server after this plan's
// refresh", a refresh that never ran; what the user needs is to plan with
// a refresh.
func TestAccWebsite_rev44iNoRefreshWarningNamesARefreshThatDidNotRun(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("norefresh-ips")
	w := acctest.NewWorkdir(t)
	hcl := func(bots bool) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  exclude_ips  = ["1.2.3.4"]
  exclude_bots = %t
}
`, domain, bots))
	}
	w.Write("main.tf", hcl(true))
	w.MustRun(0, "apply", "-auto-approve")
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"1.2.3.4", "5.6.7.8"} })
	w.Write("main.tf", hcl(false))
	out, code := w.Run("apply", "-auto-approve", "-refresh=false", "-no-color")
	flat := strings.Join(strings.Fields(out), " ")
	if got := env.MustWebsite(t, domain).ExcludeIPs; !slices.Contains(got, "5.6.7.8") {
		t.Errorf("exclude_ips is %q after an update whose plan did not change it (exit code %d):\n%s", got, code, out)
	}
	if !strings.Contains(flat, "exclude_ips Changed Since the Plan") {
		t.Fatalf("no warning (exit code %d):\n%s", code, out)
	}
	if strings.Contains(flat, "after this plan's refresh") {
		t.Errorf("with -refresh=false the warning names a refresh that did not run (exit code %d):\n%s", code, out)
	}
	w.MustRun(0, "destroy", "-auto-approve")
}

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Review rev44f. With exclude_ips in ignore_changes, the update for
// another reason leaves exclude_ips out (fix44n) and sets the state from
// the server's answer. The plan it applies holds the state's list, so when
// the web interface changed the list after the plan was made (a saved plan,
// or apply -refresh=false), the answer differs from the plan: Terraform
// fails the apply with "Provider produced inconsistent result after apply".
// ignore_changes = [exclude_ips] is meant for exactly that list: one the
// web interface edits at any time.
func TestAccWebsite_rev44fIgnoredIPsEditedAfterPlan(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("ign-after-plan")
	w := acctest.NewWorkdir(t)
	const config = `resource "analytics_website" "test" {
  domain       = %q
  exclude_ips  = [%q]
  exclude_bots = %t
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`
	w.Write("main.tf", env.Config(fmt.Sprintf(config, domain, "1.2.3.4", true)))
	w.MustRun(0, "apply", "-auto-approve")

	// Ignored: the configuration's list differs from the state's.
	w.Write("main.tf", env.Config(fmt.Sprintf(config, domain, "9.9.9.9", false)))
	w.MustRun(0, "plan", "-out=tfplan")
	// The web interface adds an address after the plan.
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"1.2.3.4", "5.6.7.8"} })
	if out, code := w.Run("apply", "tfplan"); code != 0 {
		t.Errorf("the saved plan's apply exits %d, want 0:\n%s", code, out)
	}
	got := env.MustWebsite(t, domain).ExcludeIPs
	if !strings.Contains(strings.Join(got, ","), "5.6.7.8") {
		t.Errorf("exclude_ips is %v on the server, want the web interface's 5.6.7.8 kept", got)
	}
	if out, code := w.Run("plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the apply exits %d, want 0:\n%s", code, out)
	}
	w.MustRun(0, "destroy", "-auto-approve")
}

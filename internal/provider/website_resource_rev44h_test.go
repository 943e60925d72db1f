package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A forced replacement now claims its domain in
// its second plan. Legitimate forced replacements must still plan and
// apply: two at once, one with a count change beside it, one triggered by
// replace_triggered_by, and one whose domain changes in the same run.
func TestAccWebsite_forcedReplacementsStillPlan(t *testing.T) {
	acctest.CLIDependent(t, "-replace and replace_triggered_by: the CLI plans a forced replacement twice")
	env := acctest.New(t)
	a, b, c, d := env.Domain("frc-a"), env.Domain("frc-b"), env.Domain("frc-c"), env.Domain("frc-d")
	w := acctest.NewWorkdir(t)
	const twoErr = "Two Websites Planned With One Domain"
	hcl := func(trigger, cDomain string, n int) string {
		return env.Config(fmt.Sprintf(`
resource "terraform_data" "t" {
  input = %q
}
resource "analytics_website" "a" {
  domain = %q
}
resource "analytics_website" "b" {
  domain = %q
}
resource "analytics_website" "c" {
  domain = %q
  lifecycle {
    replace_triggered_by = [terraform_data.t]
  }
}
resource "analytics_website" "n" {
  count  = %d
  domain = "n${count.index}-%s"
}
`, trigger, a, b, cDomain, n, d))
	}
	w.Write("main.tf", hcl("one", c, 1))
	w.MustRun(0, "apply", "-auto-approve")
	check := func(what string, args ...string) {
		t.Helper()
		out, code := w.Run(args...)
		if code != 0 || strings.Contains(out, twoErr) {
			t.Errorf("%s: exit code %d:\n%s", what, code, out)
		}
	}
	w.Write("main.tf", hcl("one", c, 2))
	check("-replace of a and b, a count grown beside them", "apply", "-auto-approve",
		"-replace=analytics_website.a", "-replace=analytics_website.b", "-replace=analytics_website.n[0]")
	w.Write("main.tf", hcl("two", c, 2))
	check("replace_triggered_by and -replace of a", "apply", "-auto-approve", "-replace=analytics_website.a")
	w.Write("main.tf", hcl("three", env.Domain("frc-c2"), 1))
	check("replace_triggered_by with a new domain, -replace of it, a count shrunk", "apply", "-auto-approve",
		"-replace=analytics_website.c")
	w.Write("main.tf", hcl("three", env.Domain("frc-c2"), 1))
	w.MustRun(0, "plan", "-replace=analytics_website.a", "-out=tfplan")
	check("a saved plan of -replace", "apply", "tfplan")
	w.DestroyIfLive()
}

// The guide now says "An update never writes a
// list that its plan does not change over one the web interface changed
// after the plan's refresh: the server keeps that list". The folded-list
// write-back is such an update: its plan leaves exclude_ips as the state
// has it (the warning says the server excludes the same addresses), and
// the update sends the state's list. The identity check's read is not
// consulted for it (the omission requires !rewrite), so an address the web
// interface added after the plan is dropped by the write-back.
func TestAccWebsite_foldedWriteBackKeepsWebEntryAddedAfterPlan(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("fold-after-plan")
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	// The web interface stores the address twice: the next plan writes the
	// list back once.
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"1.2.3.4", "1.2.3.4"} })
	out := w.MustRun(0, "plan", "-out=tfplan")
	if !strings.Contains(out, "Writing exclude_ips Back Without Repeats") {
		t.Fatalf("the plan does not write the folded list back (the scenario did not happen):\n%s", out)
	}
	// After the plan, the web interface adds an address.
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"1.2.3.4", "1.2.3.4", "5.6.7.8"} })
	out, code := w.Run("apply", "tfplan")
	if got := env.MustWebsite(t, domain).ExcludeIPs; !slices.Contains(got, "5.6.7.8") {
		t.Errorf("exclude_ips is %q on the server after the write-back (exit code %d): the address 5.6.7.8 the web "+
			"interface added after the plan was dropped by an update whose plan did not change exclude_ips:\n%s",
			got, code, out)
	}
	w.DestroyIfLive()
}

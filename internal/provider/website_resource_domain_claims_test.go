package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// With exclude_ips in ignore_changes, the update for
// another reason leaves exclude_ips out (fix44n) and sets the state from
// the server's answer. The plan it applies holds the state's list, so when
// the web interface changed the list after the plan was made (a saved plan,
// or apply -refresh=false), the answer differs from the plan: Terraform
// fails the apply with "Provider produced inconsistent result after apply".
// ignore_changes = [exclude_ips] is meant for exactly that list: one the
// web interface edits at any time.
func TestAccWebsite_ignoredIPsEditedAfterPlanApplyConsistent(t *testing.T) {
	acctest.CLIDependent(t, "ignore_changes: what the CLI sends the provider at plan and apply")
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
	w.DestroyIfLive()
}

// The guide says that under ignore_changes = [exclude_ips]
// "an update for another reason leaves it out, except when the
// configuration's list is the very list the server holds". The exception
// is wider: it is the list the state holds (the last refresh), so an entry
// the web interface added after the plan is dropped by an update for
// another reason, although the configuration's list is not the server's.
// Either the guide says so (the state's list, and what it costs), or the
// update refuses to overwrite a list that changed since the plan.
func TestAccWebsite_ignoredIPsUpdateKeepsWebEntryAddedAfterPlan(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("ign-same-state")
	w := acctest.NewWorkdir(t)
	const config = `resource "analytics_website" "test" {
  domain       = %q
  exclude_ips  = ["1.2.3.4"]
  exclude_bots = %t
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`
	w.Write("main.tf", env.Config(fmt.Sprintf(config, domain, true)))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.Config(fmt.Sprintf(config, domain, false)))
	w.MustRun(0, "plan", "-out=tfplan")
	// The web interface adds an address after the plan: the server's list
	// is no longer the configuration's.
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"1.2.3.4", "5.6.7.8"} })
	w.MustRun(0, "apply", "tfplan")
	if got := env.MustWebsite(t, domain).ExcludeIPs; !strings.Contains(strings.Join(got, ","), "5.6.7.8") {
		t.Errorf("exclude_ips is %v on the server: the update for exclude_bots dropped the web interface's 5.6.7.8, "+
			"although exclude_ips is in ignore_changes and the configuration's list is not the server's", got)
	}
	w.DestroyIfLive()
}

// One domain claimed once per run. A tainted website's
// replacement, a for_each key renamed, and a domain handed from a website
// that changes domain to a new one plan without "Two Websites Planned With
// One Domain"; two new websites with one domain get it.
func TestAccWebsite_newDomainClaimedOncePerRun(t *testing.T) {
	env := acctest.New(t)
	x, y, z := env.Domain("claim-x"), env.Domain("claim-y"), env.Domain("claim-z")
	w := acctest.NewWorkdir(t)
	const twoErr = "Two Websites Planned With One Domain"
	// config: a (for_each, key k, domain x) and b (domain bDomain),
	// and more resources.
	config := func(k, bDomain, more string) {
		w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "a" {
  for_each = { %s = %q }
  domain   = each.value
}
resource "analytics_website" "b" {
  domain = %q
}
%s`, k, x, bDomain, more)))
	}
	config("first", y, "")
	w.MustRun(0, "apply", "-auto-approve")
	// Renamed key: a["first"] destroyed, a["second"] created with x.
	// b moves from y to z; c is new with y.
	config("second", z, fmt.Sprintf("resource \"analytics_website\" \"c\" {\n  domain = %q\n}\n", y))
	if out, code := w.Run("plan"); strings.Contains(out, twoErr) || code != 0 {
		t.Errorf("a renamed key and a handed-over domain: plan exits %d:\n%s", code, out)
	}
	w.MustRun(0, "taint", `analytics_website.a["first"]`)
	config("first", y, "")
	if out, code := w.Run("apply", "-auto-approve"); strings.Contains(out, twoErr) || code != 0 {
		t.Errorf("a tainted website's replacement: apply exits %d:\n%s", code, out)
	}
	config("first", y, fmt.Sprintf("resource \"analytics_website\" \"d\" {\n  for_each = toset([\"1\", \"2\"])\n  domain   = %q\n}\n", z))
	if out, code := w.Run("plan"); !strings.Contains(out, twoErr) || code == 0 {
		t.Errorf("two new websites with one domain: plan exits %d:\n%s", code, out)
	}
	config("first", y, "")
	w.MustRun(0, "destroy", "-auto-approve")
}

// Fix44u's claim of a new domain covers a new resource, a
// tainted one and a new domain, but not a forced replacement (-replace,
// replace_triggered_by): its first plan keeps the domain and its second
// plan claims nothing. A forced replacement of a and a new resource b with
// a's domain then plan without "Two Websites Planned With One Domain";
// the apply deletes a's website (and its statistics), and one of the two
// creates is refused.
func TestAccWebsite_forcedReplaceAndNewResourceOneDomainRefused(t *testing.T) {
	acctest.CLIDependent(t, "-replace: the CLI plans a forced replacement's create a second time")
	env := acctest.New(t)
	domain := env.Domain("forced-dup")
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
resource "analytics_website" "b" {
  domain = %q
}
`, domain, domain)))
	out, code := w.Run("plan", "-replace=analytics_website.a")
	if flat := strings.Join(strings.Fields(out), " "); code == 0 || !strings.Contains(flat, "Two Websites Planned With One Domain") {
		t.Errorf("-replace of a and a new b, both with %q: the plan exits %d without saying two websites are planned "+
			"with one domain:\n%s", domain, code, out)
	}
	if code == 0 {
		out, code = w.Run("apply", "-auto-approve", "-replace=analytics_website.a")
		if code != 0 && env.MustWebsite(t, domain).ID != id {
			t.Errorf("the apply (exit code %d) deleted website %d and failed:\n%s", code, id, out)
		}
	}
	w.Write("main.tf", env.Config(""))
	_, _ = w.Run("apply", "-auto-approve")
}

// The held-domain warning of a tainted website is hedged by
// the configuration's skip_destroy (fix44u), but the destroy half of the
// replacement follows the state's. A website with skip_destroy = false,
// tainted, then configured with skip_destroy = true: the plan warns "the
// replacement cannot succeed" and to untaint, yet the apply deletes it and
// the replacement succeeds (deleting its statistics).
func TestAccWebsite_taintedSkipDestroyTurnedOnWarningFollowsState(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("tainted-turned-on")
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", domain))))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n  skip_destroy = true\n", domain))))
	d, warned := planWarnings(w.PlanDiags(), heldSummary)[websiteAddr]
	out, code := w.Run("apply", "-auto-approve")
	replaced := code == 0 && env.MustWebsite(t, domain).ID != id
	if flat := strings.Join(strings.Fields(d.Detail), " "); warned && replaced && strings.Contains(flat, "cannot succeed") &&
		!strings.Contains(flat, "skip_destroy = false") {
		t.Errorf("the plan warned that the replacement cannot succeed, and the apply replaced website %d:\n%s\n%s",
			id, d.Detail, out)
	}
	w.MustRun(0, "destroy", "-auto-approve")
}

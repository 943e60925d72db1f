package provider

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

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

// Defect 3's sibling (fix44h's domain-change warning): two
// resources of one configuration end with the same domain, a copy-paste
// slip: website a changes its domain to x (a replacement: a is deleted
// with its statistics, then x is created) and a new resource b creates x.
// No website holds x at plan, so the held-domain checks see nothing; the
// provider sees both plans (one instance). At apply, b's create and a's
// replacement race for x: when b won, a's website was deleted and its
// create refused. The plan now fails, whichever plan comes second, and
// nothing is deleted.
func TestAccWebsite_twoResourcesOneNewDomainRefusedAtPlan(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	from, to := env.Domain("dup-from"), env.Domain("dup-to")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
`, from)))
	w.MustRun(0, "apply", "-auto-approve")
	fromID := env.MustWebsite(t, from).ID
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
resource "analytics_website" "b" {
  domain = %q
}
`, to, to)))
	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		out := w.MustRun(1, cmd...)
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, "Two Websites Planned With One Domain") || !strings.Contains(flat, to) {
			t.Errorf("terraform %s: two resources create %q (one replacing %q), and it does not say so:\n%s",
				cmd[0], to, from, out)
		}
	}
	if got, err := env.FindWebsite(env.Key, from); err != nil || got.ID != fromID {
		t.Errorf("the failed apply deleted website %q (id %d): %v", from, fromID, err)
	}
	if got, err := env.FindWebsite(env.Key, to); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("the failed apply created a website %q (%v, %v)", to, got, err)
	}
	// Each resource its own domain again: the plan goes through.
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
`, from)))
	w.MustRun(0, "plan", "-no-color")
	if acctest.LiveMode() { // the in-process emulator goes away with the test
		_, _ = w.Run("destroy", "-auto-approve")
	}
}

package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The plan-time warnings of a new domain (a replacement) and of the website
// limit, from the key user's plan (GET /account); see also
// website_resource_account_test.go. They never fail a plan.

// threeWebsitesHCL is websites a, b and c (c creates before it destroys),
// c's domain given.
func threeWebsitesHCL(cDomain string, withB bool) string {
	b := `
resource "analytics_website" "b" {
  domain = "b.example.com"
}
`
	if !withB {
		b = ""
	}
	return fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
%s
resource "analytics_website" "c" {
  domain = %q

  lifecycle {
    create_before_destroy = true
  }
}
`, b, cDomain)
}

// A replacement while the user is at the limit warns at plan; with
// create_before_destroy the apply then fails as the warning says, and the
// old website stays. Below the limit, no warning.
func TestAccWebsite_replacementAtLimitWarning(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites, and counts the emulator's requests")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	const summary = "Replacement at the Website Limit"
	w.Write("main.tf", env.ProviderBlock()+threeWebsitesHCL("c.example.com", true))
	w.MustRun(0, "apply", "-auto-approve")

	env.ResetStats()
	w.PlanDiags() // no change: the requests of the refresh
	base := env.Stats()
	w.Write("main.tf", env.ProviderBlock()+threeWebsitesHCL("c2.example.com", true))
	env.ResetStats()
	diags := w.PlanDiags()
	got := planWarnings(diags, summary)
	if d, ok := got["analytics_website.c"]; len(got) != 1 || !ok ||
		!acctest.ExpectError(`from "c.example.com" to "c2.example.com" replaces the website.*user holds 3 websites, and the plan allows 3. Without create_before_destroy.*With lifecycle.*create_before_destroy.*"You created too many websites."`).MatchString(d.Detail) {
		t.Errorf("warnings: %+v", diags)
	}
	if n := len(planWarnings(diags, "Website Limit Would Be Exceeded")); n != 0 {
		t.Errorf("the replacement also got %d limit warnings: %+v", n, diags)
	}
	st := env.Stats()
	t.Logf("requests of a plan without change: %v; of the plan of the replacement: %v", base.ByRoute, st.ByRoute)
	if base.ByRoute["GET /api/v1/account"] != 0 || st.ByRoute["GET /api/v1/account"] != 1 ||
		st.ByRoute["GET /api/v1/websites"] != base.ByRoute["GET /api/v1/websites"]+1 {
		t.Errorf("requests: %v, then %v; want the replacement's check to cost one GET /account and one list "+
			"request (the count)", base.ByRoute, st.ByRoute)
	}

	out, code := w.Run("apply", "-auto-approve")
	if code != 1 || !acctest.ExpectError(`Website Limit Reached.*You created too many websites`).MatchString(out) {
		t.Errorf("apply at the limit with create_before_destroy: exit code %d:\n%s", code, out)
	}
	if _, ok := env.WebsiteByDomain("c.example.com"); !ok || len(env.Websites()) != 3 {
		t.Errorf("the old website must stay: %d websites", len(env.Websites()))
	}

	// Below the limit: no warning, and the replacement goes through.
	w.Write("main.tf", env.ProviderBlock()+threeWebsitesHCL("c.example.com", false))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock()+threeWebsitesHCL("c2.example.com", false))
	if got := planWarnings(w.PlanDiags(), summary); len(got) != 0 {
		t.Errorf("below the limit: %+v", got)
	}
	w.MustRun(0, "apply", "-auto-approve")
	if _, ok := env.WebsiteByDomain("c2.example.com"); !ok || len(env.Websites()) != 2 {
		t.Errorf("after the replacement: %d websites", len(env.Websites()))
	}
}

// A replacement is no website more at the end, but with
// create_before_destroy it needs room for one more while it runs: 2 held of
// 3, a replaced under create_before_destroy and a new website depending on
// it is refused at apply, and the plan must warn, saying what
// create_before_destroy does (Terraform plans the new website of a
// replacement a second time as a create, which is not counted again).
func TestAccWebsite_limitWarningCountsReplacements(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(aDomain, extra string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = %q

  lifecycle {
    create_before_destroy = true
  }
}
resource "analytics_website" "b" {
  domain = "b.example.com"
}
%s`, aDomain, extra)
	}
	w.Write("main.tf", config("a.example.com", ""))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config("a2.example.com", `
resource "analytics_website" "new" {
  domain     = "new.example.com"
  depends_on = [analytics_website.a]
}
`))
	diags := w.PlanDiags()
	if got := planWarnings(diags, "Website Limit Would Be Exceeded"); len(got) != 0 {
		t.Errorf("2 websites held, one replaced, one created, limit 3: %+v", diags)
	}
	if d, ok := planWarnings(diags, "Replacement at the Website Limit")["analytics_website.new"]; !ok ||
		!acctest.ExpectError(`creates 1 website and replaces 1 website.*holds 2 websites, and the plan allows 3. Without create_before_destroy.*With lifecycle.*up to 1 create may fail`).MatchString(d.Detail) {
		t.Errorf("2 held of 3, a replacement under create_before_destroy and a create: %+v", diags)
	}
	out, code := w.Run("apply", "-auto-approve")
	if code != 1 || !acctest.ExpectError(`You created too many websites`).MatchString(out) {
		t.Errorf("apply: exit code %d:\n%s", code, out)
	}
}

// 3 of 3 held, a new website planned first and a new domain for c (without
// create_before_destroy): whatever the order, a create is refused (c's
// delete may give its room to the new website), so c's warning must not
// say that the replacement fits.
func TestAccWebsite_replacementAfterCreateAtLimit(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(cDomain, extra, dependsOn string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "b" {
  domain = "b.example.com"
}
resource "analytics_website" "c" {
  domain = %q
  %s
}
%s`, cDomain, dependsOn, extra)
	}
	w.Write("main.tf", config("c.example.com", "", ""))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config("c2.example.com", `
resource "analytics_website" "n" {
  domain = "n.example.com"
}
`, "depends_on = [analytics_website.n]"))
	diags := w.PlanDiags()
	d, ok := planWarnings(diags, "Replacement at the Website Limit")["analytics_website.c"]
	if !ok || strings.Contains(d.Detail, "fits") || !acctest.ExpectError(`at least 1 create fails in any order, unless the plan deletes more`).MatchString(d.Detail) {
		t.Errorf("3 of 3, a create planned before a replacement: %+v", diags)
	}
}

// A domain known only after apply (from another resource) still gets each
// warning, which names it as such rather than as "": a replacement at the
// limit, a create past it, e-mail reports on a plan without them.
func TestAccWebsite_accountWarningsUnknownDomain(t *testing.T) {
	acctest.NeedsEmulator(t, "needs users whose plans allow three websites and no e-mail reports")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(key, label, extra string) string {
		return env.ProviderBlockAt(env.URL, key) + fmt.Sprintf(`
resource "terraform_data" "label" {
  input = %q
}
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "b" {
  domain = "b.example.com"
}
resource "analytics_website" "c" {
  domain = "${terraform_data.label.output}.example.com"

  lifecycle {
    create_before_destroy = true
  }
}
%s`, label, extra)
	}
	w.Write("main.tf", config(env.Key, "c", ""))
	w.MustRun(0, "apply", "-auto-approve")

	w.Write("main.tf", config(env.Key, "c2", `
resource "analytics_website" "n" {
  domain = "n-${terraform_data.label.output}.example.com"
}
`))
	diags := w.PlanDiags()
	// n and c are planned in either order: the warning names n when first.
	if d, ok := planWarnings(diags, "Replacement at the Website Limit")["analytics_website.c"]; !ok ||
		!acctest.ExpectError(`from "c.example.com" to a domain known only after apply replaces the website.*user holds 3 websites, and the plan allows 3`).MatchString(d.Detail) {
		t.Errorf("the replacement to an unknown domain at the limit: %+v", diags)
	}
	if d, ok := planWarnings(diags, "Website Limit Would Be Exceeded")["analytics_website.n"]; !ok ||
		!acctest.ExpectError(`^This plan creates a website whose domain is known only after apply.*would make 4 websites`).MatchString(d.Detail) {
		t.Errorf("the create of an unknown domain past the limit: %+v", diags)
	}

	w2 := acctest.NewWorkdir(t)
	w2.Write("main.tf", env.ProviderBlockAt(env.URL, keyNoEmailPlan)+`
resource "terraform_data" "label" {
  input = "r"
}
resource "analytics_website" "r" {
  domain        = "${terraform_data.label.output}.example.org"
  email_reports = true
}
`)
	diags = w2.PlanDiags()
	if d, ok := planWarnings(diags, "E-mail Reports Not in the Plan")["analytics_website.r"]; !ok ||
		!acctest.ExpectError(`stores email_reports = true for a website whose domain is known only after apply, but`).MatchString(d.Detail) {
		t.Errorf("e-mail reports on an unknown domain: %+v", diags)
	}
}

// A user over the limit (the plan was made smaller, or another client's
// creates raced): a replacement is refused in either order, and without
// create_before_destroy the old website and its statistics are deleted
// before the create fails. The warning must say so, not that the
// replacement fits.
func TestAccWebsite_replacementOverLimitWarning(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites, holding four")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(cDomain string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "c" {
  domain = %q
}
`, cDomain)
	}
	w.Write("main.tf", config("c.example.com"))
	w.MustRun(0, "apply", "-auto-approve")
	env.Seed(keyThreePlan, emulator.Website{Domain: "d.example.com"})
	env.Seed(keyThreePlan, emulator.Website{Domain: "e.example.com"})

	w.Write("main.tf", config("c2.example.com"))
	diags := w.PlanDiags()
	d, ok := planWarnings(diags, "Replacement at the Website Limit")["analytics_website.c"]
	if !ok || strings.Contains(d.Detail, "fits") ||
		!acctest.ExpectError(`holds 4 websites, and the plan allows 3.*"You created too many websites.".*fails in any order, unless.*the order without create_before_destroy\) leaves no website, and the old one's statistics are gone.*delete 1 website you no longer need \(2 if the replacements use create_before_destroy\)`).MatchString(d.Detail) {
		t.Errorf("a replacement over the limit: %+v", diags)
	}
	out, code := w.Run("apply", "-auto-approve")
	if code != 1 || !acctest.ExpectError(`You created too many websites`).MatchString(out) {
		t.Errorf("apply over the limit: exit code %d:\n%s", code, out)
	}
	if _, ok := env.WebsiteByDomain("c.example.com"); ok {
		t.Error("the delete came first, as the warning says")
	}
}

// skip_destroy keeps the old website of a replacement on the server, so a
// new domain is one website more whatever the order: at the limit the
// create is refused, and the warning must say so rather than that the
// replacement fits without create_before_destroy; below it, the new website
// counts toward the limit warning of the creates planned with it.
func TestAccWebsite_replacementWithSkipDestroyAtLimit(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(cDomain, extra string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "c" {
  domain       = %q
  skip_destroy = true
}
%s`, cDomain, extra)
	}
	// Two held of three: the kept website and the new one make three, and
	// one more create makes four.
	w.Write("main.tf", config("c.example.com", ""))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config("c2.example.com", `
resource "analytics_website" "n" {
  domain     = "n.example.com"
  depends_on = [analytics_website.c]
}
`))
	diags := w.PlanDiags()
	if got := planWarnings(diags, "Website Limit Would Be Exceeded"); len(got) != 1 ||
		!acctest.ExpectError(`would make 4 websites`).MatchString(got["analytics_website.n"].Detail) {
		t.Errorf("2 held, a replacement that keeps the old website and one create, limit 3: %+v", diags)
	}

	// Three held of three: the new domain is refused in either order.
	env.Seed(keyThreePlan, emulator.Website{Domain: "d.example.com"})
	w.Write("main.tf", config("c2.example.com", ""))
	diags = w.PlanDiags()
	var details []string
	for _, d := range diags {
		if d.Severity == "warning" && d.Address == "analytics_website.c" &&
			(d.Summary == "Replacement at the Website Limit" || d.Summary == "Website Limit Would Be Exceeded") {
			details = append(details, d.Detail)
		}
	}
	if len(details) != 1 || strings.Contains(details[0], "fits") ||
		!acctest.ExpectError(`skip_destroy.*old website stays.*You created too many websites`).MatchString(details[0]) {
		t.Errorf("a replacement that keeps the old website at the limit: %+v", diags)
	}
	out, code := w.Run("apply", "-auto-approve")
	if code != 1 || !acctest.ExpectError(`You created too many websites`).MatchString(out) {
		t.Errorf("apply: exit code %d:\n%s", code, out)
	}
}

// A replacement that creates before it deletes needs room for one website
// more than the user holds once the creates planned before it are done: two
// held of three, a create, then a new domain under create_before_destroy
// (ordered by depends_on) is refused at apply, and the plan must warn.
func TestAccWebsite_replacementAtLimitCountsPlannedCreates(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(cDomain, extra string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "c" {
  domain     = %q
  depends_on = [analytics_website.a]

  lifecycle {
    create_before_destroy = true
  }
}
%s`, cDomain, extra)
	}
	w.Write("main.tf", config("c.example.com", ""))
	w.MustRun(0, "apply", "-auto-approve")
	// A new website n, which c now depends on: planned and created first.
	w.Write("main.tf", strings.Replace(config("c2.example.com", `
resource "analytics_website" "n" {
  domain = "n.example.com"
}
`), "depends_on = [analytics_website.a]", "depends_on = [analytics_website.n]", 1))
	diags := w.PlanDiags()
	if d, ok := planWarnings(diags, "Replacement at the Website Limit")["analytics_website.c"]; !ok ||
		!acctest.ExpectError(`creates 1 website and replaces 1 website.*holds 2 websites, and the plan allows 3`).MatchString(d.Detail) {
		t.Errorf("2 held of 3, a create, then a replacement under create_before_destroy: %+v", diags)
	}
	out, code := w.Run("apply", "-auto-approve")
	if code != 1 || !acctest.ExpectError(`You created too many websites`).MatchString(out) {
		t.Errorf("apply: exit code %d:\n%s", code, out)
	}
}

// logWarnings logs the plan's warnings and returns their details.
func logWarnings(t *testing.T, diags []acctest.PlanDiag) []string {
	t.Helper()
	var out []string
	for _, d := range diags {
		if d.Severity == "warning" {
			t.Logf("%s %s: %s", d.Address, d.Summary, d.Detail)
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// TestAccWebsite_limitCountsForcedReplacement: 2 of 3 held; c has
// create_before_destroy and is replaced with -replace (no domain change),
// and a new website n, which depends on c (so Terraform plans it after c),
// is planned. The apply creates c's replacement, then n while c still
// counts: 4 websites on a plan of 3, so n's create is refused. The plan
// counts every replacement of the plan: Terraform drops
// the warnings of c's own second plan (the docs say so), but c's
// replacement must still count in n's check, planned after it. -replace
// is not counted at all.
func TestAccWebsite_limitCountsForcedReplacement(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	c := `
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "c" {
  domain = "c.example.com"
  lifecycle {
    create_before_destroy = true
  }
}
`
	w.Write("main.tf", env.ProviderBlock()+c)
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock()+c+`
resource "analytics_website" "n" {
  domain     = "n.example.com"
  depends_on = [analytics_website.c]
}
`)
	warnings := logWarnings(t, w.PlanDiags("-replace=analytics_website.c"))
	out, code := w.Run("apply", "-auto-approve", "-replace=analytics_website.c")
	t.Logf("apply: exit code %d\n%s", code, out)
	if len(warnings) == 0 {
		t.Errorf("2 of 3 held, -replace of a create_before_destroy website and a create: no limit warning "+
			"(the apply exits %d)", code)
	}
}

// TestAccWebsite_limitTaintedIsReplacement: 3 of 3 held, c is
// tainted (no create_before_destroy): Terraform deletes c before it
// creates its replacement, which fits. The plan must not say that a create
// fails in any order, nor advise deleting a website.
func TestAccWebsite_limitTaintedIsReplacement(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "b" {
  domain = "b.example.com"
}
resource "analytics_website" "c" {
  domain = "c.example.com"
}
`)
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "taint", "analytics_website.c")
	warnings := logWarnings(t, w.PlanDiags())
	out, code := w.Run("apply", "-auto-approve")
	t.Logf("apply: exit code %d\n%s", code, out)
	for _, d := range warnings {
		if regexp.MustCompile(`in any order|more than the limit`).MatchString(d) {
			t.Errorf("3 of 3 held, a tainted website replaced (delete first): the plan says a create fails "+
				"in any order, but the apply exits %d: %s", code, d)
		}
	}
}

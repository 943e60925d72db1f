package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The plan-time warnings that come from the key user's plan (GET /account):
// e-mail reports on a plan without them, a replacement at the website limit.
// They never fail a plan. Each test also measures what the check costs on
// the emulator's request counter.

// planWarnings returns the warnings of diags with summary, by address.
func planWarnings(diags []acctest.PlanDiag, summary string) map[string]acctest.PlanDiag {
	m := map[string]acctest.PlanDiag{}
	for _, d := range diags {
		if d.Severity == "warning" && d.Summary == summary {
			m[d.Address] = d
		}
	}
	return m
}

func TestAccWebsite_emailReportsWarning(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan has no e-mail reports, and counts the emulator's requests")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyNoEmailPlan)))
	w := acctest.NewWorkdir(t)
	config := func(key string, reports bool) string {
		return env.ProviderBlockAt(env.URL, key) + fmt.Sprintf(`
resource "analytics_website" "reports" {
  domain        = "reports.example.com"
  email_reports = %t
}
resource "analytics_website" "quiet" {
  domain = "quiet.example.com"
}
`, reports)
	}
	const summary = "E-mail Reports Not in the Plan"

	// A create: the warning, on email_reports of that website only.
	w.Write("main.tf", config(env.Key, true))
	env.ResetStats()
	diags := w.PlanDiags()
	got := planWarnings(diags, summary)
	if d, ok := got["analytics_website.reports"]; len(got) != 1 || !ok ||
		!acctest.ExpectError(`plan \("Basic"\) has no e-mail reports.*stores email_reports = true for the website "reports.example.com", but it never sends a report`).MatchString(d.Detail) {
		t.Errorf("warnings: %+v", diags)
	}
	if st := env.Stats(); st.ByRoute["GET /api/v1/account"] != 1 || st.ByRoute["GET /api/v1/websites"] != 1 || st.Total != 2 {
		t.Errorf("requests of a plan of two creates: %v, want one GET /account and one list (the limit check's), "+
			"none for the e-mail check", st.ByRoute)
	}

	// Applied without reports, then switched on: the update warns too, and
	// a plan without refresh shows the check's own cost.
	w.Write("main.tf", config(env.Key, false))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config(env.Key, true))
	env.ResetStats()
	if got := planWarnings(w.PlanDiags("-refresh=false"), summary); len(got) != 1 || got["analytics_website.reports"].Address == "" {
		t.Errorf("update to email_reports = true: %+v", got)
	}
	if st := env.Stats(); st.ByRoute["GET /api/v1/account"] != 1 || st.Total != 1 {
		t.Errorf("requests of an update plan without refresh: %v, want the one GET /account", st.ByRoute)
	}
	// Once applied, an unchanged website is not warned about again.
	w.MustRun(0, "apply", "-auto-approve")
	if got := planWarnings(w.PlanDiags(), summary); len(got) != 0 {
		t.Errorf("no change: %+v", got)
	}
	if ws, ok := env.WebsiteByDomain("reports.example.com"); !ok || ws.Email == nil || *ws.Email != 1 {
		t.Errorf("the server stores e-mail reports whatever the plan says: %+v", ws)
	}

	// A plan with e-mail reports: no warning.
	w2 := acctest.NewWorkdir(t)
	w2.Write("main.tf", strings.ReplaceAll(config(keyThreePlan, true), ".example.com", ".example.org"))
	if got := planWarnings(w2.PlanDiags(), summary); len(got) != 0 {
		t.Errorf("a plan with e-mail reports: %+v", got)
	}
}

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
		!acctest.ExpectError(`from "c.example.com" to "c2.example.com" replaces the website, and the API key's user holds 3 websites of the 3 its plan allows.*create_before_destroy.*will refuse the create with "You created too many websites."`).MatchString(d.Detail) {
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

// A replacement is no website more at the end: Terraform plans its new
// website a second time as a create, which the limit check does not count,
// so a create planned after it (depends_on) is not warned about when it
// fits.
func TestAccWebsite_limitWarningIgnoresReplacements(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	config := func(aDomain, extra string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = %q
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
	if got := planWarnings(diags, "Replacement at the Website Limit"); len(got) != 0 {
		t.Errorf("2 websites held of 3: %+v", got)
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
	if d, ok := planWarnings(diags, "Replacement at the Website Limit")["analytics_website.c"]; !ok ||
		!acctest.ExpectError(`from "c.example.com" to a domain known only after apply replaces the website, and the API key's user holds 3 websites of the 3`).MatchString(d.Detail) {
		t.Errorf("the replacement to an unknown domain at the limit: %+v", diags)
	}
	if d, ok := planWarnings(diags, "Website Limit Would Be Exceeded")["analytics_website.n"]; !ok ||
		!acctest.ExpectError(`^Creating a website whose domain is known only after apply would make 4 websites`).MatchString(d.Detail) {
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
		!acctest.ExpectError(`holds 4 websites, more than the 3 its plan allows.*refuse the new website with "You created too many websites." in either order.*Without create_before_destroy, Terraform deletes the old website, with its statistics, and then the create fails`).MatchString(d.Detail) {
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

// A key whose plan has no API access: a plan of five creates asks GET
// /account once (the 403 is the same all run long), not twice per website
// (the limit check and the e-mail check), which spent the installation's
// 60 requests a minute on a plan of 30 websites; each website still says
// why its check did not run.
func TestAccWebsite_accountChecksNoAPIAccessCostOneRequest(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan has no API access, and counts the emulator's requests")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyNoAPIPlan)))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "s" {
  for_each      = toset(["s1.example.com", "s2.example.com", "s3.example.com", "s4.example.com", "s5.example.com"])
  domain        = each.key
  email_reports = true
}
`)
	env.ResetStats()
	diags := w.PlanDiags()
	if st := env.Stats(); st.ByRoute["GET /api/v1/account"] != 1 || st.Total != 1 {
		t.Errorf("requests of a plan of five creates with a key without API access: %v, want one GET /account", st.ByRoute)
	}
	got := planWarnings(diags, "Website Limit Not Checked")
	for _, d := range got {
		if !acctest.ExpectError(`HTTP 403.*You don't have access to this feature`).MatchString(d.Detail) {
			t.Errorf("%s: %s", d.Address, d.Detail)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d websites say why their check did not run, want 5: %+v", len(got), diags)
	}
}

// A server that fails GET /account (maintenance, a 5xx) makes each check of
// a plan skip with a warning, after one attempt in all: asked again by the
// limit and e-mail checks of every website, with the client's retries each
// time and one at a time, a plan of five creates took nearly two minutes
// under maintenance.
func TestAccWebsite_accountChecksFailingServerAskedOnce(t *testing.T) {
	acctest.NeedsEmulator(t, "answers GET /account with 503 in front of the emulator")
	var asked atomic.Int64
	maintenance := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/api/v1/account") {
				asked.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"message": "Service Unavailable"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)), acctest.Wrap(maintenance))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+`
resource "analytics_website" "s" {
  for_each      = toset(["s1.example.com", "s2.example.com", "s3.example.com", "s4.example.com", "s5.example.com"])
  domain        = each.key
  email_reports = true
}
`)
	diags := w.PlanDiags()
	if n := asked.Load(); n != 1 {
		t.Errorf("GET /account asked %d times by a plan of five creates, want once", n)
	}
	if got := planWarnings(diags, "Website Limit Not Checked"); len(got) != 5 {
		t.Errorf("%d websites say why their check did not run, want 5: %+v", len(got), diags)
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

package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
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

// Switching email_reports on for a website that exists, when GET /account
// cannot be read (here 503, as during maintenance of that endpoint alone),
// gets no limit check to say why the e-mail check did not run: the plan
// says so itself, instead of only a debug log line.
func TestAccWebsite_emailReportsNotCheckedOnUpdate(t *testing.T) {
	acctest.NeedsEmulator(t, "answers GET /account with 503 in front of the emulator")
	var failing atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if failing.Load() && strings.HasSuffix(r.URL.Path, "/api/v1/account") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"message": "Service Unavailable"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyNoEmailPlan)), acctest.Wrap(wrap))
	w := acctest.NewWorkdir(t)
	config := func(email bool) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "s" {
  domain        = "s.example.com"
  email_reports = %t
}
`, email)
	}
	w.Write("main.tf", config(false))
	w.MustRun(0, "apply", "-auto-approve")
	failing.Store(true)
	w.Write("main.tf", config(true))
	diags := w.PlanDiags()
	d, ok := planWarnings(diags, "E-mail Reports Not Checked")["analytics_website.s"]
	if !ok || !acctest.ExpectError(`HTTP 503.*At apply the server stores email_reports = true`).MatchString(d.Detail) {
		t.Errorf("e-mail reports switched on, account unreadable: %+v", diags)
	}
}

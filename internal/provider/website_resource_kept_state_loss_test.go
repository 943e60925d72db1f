package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Issue 44, defect 3: ways the state still loses a website that
// skip_destroy kept, or a resource adopts one it never held.

// A tainted website whose state has skip_destroy = true, and whose
// configuration sets skip_destroy = false in the same plan (the user wants
// it replaced for real). Terraform destroys the old object with its prior
// state, so the destroy half only removes it from the state; the create of
// the same domain is refused. The plan's create has skip_destroy = false,
// so it looks nothing up and says nothing; at apply, sameConfiguration
// sees skip_destroy differ and does not put the website back: it leaves
// the state, which is defect 3 as filed. The plan must say the
// replacement cannot succeed, or the apply must keep the website.
func TestAccWebsite_keptTaintedSkipDestroyTurnedOff(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-off")
	config := func(skip bool) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = %t\n", domain, skip)))
	}
	w.Write("main.tf", config(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID

	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", config(false))
	var said bool
	for _, d := range w.PlanDiags() {
		if strings.Contains(d.Detail, fmt.Sprint(id)) {
			said = true
		}
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	state := w.Read("terraform.tfstate")
	held := strings.Contains(state, fmt.Sprintf(`"id": "%d"`, id))
	if got := env.MustWebsite(t, domain).ID; got == id && !held {
		t.Errorf("the website %d is on the server but left the state (apply exit code %d; the plan warned: %t):\n%s",
			id, code, said, out)
	}
	if code != 0 && !said {
		t.Errorf("the apply failed (exit code %d) but its plan said nothing of the website %d holding the domain:\n%s",
			code, id, out)
	}
	// Clean up: the website may still be on the server.
	if ws, err := env.FindWebsite(env.Key, domain); err == nil && ws != nil {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), ws.ID)
	}
}

// keptPairHCL is a terraform_data whose replacement orders the apply (its
// destroy waits for the destroy of what depends on it, and its create
// comes before the create of what depends on it), and the websites named
// in names, each with domain and the same settings, depending on it.
func keptPairHCL(env *acctest.Env, round, domain string, names ...string) string {
	hcl := fmt.Sprintf("resource \"terraform_data\" \"order\" {\n  triggers_replace = %q\n}\n", round)
	for _, n := range names {
		hcl += fmt.Sprintf("resource \"analytics_website\" %q {\n  domain         = %q\n  skip_destroy   = true\n"+
			"  exclude_params = [\"utm_kept\"]\n  depends_on     = [terraform_data.order]\n}\n", n, domain)
	}
	return env.Config(hcl)
}

// A resource renamed without a moved block: analytics_website.old, with
// skip_destroy = true, leaves the configuration, and analytics_website.new,
// with the same settings and domain, is added in the same apply. The
// provider is told nothing of which resource a create is for; when the
// old one's destroy ran first (ordered here with terraform_data, so that
// the test does not depend on the walk's timing), the refused create of
// new cannot be told from the tainted resource's own. Putting the website
// into new's state is what a moved block would do, and loses nothing
// (the lead's decision), but the error must be true of both cases: never
// "was to be replaced", and it says how to let go of it (state rm).
// Nothing on the server may change.
func TestAccWebsite_keptAdoptedByRenamedResource(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-renamed")
	w.Write("main.tf", keptPairHCL(env, "1", domain, "old"))
	w.MustRun(0, "apply", "-auto-approve")
	before := env.MustWebsite(t, domain)

	w.Write("main.tf", keptPairHCL(env, "2", domain, "new"))
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("the apply succeeded, but the create of %q should have been refused:\n%s", domain, out)
	}
	if strings.Contains(out, "was to be replaced") {
		t.Errorf("the apply says a replacement of analytics_website.new was refused; nothing replaced it:\n%s", out)
	}
	said := strings.Join(strings.Fields(out), " ") // the CLI wraps lines
	if got := stateIDs(t, w.Read("terraform.tfstate"))["new"]; got == fmt.Sprint(before.ID) &&
		(!strings.Contains(said, "removed from the configuration") || !strings.Contains(said, "terraform state rm")) {
		t.Errorf("analytics_website.new holds the website %d, and the error does not say it may be another "+
			"resource's, nor how to let go of it:\n%s", before.ID, out)
	}
	after := env.MustWebsite(t, domain)
	if after.ID != before.ID || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("the website changed on the server: before %+v, after %+v", before, after)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), after.ID)
}

// Two websites with one domain (the application has no unique index:
// overlapping stores make them), imported into a and b with the same
// settings and skip_destroy = true. b leaves the configuration and a is
// tainted, in one apply. The kept websites are recorded by domain only:
// b's destroy, after a's, replaces a's record, and a's refused create puts
// b's website into a's state; a's own website leaves the state. (In the
// first state, a depends on b and both on terraform_data.order, so that
// the order is fixed: a's destroy, b's, order's replacement, a's create.)
func TestAccWebsite_keptDuplicateDomainNotSwapped(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-dup")
	a := env.Seed(env.Key, emulator.Website{Domain: domain})
	b := env.Seed(env.Key, emulator.Website{Domain: domain})
	body := fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n", domain)
	order := "resource \"terraform_data\" \"order\" {\n  triggers_replace = %q\n}\n"
	w.Write("main.tf", env.Config(fmt.Sprintf(order+`resource "analytics_website" "a" {
%s  depends_on = [terraform_data.order, analytics_website.b]
}
resource "analytics_website" "b" {
%s  depends_on = [terraform_data.order]
}
import {
  to = analytics_website.a
  id = "%d"
}
import {
  to = analytics_website.b
  id = "%d"
}
`, "1", body, body, a.ID, b.ID)))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.Config(fmt.Sprintf(order+`resource "analytics_website" "a" {
%s  depends_on = [terraform_data.order]
}
`, "2", body)))
	w.MustRun(0, "taint", "analytics_website.a")
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if got := stateIDs(t, w.Read("terraform.tfstate"))["a"]; got == fmt.Sprint(b.ID) {
		t.Errorf("analytics_website.a holds b's website %d; its own, %d, left the state (apply exit code %d):\n%s",
			b.ID, a.ID, code, out)
	}
	// Neither is put back: the error names both, to import the right one.
	if ids := fmt.Sprintf("ids %d, %d", min(a.ID, b.ID), max(a.ID, b.ID)); code == 0 ||
		!strings.Contains(strings.Join(strings.Fields(out), " "), ids) {
		t.Errorf("the apply (exit code %d) does not name both kept websites (%s):\n%s", code, ids, out)
	}
}

// Two tainted websites with skip_destroy = true and distinct domains, b
// depending on a. Terraform destroys b, then a (each only leaves the
// state), then creates a: refused, and a is put back (tainted). b's create
// is then not run, since what it depends on failed: b's website is on the
// server and no longer in the state, although its settings did not
// change. A create that never runs cannot put anything back, and nothing
// else is told of it (the destroy has no way to keep a state entry). So
// the plan must say so before the apply: its warning for b names b's
// website and says that it may leave the state when the create does not
// run, and how to avoid it (untaint). The website stays on the server.
func TestAccWebsite_keptDependentWarnedItMayLeaveState(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	da, db := env.Domain("kept-dep-a"), env.Domain("kept-dep-b")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain       = %q
  skip_destroy = true
}
resource "analytics_website" "b" {
  domain       = %q
  skip_destroy = true
  depends_on   = [analytics_website.a]
}
`, da, db)))
	w.MustRun(0, "apply", "-auto-approve")
	idB := env.MustWebsite(t, db).ID
	w.MustRun(0, "taint", "analytics_website.a")
	w.MustRun(0, "taint", "analytics_website.b")
	var warned bool
	for _, d := range w.PlanDiags() {
		warned = warned || d.Address == "analytics_website.b" && strings.Contains(d.Detail, fmt.Sprintf("id %d", idB)) &&
			strings.Contains(d.Detail, "does not run") && strings.Contains(d.Detail, "terraform untaint")
	}
	if !warned {
		t.Errorf("the plan does not warn that analytics_website.b (website %d) may leave the state when its create "+
			"does not run", idB)
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if got := env.MustWebsite(t, db).ID; got != idB {
		t.Errorf("b's website %d is no longer on the server (%d holds its domain; apply exit code %d):\n%s",
			idB, got, code, out)
	}
	for _, d := range []string{da, db} {
		if ws, err := env.FindWebsite(env.Key, d); err == nil && ws != nil {
			_ = env.API(env.Key).DeleteWebsite(t.Context(), ws.ID)
		}
	}
}

// stateIDs returns the id of each analytics_website in state (a state
// file), by resource name.
func stateIDs(t *testing.T, state string) map[string]string {
	t.Helper()
	var s struct {
		Resources []struct {
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(state), &s); err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	ids := map[string]string{}
	for _, r := range s.Resources {
		for _, i := range r.Instances {
			if r.Type == "analytics_website" {
				ids[r.Name] = i.Attributes.ID
			}
		}
	}
	return ids
}

// New websites with skip_destroy = true, none of whose domains anyone
// holds: the plan looks each domain up (warnDomainHeld), and although the
// first lookup's list page holds every website of the user (the sweep is
// complete), each domain missing from it is searched for again: one
// GET /websites per website, at plan and again when the apply plans (31
// and 62 for 30 websites, measured), against a throttle of 60 requests a
// minute that every client of the IP shares. A complete fresh list is
// enough for a warning; a plan of many new websites should cost a few
// requests, not one per website.
func TestAccWebsite_keptLookupCostNotPerCreate(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	w := acctest.NewWorkdir(t)
	const n = 30
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "many" {
  for_each     = toset([for i in range(%d) : "d${i}.%s"])
  domain       = each.value
  skip_destroy = true
}
`, n, env.Domain("many"))))
	env.ResetStats()
	w.MustRun(0, "plan")
	if got := env.Stats().ByRoute["GET /api/v1/websites"]; got > 3 {
		t.Errorf("the plan of %d new websites with skip_destroy = true, none held, sent %d GET /websites; want a few",
			n, got)
	}
}

// A website with skip_destroy = true whose clear of exclude_params lost its
// answer before the server saw it: the state forgot exclude_params, and
// its private state marks the clear to send again. Its resource is then
// renamed without a moved block (the same settings; terraform_data orders
// the old one's destroy first): the create is refused and the kept website
// is put into the new resource's state. The mark must come with it, or no
// plan ever sends the clear again and the server keeps excluding the
// parameter. (A tainted website's mark cannot come back: Terraform gives
// neither its create's plan nor the destroy half of its replacement the
// tainted object's private state.)
func TestAccWebsite_keptCarriesUnsettledClear(t *testing.T) {
	acctest.NeedsEmulator(t, "resets the connection of an update before the server sees it")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("kept-unsettled")
	config := func(round, name, extra string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "terraform_data" "order" {
  triggers_replace = %q
}
resource "analytics_website" %q {
  domain       = %q
  skip_destroy = true
  depends_on   = [terraform_data.order]
  %s
}
`, round, name, domain, extra)
	}
	s.W.Write("main.tf", config("1", "old", `exclude_params = ["utm_source"]`))
	s.W.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	if err := env.SetFaults(&emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetBeforeRate: 1}); err != nil {
		t.Fatal(err)
	}
	s.W.Write("main.tf", config("1", "old", ""))
	if out, code := s.W.Run("apply", "-auto-approve"); code != 1 {
		t.Fatalf("the update whose answer is lost: exit code %d:\n%s", code, out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}

	s.W.Write("main.tf", config("2", "new", ""))
	if out, code := s.W.Run("apply", "-auto-approve"); code != 1 || stateIDs(t, s.W.Read("terraform.tfstate"))["new"] != fmt.Sprint(id) {
		t.Fatalf("the renamed resource's apply: exit code %d, the website not put back:\n%s", code, out)
	}
	s.W.MustRun(0, "untaint", "analytics_website.new")
	out, code := s.W.Run("plan", "-detailed-exitcode")
	s.W.MustRun(0, "apply", "-auto-approve")
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "" {
		t.Errorf("after the kept website came back, the plan exits %d (no change) and the server keeps "+
			"exclude_params %q:\n%s", code, w.ExcludeParams, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

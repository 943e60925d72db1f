package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A replacement of a website with skip_destroy = true on the same domain
// cannot create the new website: the old one keeps the domain. A -replace
// is refused at plan (TestAccWebsite_skipDestroyForcedReplaceRefusedAtPlan);
// a tainted website, which Terraform plans as new without its state, is
// refused at apply, and the website stays in the state (tainted), never
// dropped from it while it is still on the server.
func TestAccWebsite_skipDestroyReplaceSameDomain(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept")
	config := func(skip bool) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = %t\n", domain, skip)))
	}
	w.Write("main.tf", config(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID

	w.MustRun(0, "taint", websiteAddr)
	for range 2 { // the second time, the website is tainted by the first
		out, code := w.Run("apply", "-auto-approve")
		if code != 1 || !acctest.ExpectError(`Domain Already Exists: skip_destroy Kept the Website.*terraform untaint`).MatchString(out) {
			t.Fatalf("apply: exit code %d:\n%s", code, out)
		}
		state := w.Read("terraform.tfstate")
		if !strings.Contains(state, fmt.Sprintf(`"id": "%d"`, id)) || !strings.Contains(state, `"status": "tainted"`) {
			t.Fatalf("after apply, the state holds:\n%s", state)
		}
	}
	if got := env.MustWebsite(t, domain).ID; got != id {
		t.Errorf("the website on the server is %d, want %d", got, id)
	}
	// As the error says: untaint it to keep it as it is.
	w.MustRun(0, "untaint", websiteAddr)
	w.MustRun(0, "plan", "-detailed-exitcode")
	w.Write("main.tf", config(false))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

// A -replace of a website with skip_destroy = true, its settings changed in
// the same apply, dropped the website from the state: the destroy half
// removed it, the create of the same domain was refused, and the kept
// website was not put back (the changed configuration could be another
// resource's). The plan now says the replacement cannot succeed, before
// anything is written: the state keeps the website, and the server is
// unchanged. The second of the replacement's two plans sees the first's
// private state: how the CLI plans a replacement. On the other CLIs
// (acctest.RepeatPass) it stops after the apply without -replace; the
// changes after it, which only clean up, ran on Terraform 1.8.5.
func TestAccWebsite_skipDestroyForcedReplaceRefusedAtPlan(t *testing.T) {
	acctest.CLIDependent(t, "-replace: the CLI plans the create half with the first plan's private state")
	acctest.NeedsEmulator(t, "counts the writes and compares the stored record")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-forced")
	config := func(param string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n"+
			"  exclude_params = [%q]\n", domain, param)))
	}
	w.Write("main.tf", config("utm_old"))
	w.MustRun(0, "apply", "-auto-approve")
	was, _ := env.WebsiteByDomain(domain)
	stateWas := w.Read("terraform.tfstate")
	writes := env.Writes()

	w.Write("main.tf", config("utm_new"))
	for _, cmd := range []string{"plan", "apply"} {
		out, code := w.Run(cmd, "-no-color", "-replace="+websiteAddr)
		if code != 1 || !acctest.ExpectError(`Replacement Cannot Succeed: skip_destroy Keeps the Website.*`+
			`Nothing was changed.*skip_destroy = false, then replace it`).MatchString(out) {
			t.Fatalf("%s -replace: exit code %d:\n%s", cmd, code, out)
		}
	}
	if now, _ := env.WebsiteByDomain(domain); env.Writes() != writes || len(acctest.ChangedColumns(was, now)) > 0 {
		t.Errorf("the server changed (%d writes): %v", env.Writes()-writes, acctest.ChangedColumns(was, now))
	}
	if state := w.Read("terraform.tfstate"); state != stateWas {
		t.Errorf("the state changed:\n%s\nwas:\n%s", state, stateWas)
	}
	// As the error says: without -replace, the change applies in place;
	// the plan's record for the replacement stays out of the state.
	w.MustRun(0, "apply", "-auto-approve")
	if state := w.Read("terraform.tfstate"); !strings.Contains(state, "utm_new") || strings.Contains(privateState(t, state), keptDomainKey) {
		t.Errorf("after apply, the state holds:\n%s\nprivate: %s", state, privateState(t, state))
	}
	if acctest.RepeatPass() {
		return
	}
	w.Write("main.tf", strings.Replace(config("utm_new"), "skip_destroy = true", "skip_destroy = false", 1))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

// A tainted website with skip_destroy = true whose configuration also
// changed: the create is refused, the kept state's exclude_params and
// password are not what this configuration says, so it is not put back as
// it was. It once left every state, with "Domain Already Exists" and the id
// to import. Now the create takes it over (website_kept_takeover.go): it
// updates the website to this configuration, password and exclude_params
// included, and holds it; no output shows a password. (A -replace is
// refused at plan instead.) The plan said so before, with a warning that
// gives the id (heldWarning).
func TestAccWebsite_skipDestroyReplaceWithChangesTakenOver(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-values")
	config := keptValuesConfig(env, domain)
	w.Write("main.tf", config("utm_old", "old-secret"))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.Write("main.tf", config("utm_new", "new-secret"))
	w.MustRun(0, "taint", websiteAddr)
	heldWarning(t, w.PlanDiags(), id)
	out := w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, "Website Taken Over") {
		t.Errorf("the apply does not say that it took the kept website over:\n%s", out)
	}
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["test"] != fmt.Sprint(id) {
		t.Errorf("the state holds %v, want the kept website %d", ids, id)
	}
	if strings.Contains(out, "secret") {
		t.Errorf("the apply's output shows a password:\n%s", out)
	}
	if got := env.MustWebsite(t, domain).ID; got != id {
		t.Errorf("the website on the server is %d, want %d", got, id)
	}
	if env.Emulator != nil { // the emulator's record: the API returns neither field
		if ws, _ := env.WebsiteByDomain(domain); ws.ExcludeParams != "utm_new" || ws.Password != "new-secret" {
			t.Errorf("the kept website holds exclude_params %q and another password than configured", ws.ExcludeParams)
		}
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	w.Write("main.tf", strings.Replace(config("utm_new", "new-secret"), "skip_destroy = true", "skip_destroy = false", 1))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

// keptValuesConfig is a website of domain with skip_destroy = true, a
// password and exclude_params.
func keptValuesConfig(env *acctest.Env, domain string) func(param, password string) string {
	return func(param, password string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n  privacy = \"password\"\n"+
			"  password = %q\n  exclude_params = [%q]\n", domain, password, param)))
	}
}

// heldSummary is the plan's warning on a create with skip_destroy = true
// whose domain a website holds.
const heldSummary = "Domain Already Held: Create May Be Refused"

// heldWarning checks that diags, a plan's, warn on websiteAddr that the
// website id holds its domain, say to untaint it or import it by that
// id, and show no password.
func heldWarning(t *testing.T, diags []acctest.PlanDiag, id int64) {
	t.Helper()
	d, ok := planWarnings(diags, heldSummary)[websiteAddr]
	if !ok || !acctest.ExpectError(fmt.Sprintf(`\(id %d\).*will be refused.*terraform untaint.*id = "%d"`, id, id)).MatchString(d.Detail) {
		t.Errorf("the plan of the tainted website warns no %q with its id %d: %+v", heldSummary, id, diags)
	}
	for _, d := range diags {
		if strings.Contains(d.Summary+d.Detail, "secret") {
			t.Errorf("the plan shows a password: %+v", d)
		}
	}
}

// The way out the plan's warning gives for a tainted website with
// skip_destroy = true and changed settings: untaint it, and the plan
// updates it in place; the apply keeps its id.
func TestAccWebsite_skipDestroyTaintedUntaintUpdates(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-untaint")
	config := keptValuesConfig(env, domain)
	w.Write("main.tf", config("utm_old", "old-secret"))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.Write("main.tf", config("utm_new", "new-secret"))
	w.MustRun(0, "taint", websiteAddr)
	heldWarning(t, w.PlanDiags(), id)

	w.MustRun(0, "untaint", websiteAddr)
	out := w.MustRun(2, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(out, "will be updated in-place") || !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") ||
		!strings.Contains(out, "utm_new") {
		t.Fatalf("after untaint, the plan is not an update in place of exclude_params:\n%s", out)
	}
	if d := planWarnings(w.PlanDiags(), heldSummary); len(d) != 0 {
		t.Errorf("the update in place warns %+v", d)
	}
	w.MustRun(0, "apply", "-auto-approve")
	if got := env.MustWebsite(t, domain).ID; got != id {
		t.Errorf("the website on the server is %d, want %d", got, id)
	}
	if state := w.Read("terraform.tfstate"); !strings.Contains(state, fmt.Sprintf(`"id": "%d"`, id)) ||
		!strings.Contains(state, "utm_new") || strings.Contains(state, `"status": "tainted"`) {
		t.Errorf("after apply, the state holds:\n%s", state)
	}
	if err := env.CheckStored(domain, func(w emulator.Website) error {
		if w.ExcludeParams != "utm_new" {
			return fmt.Errorf("exclude_params on the server: %q, want utm_new", w.ExcludeParams)
		}
		return nil
	})(nil); err != nil {
		t.Error(err)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	w.Write("main.tf", strings.Replace(config("utm_new", "new-secret"), "skip_destroy = true", "skip_destroy = false", 1))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

// privateState returns the private state of the resources in state (a
// state file), decoded, one after the other.
func privateState(t *testing.T, state string) string {
	t.Helper()
	var s struct {
		Resources []struct {
			Instances []struct {
				Private string `json:"private"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(state), &s); err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	var b strings.Builder
	for _, r := range s.Resources {
		for _, i := range r.Instances {
			dec, err := base64.StdEncoding.DecodeString(i.Private)
			if err != nil {
				t.Fatalf("decoding the private state: %v", err)
			}
			b.Write(dec)
		}
	}
	return b.String()
}

// A replacement of a website with skip_destroy = true whose domain the
// plan does not know yet (it comes from another resource replaced in the
// same run, replace_triggered_by) but which turns out to be the same
// domain. The plan cannot refuse it; the apply must not leave the website
// out of the state.
func TestAccWebsite_keptReplaceUnknownSameDomainStays(t *testing.T) {
	acctest.NeedsEmulator(t, "compares the stored record")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("rev44r-kept-unknown")
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "terraform_data" "d" {
  input = %q
}
resource "analytics_website" "test" {
  domain       = terraform_data.d.output
  skip_destroy = true
  lifecycle {
    replace_triggered_by = [terraform_data.d]
  }
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	plan, _ := w.Run("plan", "-no-color", "-replace=terraform_data.d")
	out, code := w.Run("apply", "-auto-approve", "-no-color", "-replace=terraform_data.d")
	if state := w.Read("terraform.tfstate"); !strings.Contains(state, `"type": "analytics_website"`) {
		t.Errorf("after the apply (exit %d) the website is no longer in the state:\n%s\nplan:\n%s\napply:\n%s",
			code, state, plan, out)
	}
	t.Logf("plan:\n%s\napply (exit %d):\n%s", plan, code, out)
}

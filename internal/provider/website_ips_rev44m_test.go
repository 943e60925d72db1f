package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The notes of the plan walk and of the apply walk
// differ when a list is unknown at plan and known at apply (Terraform
// validates each instance again, with the known configuration, right before
// its final plan). X manages ["1.1.1.1"] (folded repeats on the server) and
// changes only skip_destroy; Z, of the same domain, has a list known only
// after apply. At plan the domain holds an unknown note: no write-back,
// updated_at planned known. At apply Z's list is known: X's final plan
// plans the write-back, updated_at becomes unknown, and Terraform stops
// with "Provider produced inconsistent final plan".
func TestAccWebsite_listUnknownAtPlanFinalPlanConsistent(t *testing.T) {
	ctx := context.Background()
	x := websiteResourceModel{Domain: types.StringValue("d.example"), ExcludeIPs: stringSetValue([]string{"1.1.1.1"})}
	var atPlan, atApply configuredIPs
	atPlan.note(ctx, x)
	atPlan.note(ctx, websiteResourceModel{Domain: types.StringValue("d.example"), ExcludeIPs: types.SetUnknown(types.StringType)})
	atApply.note(ctx, x)
	atApply.note(ctx, websiteResourceModel{Domain: types.StringValue("d.example"), ExcludeIPs: stringSetValue([]string{"3.3.3.3"})})
	planned, _ := atPlan.written(ctx, x)
	final, _ := atApply.written(ctx, x)
	if !planned && final {
		t.Errorf("written at plan = %v, at apply = %v: the final plan adds a write-back the plan did not show", planned, final)
	}
}

// A write-back planned with skip_destroy alone sends
// exclude_ips alone (OnlyExcludeIPs). When its answer is lost, the update
// keeps the prior state as if it had sent exclude_params
// (keepUnsettled: in.OmitExcludeParams is false), so the state forgets
// exclude_params the update never sent, and the next plan shows
// exclude_params to be set again: a change the server never had.
func TestAccWebsite_lostListOnlyWriteBackKeepsExcludeParams(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, "stores a repeated exclude_ips line and loses an update's answer",
		"wb-lost-only-ips")
	hcl := func(skip bool) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain         = %q
  exclude_ips    = ["5.6.7.8"]
  exclude_params = ["utm_source"]
  skip_destroy   = %t
}
`, domain, skip)
	}
	webStoresIPs(t, env, w, domain, hcl(false), "5.6.7.8\n5.6.7.8", hcl(true))
	if err := env.SetFaults(&emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetAfterRate: 1}); err != nil {
		t.Fatal(err)
	}
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 1 {
		t.Fatalf("the write-back whose answer is lost: exit code %d:\n%s", code, out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	plan := w.MustRun(0, "plan", "-no-color")
	if strings.Contains(plan, "exclude_params") {
		t.Errorf("after a lost write-back that sent exclude_ips alone, the plan shows exclude_params, which the "+
			"update never sent:\n%s", strings.TrimSpace(plan))
	}
}

// Two resources of one domain, a managing exclude_ips
// ["1.1.1.1"] and b under lifecycle ignore_changes = [exclude_ips] with
// ["2.2.2.2"] in its configuration and ["1.1.1.1"] in its state (repeated
// on the server). Terraform hands b's plan the state's list, which a's
// note holds: the plan cannot tell, and announces a write-back. The apply
// sees b's configuration as written, writes nothing, warns, and records
// the list as kept: the next plan is empty, and the repeats stay (before,
// every plan announced the write-back again).
func TestAccWebsite_ignoredTwinWriteBackAnnouncedOnce(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("ignored-twin")
	w, _, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(1, "1.1.1.1"), fmt.Sprintf(`resource "analytics_website" "a" {
  domain      = %[1]q
  privacy     = "public"
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  privacy     = "private"
  exclude_ips = ["2.2.2.2"]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, domain))
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1" })
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if stored, _ := env.Website(id2); stored.ExcludeIPs != "1.1.1.1\n1.1.1.1" {
		t.Errorf("b's exclude_ips is in ignore_changes, yet the apply wrote it back: the server holds %q\n%s",
			stored.ExcludeIPs, strings.TrimSpace(out))
	}
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "Writing exclude_ips Back") &&
		!strings.Contains(flat, "exclude_ips Kept by ignore_changes") {
		t.Errorf("the apply announced a write-back for b and did not say why it made none:\n%s", strings.TrimSpace(out))
	}
	w.MustRun(0, "plan", "-no-color", "-detailed-exitcode") // exit code 2 (a change) fails
}

// With one configuration of the domain, the list decides whether the plan
// is given the configuration's list: ignore_changes of another attribute
// (here email_reports, changed in the web interface) leaves the write-back
// of the repeats the web interface stored in exclude_ips as it is.
func TestAccWebsite_otherAttributeIgnoredStillWritesBack(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "other-ignored")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain        = %q
  email_reports = false
  exclude_ips   = ["1.2.3.4"]
  lifecycle {
    ignore_changes = [email_reports]
  }
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeIPs = "1.2.3.4\n1.2.3.4"; x.Email = ptr(1) })
	w.MustRun(0, "apply", "-auto-approve")
	stored, _ := env.Website(id)
	if stored.ExcludeIPs != "1.2.3.4" {
		t.Errorf("the configuration sets exclude_ips, yet the apply left the repeats: the server holds %q", stored.ExcludeIPs)
	}
	if stored.Email == nil || *stored.Email != 1 {
		t.Errorf("email_reports is in ignore_changes, yet the write-back changed it: %v", shownInt(stored.Email))
	}
}

// A write-back beside a change the plan applies without a request (the
// provider's tracking_url) keeps updated_at as planned, so that its plan
// does not depend on the decision, and the apply is consistent.
func TestAccWebsite_writeBackBesideLocalChangeConsistent(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "beside-local")
	hcl := func(settings ...string) string {
		return env.ProviderBlock(settings...) + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, domain)
	}
	id := webStoresIPs(t, env, w, domain, hcl(), "1.2.3.4\n1.2.3.4", hcl(`tracking_url = "https://stats.example.net"`))
	plan := w.MustRun(0, "plan", "-no-color")
	if !strings.Contains(strings.Join(strings.Fields(plan), " "), "Writing exclude_ips Back") {
		t.Errorf("the plan does not announce the write-back:\n%s", strings.TrimSpace(plan))
	}
	w.MustRun(0, "apply", "-auto-approve")
	if stored, _ := env.Website(id); stored.ExcludeIPs != "1.2.3.4" {
		t.Errorf("the write-back beside a tracking_url change left %q on the server", stored.ExcludeIPs)
	}
	if out := w.MustRun(0, "plan", "-no-color", "-detailed-exitcode"); strings.Contains(out, "will be updated") {
		t.Errorf("after the write-back, the plan is not empty:\n%s", strings.TrimSpace(out))
	}
}

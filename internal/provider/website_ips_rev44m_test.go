package provider

import (
	"context"
	"fmt"
	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Review rev44m, A: two resources of one domain, X managing exclude_ips
// ["1.1.1.1"] and Y under lifecycle ignore_changes = [exclude_ips] with
// ["2.2.2.2"] in its configuration and ["1.1.1.1"] in its state (folded
// repeats on the server). Terraform hands Y's plan the state's list, which
// X's note matches: a write-back is planned (and sent) under
// ignore_changes. The rule is "never under ignore_changes"; before
// 94090a2 the domain was ambiguous and nothing was written back.
func TestAccWebsite_rev44mA(t *testing.T) {
	ctx := context.Background()
	var c configuredIPs
	c.note(ctx, websiteResourceModel{Domain: types.StringValue("d.example"), ExcludeIPs: stringSetValue([]string{"1.1.1.1"})}) // X
	c.note(ctx, websiteResourceModel{Domain: types.StringValue("d.example"), ExcludeIPs: stringSetValue([]string{"2.2.2.2"})}) // Y
	// Y's plan under ignore_changes: the state's list.
	yPlan := websiteResourceModel{Domain: types.StringValue("d.example"), ExcludeIPs: stringSetValue([]string{"1.1.1.1"})}
	if got, _ := c.written(ctx, yPlan); got {
		t.Errorf("Y (ignore_changes) is taken as written: a write-back is planned under ignore_changes")
	}
}

// Review rev44m, B: the notes of the plan walk and of the apply walk
// differ when a list is unknown at plan and known at apply (Terraform
// validates each instance again, with the known configuration, right before
// its final plan). X manages ["1.1.1.1"] (folded repeats on the server) and
// changes only skip_destroy; Z, of the same domain, has a list known only
// after apply. At plan the domain holds an unknown note: no write-back,
// updated_at planned known. At apply Z's list is known: X's final plan
// plans the write-back, updated_at becomes unknown, and Terraform stops
// with "Provider produced inconsistent final plan".
func TestAccWebsite_rev44mB(t *testing.T) {
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

// Review rev44m, C: a write-back planned with skip_destroy alone sends
// exclude_ips alone (OnlyExcludeIPs). When its answer is lost, the update
// keeps the prior state as if it had sent exclude_params
// (keepUnsettled: in.OmitExcludeParams is false), so the state forgets
// exclude_params the update never sent, and the next plan shows
// exclude_params to be set again: a change the server never had.
func TestAccWebsite_rev44mC(t *testing.T) {
	acctest.NeedsEmulator(t, "stores a repeated exclude_ips line and loses an update's answer")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("wb-lost-only-ips")
	w := acctest.NewWorkdir(t)
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
	w.Write("main.tf", hcl(false))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeIPs = "5.6.7.8\n5.6.7.8" })
	w.Write("main.tf", hcl(true))
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
	w.Write("main.tf", hcl(false))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccWebsite_keptHandOverWithOtherSettings: a resource with
// skip_destroy = true renamed without a moved block, the new one with other
// settings. Its create would be refused (the kept website holds the
// domain), and nothing may put the website back into the new resource's
// state with settings it does not hold, so when the removal ran first the
// website was left in no state. The plan refuses the pair, every time it
// is planned, and the moved block it advises hands the website over.
func TestAccWebsite_keptHandOverWithOtherSettings(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-handover")
	site := func(name string, reports bool, extra string) string {
		return env.Config(fmt.Sprintf("%sresource \"analytics_website\" %q {\n  domain        = %q\n"+
			"  email_reports = %t\n  skip_destroy  = true\n}\n", extra, name, domain, reports))
	}
	w.Write("main.tf", site("old", false, ""))
	w.MustRun(0, "apply", "-auto-approve")
	kept := env.MustWebsite(t, domain)

	w.Write("main.tf", site("new", true, ""))
	for _, cmd := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
		out, code := w.Run(append(cmd, "-no-color")...)
		if code == 0 || !strings.Contains(out, "Website Would Leave Every State") {
			t.Errorf("terraform %s of a kept website's removal and a create of its domain with other settings: exit "+
				"code %d, want the plan refused:\n%s", cmd, code, out)
		}
		if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["old"] != fmt.Sprint(kept.ID) {
			t.Fatalf("after terraform %s, old's state holds %q, want the kept website %d:\n%s", cmd, ids["old"], kept.ID, out)
		}
	}

	w.Write("main.tf", site("new", true, "moved {\n  from = analytics_website.old\n  to   = analytics_website.new\n}\n"))
	w.MustRun(0, "apply", "-auto-approve")
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["new"] != fmt.Sprint(kept.ID) {
		t.Errorf("with the moved block, new's state holds %q, want the kept website %d", ids["new"], kept.ID)
	}
	if got := env.MustWebsite(t, domain); got.ID != kept.ID || got.Email == nil || *got.Email != 1 {
		t.Errorf("the server holds website %d (e-mail reports %v), want %d with e-mail reports", got.ID, got.Email, kept.ID)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	_ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID)
}

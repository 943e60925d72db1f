package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccWebsite_keptHandOver: a resource with skip_destroy = true leaves
// the configuration, and another resource takes its domain with other
// settings (email_reports true, the kept website's false). Known at plan
// for a new resource, the plan refuses the pair
// (TestAccWebsite_keptHandOverWithOtherSettings). Known only at apply (a
// setting or the domain from terraform_data.u, updated in this apply), or
// through another resource's domain change (whose old website the plan
// deletes), the removal runs first (old's state depends on u or b), the
// create is refused for the domain, and the kept website was left in no
// state (review rev44am). Now the create takes it over, with its own
// settings, and the next plan is empty.
func TestAccWebsite_keptHandOver(t *testing.T) {
	acctest.Parent(t)
	for _, tc := range []struct {
		name, first, second string
		holder              string // the resource that ends up with the kept website
	}{
		{
			name:  "setting unknown at plan",
			first: "resource \"terraform_data\" \"u\" {\n  input = \"1\"\n}\n" + keptOld("[terraform_data.u]"),
			second: "resource \"terraform_data\" \"u\" {\n  input = \"2\"\n}\nresource \"analytics_website\" \"new\" {\n" +
				"  domain        = %[1]q\n  email_reports = terraform_data.u.output == \"2\"\n  skip_destroy  = true\n}\n",
			holder: "new",
		},
		{
			name:  "domain unknown at plan",
			first: "resource \"terraform_data\" \"u\" {\n  input = \"x\"\n}\n" + keptOld("[terraform_data.u]"),
			second: "resource \"terraform_data\" \"u\" {\n  input = %[1]q\n}\nresource \"analytics_website\" \"new\" {\n" +
				"  domain        = terraform_data.u.output\n  email_reports = true\n  skip_destroy  = true\n}\n",
			holder: "new",
		},
		{
			name:   "domain change",
			first:  "resource \"analytics_website\" \"b\" {\n  domain = %[2]q\n}\n" + keptOld("[analytics_website.b]"),
			second: "resource \"analytics_website\" \"b\" {\n  domain        = %[1]q\n  email_reports = true\n}\n",
			holder: "b", // b's website is deleted, as planned; b takes the kept one over
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.New(t)
			w := acctest.NewWorkdir(t)
			domain, other := env.Domain("kept-takeover"), env.Domain("kept-takeover-b")
			w.Write("main.tf", env.Config(fmt.Sprintf(tc.first, domain, other)))
			w.MustRun(0, "apply", "-auto-approve")
			kept := env.MustWebsite(t, domain)
			defer func() { _ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID) }()

			w.Write("main.tf", env.Config(fmt.Sprintf(tc.second, domain, other)))
			out, code := w.Run("apply", "-auto-approve", "-no-color")
			ids := stateIDs(t, w.Read("terraform.tfstate"))
			if got := env.MustWebsite(t, domain); got.ID != kept.ID {
				t.Fatalf("the server holds website %d for %q, want the kept %d:\n%s", got.ID, domain, kept.ID, out)
			}
			if ids[tc.holder] != fmt.Sprint(kept.ID) {
				t.Fatalf("want the kept website %d in %s's state, the states hold %v (exit code %d):\n%s",
					kept.ID, tc.holder, ids, code, out)
			}
			got := env.MustWebsite(t, domain)
			if code != 0 || !strings.Contains(out, "Website Taken Over") || got.Email == nil || *got.Email != 1 {
				t.Errorf("want new's create to take the kept website over with e-mail reports (exit code %d, e-mail "+
					"reports %v):\n%s", code, got.Email, out)
			}
			w.MustRun(0, "plan", "-detailed-exitcode")
		})
	}
}

// keptOld is the resource old, with skip_destroy = true, e-mail reports off
// and depends_on dependsOn, whose domain is the format's first argument.
func keptOld(dependsOn string) string {
	return "resource \"analytics_website\" \"old\" {\n  domain        = %[1]q\n  email_reports = false\n" +
		"  skip_destroy  = true\n  depends_on    = " + dependsOn + "\n}\n"
}

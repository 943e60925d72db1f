package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// What the web interface can store that the provider never writes is read
// without failing, by an import (resource), a refresh and the list data
// source: a repeated exclude_ips line (stored as given), CR LF and blank
// lines, two spellings of one address, an entry that is no address, NULL
// columns, an e-mail flag outside 0..1, a password "0" (read as none), a
// favorite. On the other CLIs (acctest.RepeatPassSteps) it runs the plan
// and the apply of the import blocks, which depend on the CLI; the refresh
// and the update after them ran on Terraform 1.8.5.
func TestAccWebsite_webInterfaceValues(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read")
	acctest.NeedsEmulator(t, "stores values as the web interface does, past the API's input handling")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	cases := []struct {
		name string
		w    emulator.Website
		// ips is the exclude_ips of the configuration, which reads the
		// same as what is stored.
		ips string
	}{
		{"repeated", emulator.Website{Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeIPs: "1.2.3.4\n1.2.3.4"}}, `["1.2.3.4"]`},
		{"repeated-crlf", emulator.Website{Settings: wire.Settings{ExcludeIPs: "10.0.0.1\r\n\r\n10.0.0.2\r\n10.0.0.1"}}, `["10.0.0.1", "10.0.0.2"]`},
		{"spellings", emulator.Website{Settings: wire.Settings{ExcludeIPs: "2001:DB8::1\n2001:db8::1\n10.0.0.0/8\n10.1.2.3/8\nnot-an-address\n1.2.3.4 "}}, ""},
		{"nulls", emulator.Website{}, ""},
		{"odd", emulator.Website{Settings: wire.Settings{Privacy: ptr(2), Password: "0", Email: ptr(7), ExcludeBots: ptr(0), ExcludeIPs: "1.2.3.4\n1.2.3.4\n1.2.3.4"}, Favorite: true}, ""},
	}
	var hcl strings.Builder
	for _, tc := range cases {
		tc.w.Domain = tc.name + ".web-values.example.com"
		w := env.Seed(env.Key, tc.w)
		ips := ""
		if tc.ips != "" {
			ips = "exclude_ips = " + tc.ips
		}
		fmt.Fprintf(&hcl, `
import {
  to = analytics_website.%[1]s
  id = "%[2]d"
}
resource "analytics_website" "%[1]s" {
  domain = %[3]q
  %[4]s
}
`, tc.name, w.ID, tc.w.Domain, ips)
	}
	hcl.WriteString(`
data "analytics_websites" "all" {
  search = "web-values.example.com"
}
`)
	cfg := env.Config(hcl.String())
	env.Test(t, acctest.RepeatPassSteps([]resource.TestStep{
		// The import reads every website, then the refresh of the plan.
		{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true},
		{
			Config: cfg,
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("analytics_website.repeated", "exclude_ips.#", "1"),
				resource.TestCheckResourceAttr("data.analytics_websites.all", "websites.#", fmt.Sprint(len(cases))),
				// A configuration that sets exclude_ips writes the list
				// back once each (website_ips_folded.go).
				storedIPs(env, "repeated", "1.2.3.4"),
				storedIPs(env, "repeated-crlf", "10.0.0.1\n10.0.0.2"),
			),
		},
		// Read again: nothing the server holds blocks a plan.
		{Config: cfg, PlanOnly: true},
		// An update for another reason writes the list as configured.
		{
			Config: strings.Replace(cfg, `exclude_ips = ["1.2.3.4"]`, `exclude_ips = ["1.2.3.4"]
  email_reports = true`, 1),
			Check: storedIPs(env, "repeated", "1.2.3.4"),
		},
	}, 0, 1)...)
}

func storedIPs(env *acctest.Env, name, want string) resource.TestCheckFunc {
	return env.CheckStored(name+".web-values.example.com", func(w emulator.Website) error {
		if w.ExcludeIPs != want {
			return fmt.Errorf("exclude_ips is %q on the server, want %q", w.ExcludeIPs, want)
		}
		return nil
	})
}

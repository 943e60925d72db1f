package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// Defect 5 (exclude_ips write-back and ignore_changes). The
// write-back runs when the plan keeps the list and it is the one Terraform
// wrote last, or Terraform never wrote one. Both hold under lifecycle
// ignore_changes = [exclude_ips] in the two most common cases of a list
// handed to the web interface:
//   - an imported website (the usual way to adopt websites the web
//     interface manages): Terraform never wrote the list;
//   - the web interface types an address already in the list again.
//
// The plan then updates the website and the apply rewrites the server's
// list, although Terraform was told not to manage the attribute. The
// issue: write back "only when the configuration manages the attribute".
//
// Terraform never sends lifecycle to the provider: it sees ignore_changes
// only where the configuration as written differs from the state, which
// it validates before the plan (website_ips_ignored.go). The second case
// is therefore checked with a configuration edited since the create; a
// configuration still equal to the server's list is not told apart.
func TestAccWebsite_foldedIPsIgnoreChangesImportedOrSameList(t *testing.T) {
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	acctest.CLIDependent(t, "ignore_changes: the CLI validates the configuration as written before it plans")
	env := acctest.New(t)
	const repeated = "1.2.3.4\n1.2.3.4"
	imported := env.Seed(env.Key, emulator.Website{Domain: env.Domain("ign-imported"), Settings: wire.Settings{
		Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeIPs: repeated,
	}})
	created := env.Domain("ign-created")
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
import {
  to = analytics_website.imported
  id = "%d"
}
resource "analytics_website" "imported" {
  domain = %q
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
resource "analytics_website" "created" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, imported.ID, imported.Domain, created)))
	w.MustRun(0, "apply", "-auto-approve")
	wantStoredIPs(t, env, imported.Domain, repeated, "imported with exclude_ips in ignore_changes")

	// Edited since the create: ignored, the server keeps 1.2.3.4.
	w.Write("main.tf", strings.Replace(w.Read("main.tf"), `exclude_ips = ["1.2.3.4"]`, `exclude_ips = ["5.6.7.8"]`, 1))
	setStoredIPs(t, env, created, repeated) // typed again in the web interface
	if out, code := w.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("exclude_ips is in ignore_changes, yet the plan exits %d (want 0, no change):\n%s", code, out)
	}
	w.MustRun(0, "apply", "-auto-approve")
	wantStoredIPs(t, env, created, repeated, "created, exclude_ips in ignore_changes, edited in the web interface")
	w.DestroyIfLive()
}

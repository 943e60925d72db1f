package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

const foldedIPsWarning = "Writing exclude_ips Back Without Repeats"

// foldedIPsWarned reports whether a plan's diagnostics warn that the apply
// writes back the exclude_ips of the resource called name.
func foldedIPsWarned(diags []acctest.PlanDiag, name string) bool {
	for _, d := range diags {
		if d.Severity == "warning" && d.Summary == foldedIPsWarning && d.Address == "analytics_website."+name {
			return true
		}
	}
	return false
}

// setStoredIPs stores exclude_ips as the web interface does, past the
// API's input handling.
func setStoredIPs(t *testing.T, env *acctest.Env, domain, text string) {
	t.Helper()
	w, ok := env.WebsiteByDomain(domain)
	if !ok || !env.UpdateWebsite(w.ID, func(w *emulator.Website) { w.ExcludeIPs = text }) {
		t.Fatalf("the emulator has no website %q", domain)
	}
}

func wantStoredIPs(t *testing.T, env *acctest.Env, domain, want, when string) {
	t.Helper()
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeIPs != want {
		t.Errorf("%s: exclude_ips is %q on the server, want %q", when, w.ExcludeIPs, want)
	}
}

// A repeated exclude_ips line (or two spellings of one address), stored by
// the web interface, is read once: the plan of a configuration that sets
// exclude_ips then showed no change, and the server kept the repeats until
// an update for another reason. The import and the refresh now plan the
// update, with a warning, and the apply writes the list once each. On the
// other CLIs (acctest.RepeatPass) it stops after the import, which depends
// on the CLI; the refresh's write-back ran on Terraform 1.8.5.
func TestAccWebsite_foldedIPsWrittenBack(t *testing.T) {
	acctest.CLIDependent(t, "import blocks and plan -json: the CLI plans the import and shows the warnings")
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	managed, unset := env.Domain("folded-ips"), env.Domain("folded-ips-unset")
	const repeated = "1.2.3.4\n2001:DB8::1\n1.2.3.4\n2001:db8::1"
	// The other columns as the configuration's defaults: only the write-back
	// plans an update.
	seed := func(domain string) emulator.Website {
		return env.Seed(env.Key, emulator.Website{Domain: domain, Settings: wire.Settings{
			Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeIPs: repeated,
		}})
	}
	m, u := seed(managed), seed(unset)
	s.Write(fmt.Sprintf(`
import {
  to = analytics_website.managed
  id = "%d"
}
resource "analytics_website" "managed" {
  domain      = %q
  exclude_ips = ["1.2.3.4", "2001:DB8::1"]
}
import {
  to = analytics_website.unset
  id = "%d"
}
resource "analytics_website" "unset" {
  domain = %q
}
`, m.ID, managed, u.ID, unset))

	diags := s.W.PlanDiags()
	if !foldedIPsWarned(diags, "managed") {
		t.Errorf("the import of repeated exclude_ips lines plans no write-back (no %q warning): %+v", foldedIPsWarning, diags)
	}
	if foldedIPsWarned(diags, "unset") {
		t.Errorf("a configuration without exclude_ips is warned about a write-back: %+v", diags)
	}
	s.W.MustRun(0, "apply", "-auto-approve")
	wantStoredIPs(t, env, managed, "1.2.3.4\n2001:DB8::1", "after the apply of the import")
	// exclude_ips defaults to none: unset, the apply clears the list, as it
	// did before, and not by the write-back.
	wantStoredIPs(t, env, unset, "", "after the apply of the import without exclude_ips")
	if out, code := s.W.Run("plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the write-back exits %d, want 0 (no change):\n%s", code, out)
	}
	if acctest.RepeatPass() {
		return
	}

	// The web interface repeats a line again: the refresh plans the update.
	// It reads as the configuration says.
	setStoredIPs(t, env, managed, "2001:DB8::1\n1.2.3.4\n2001:db8::1\n1.2.3.4")
	if diags := s.W.PlanDiags(); !foldedIPsWarned(diags, "managed") {
		t.Errorf("the refresh of repeated exclude_ips lines plans no write-back (no %q warning): %+v", foldedIPsWarning, diags)
	}
	s.W.MustRun(0, "apply", "-auto-approve")
	wantStoredIPs(t, env, managed, "1.2.3.4\n2001:DB8::1", "after the apply of the refresh")
	if out, code := s.W.Run("plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the write-back exits %d, want 0 (no change):\n%s", code, out)
	}
	s.DestroyIfLive(t)
}

// The read that folded exclude_ips marks the website; when the server's
// list is cleaned by someone else before the apply, the apply's refresh
// clears the mark and writes nothing. On the other CLIs
// (acctest.RepeatPass) it stops once apply -refresh-only has kept the mark,
// which depends on the CLI; the cleaned list's apply ran on Terraform 1.8.5.
func TestAccWebsite_foldedIPsCleanedBeforeApply(t *testing.T) {
	acctest.CLIDependent(t, "apply -refresh-only keeps the private state of a refresh")
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("folded-ips-cleaned")
	s.Apply(fmt.Sprintf(`
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, domain))
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	s.W.MustRun(0, "apply", "-refresh-only", "-auto-approve") // the state keeps the mark
	if out, code := s.W.Run("plan", "-detailed-exitcode", "-refresh=false"); code != 2 {
		t.Fatalf("after a refresh that folded exclude_ips, the plan exits %d, want 2 (an update):\n%s", code, out)
	}
	if acctest.RepeatPass() {
		return
	}

	setStoredIPs(t, env, domain, "1.2.3.4") // cleaned in the web interface
	if diags := s.W.PlanDiags(); foldedIPsWarned(diags, "test") {
		t.Errorf("the server's list is clean, yet the plan warns of a write-back: %+v", diags)
	}
	writes := env.Writes()
	s.W.MustRun(0, "apply", "-auto-approve")
	if n := env.Writes() - writes; n != 0 {
		t.Errorf("the apply after the list was cleaned sent %d writes, want none", n)
	}
	if out, code := s.W.Run("plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan exits %d, want 0 (no change):\n%s", code, out)
	}
	s.DestroyIfLive(t)
}

// With exclude_ips in ignore_changes, an update for another reason sent
// the state's list, folded: the server lost the repeats (and would lose an
// entry the web interface added since the refresh). The update now leaves
// exclude_ips out, and the server keeps its list.
func TestAccWebsite_foldedIPsIgnoredKeptByOtherUpdate(t *testing.T) {
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	env := acctest.New(t)
	domain := env.Domain("folded-ignored-update")
	w := acctest.NewWorkdir(t)
	const config = `resource "analytics_website" "test" {
  domain = %q
  %s
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`
	w.Write("main.tf", env.Config(fmt.Sprintf(config, domain, `exclude_ips = ["1.2.3.4"]`)))
	w.MustRun(0, "apply", "-auto-approve")
	const repeated = "1.2.3.4\n1.2.3.4"
	setStoredIPs(t, env, domain, repeated)
	// exclude_ips left to the web interface; exclude_bots changed.
	w.Write("main.tf", env.Config(fmt.Sprintf(config, domain, `exclude_bots = false`)))
	w.MustRun(0, "apply", "-auto-approve")
	wantStoredIPs(t, env, domain, repeated, "after an update of exclude_bots, exclude_ips in ignore_changes")
	if ws, _ := env.WebsiteByDomain(domain); ws.ExcludeBots == nil || *ws.ExcludeBots != 0 {
		t.Errorf("exclude_bots is %v on the server, want 0", ws.ExcludeBots)
	}
	if out, code := w.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the update exits %d, want 0 (no change):\n%s", code, out)
	}
	w.DestroyIfLive()
}

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

// Defect 5: the web interface repeats an exclude_ips line, and the
// configuration, in the same plan, removes that address. The plan shows
// the removal, and the write-back warning on the same attribute says "the
// server excludes the same addresses": after this apply it no longer
// excludes 1.2.3.4. The warning is true only when the write-back is all
// the update does to exclude_ips.
func TestAccWebsite_foldedIPsWarningNotBesideRemoval(t *testing.T) {
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("folded-changed")
	config := func(ips string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain      = %q\n  exclude_ips = %s\n", domain, ips)))
	}
	w.Write("main.tf", config(`["1.2.3.4", "5.6.7.8"]`))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4\n5.6.7.8")
	w.Write("main.tf", config(`["5.6.7.8"]`))
	for _, d := range w.PlanDiags() {
		if d.Summary == foldedIPsWarning && strings.Contains(d.Detail, "the server excludes the same addresses") {
			t.Errorf("the plan removes 1.2.3.4 from exclude_ips, yet warns: %s", d.Detail)
		}
	}
	w.DestroyIfLive()
}

// Defect 5: a configuration that hands exclude_ips to the web interface
// with lifecycle ignore_changes (an initial value, then edited there). The
// web interface repeats a line: the plan now updates the website to write
// the list back, although Terraform was told not to manage the attribute
// (the configuration's value is not the plan's: the state's is). The
// update writes what the last refresh read, over any edit made in the web
// interface since. Nothing should be planned.
func TestAccWebsite_foldedIPsIgnoreChangesPlansNothing(t *testing.T) {
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("folded-ignored")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "9.9.9.9\n1.2.3.4\n9.9.9.9")
	if out, code := w.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("exclude_ips is in ignore_changes, yet the plan exits %d (want 0, no change):\n%s", code, out)
	}
	w.DestroyIfLive()
}

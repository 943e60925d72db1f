package provider

import (
	"fmt"
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

package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// A single resource of its domain whose configuration sets
// exclude_ips gets its repeats written back, whatever the shape of the
// configuration (count, for_each, a module, variables, values known only
// after another resource's apply).
func TestAccWebsite_singleWriteBackShapes(t *testing.T) {
	// Skips here, not only in each case, so that the live pass does not
	// count it as passed.
	acctest.NeedsEmulator(t, storesWebRepeat)
	acctest.Parent(t)
	for _, tc := range []struct{ name, hcl string }{
		{"count", `resource "analytics_website" "test" {
  count         = 1
  domain        = %q
  email_reports = count.index > 5
  exclude_ips   = ["1.2.3.4"]
}
`},
		{"for_each", `resource "analytics_website" "test" {
  for_each    = { one = %q }
  domain      = each.value
  exclude_ips = [each.key == "one" ? "1.2.3.4" : "9.9.9.9"]
}
`},
		{"module", `module "m" {
  source = "./m"
  domain = %q
}
`},
		{"variable", `variable "ips" {
  type    = list(string)
  default = ["1.2.3.4"]
}
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = var.ips
}
`},
		{"other resource", `resource "terraform_data" "x" {
  input = "1.2.3.4"
}
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [terraform_data.x.output]
}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, domain, w := emulatedWorkdir(t, storesWebRepeat, "shape")
			if err := os.MkdirAll(filepath.Join(w.Dir(), "m"), 0o700); err != nil {
				t.Fatal(err)
			}
			w.Write("m/main.tf", `variable "domain" { type = string }
resource "analytics_website" "test" {
  domain      = var.domain
  exclude_ips = ["1.2.3.4"]
}
`)
			w.Write("main.tf", env.Config(fmt.Sprintf(tc.hcl, domain)))
			// The local module as terraform init records it (no registry here).
			if err := os.MkdirAll(filepath.Join(w.Dir(), ".terraform", "modules"), 0o700); err != nil {
				t.Fatal(err)
			}
			w.Write(".terraform/modules/modules.json",
				`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"./m","Dir":"m"}]}`)
			w.MustRun(0, "apply", "-auto-approve")
			setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
			out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
			if stored, _ := env.WebsiteByDomain(domain); stored.ExcludeIPs != "1.2.3.4" {
				t.Errorf("one resource of its domain sets exclude_ips, yet the apply left %q:\n%s", stored.ExcludeIPs,
					strings.TrimSpace(out))
			}
			wantPlanEmpty(t, w, out)
		})
	}
}

// The kept record counts when no note decides, that is
// when ignore_changes keeps the domain and the configuration's differs.
// After an apply under ignore_changes = all recorded the state's list as
// kept (as in TestAccWebsite_ignoreRemovedWritesBackKeptList),
// the configuration manages exclude_ips again, that very list, and only
// the domain stays in ignore_changes: a single resource whose
// configuration sets the list, yet the record stops the write-back for
// good, with no warning, and the docs say the apply writes it back.
func TestAccWebsite_domainStillIgnoredWritesBackKeptList(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "kept-domain")
	hcl := func(domain, ips, ignored string) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [%q]
  lifecycle {
    ignore_changes = %s
  }
}
`, domain, ips, ignored))
	}
	w.Write("main.tf", hcl(domain, "1.2.3.4", "all"))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	renamed := env.Domain("kept-domain-renamed")
	w.Write("main.tf", hcl(renamed, "9.9.9.9", "all"))
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	wantStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4", "under ignore_changes = all")
	// exclude_ips is managed again, with the list the state holds.
	w.Write("main.tf", hcl(renamed, "1.2.3.4", "[domain]"))
	second := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if stored, _ := env.WebsiteByDomain(domain); stored.ExcludeIPs != "1.2.3.4" {
		t.Errorf("the configuration manages exclude_ips again (only the domain ignored), yet the apply left the "+
			"repeats %q (the kept record stops the write-back)\nfirst apply:\n%s\nsecond apply:\n%s",
			stored.ExcludeIPs, strings.TrimSpace(first), strings.TrimSpace(second))
	}
}

// After a write-back whose answer was lost (committed or
// not), an apply without refresh writes the list back once each, and the
// next plan without refresh is empty.
func TestAccWebsite_lostWriteBackThenRefreshFalse(t *testing.T) {
	// Skips here, not only in each case, so that the live pass does not
	// count it as passed.
	acctest.NeedsEmulator(t, storesWebRepeat)
	acctest.Parent(t)
	for _, tc := range []struct {
		name   string
		faults emulator.Faults
	}{
		{"committed", emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetAfterRate: 1}},
		{"not committed", emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetBeforeRate: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, domain, w := emulatedWorkdir(t, "stores a repeated exclude_ips line and loses an update's answer",
				"lost-wb-norefresh")
			cfg := env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["5.6.7.8"]
}
`, domain)
			webStoresIPs(t, env, w, domain, cfg, "5.6.7.8\n5.6.7.8", cfg)
			faults := tc.faults
			if err := env.SetFaults(&faults); err != nil {
				t.Fatal(err)
			}
			if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 1 {
				t.Fatalf("the write-back whose answer is lost: exit code %d:\n%s", code, out)
			}
			if err := env.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			out := w.MustRun(0, "apply", "-refresh=false", "-auto-approve", "-no-color")
			wantStoredIPs(t, env, domain, "5.6.7.8", "after the apply without refresh")
			if plan, code := w.Run("plan", "-refresh=false", "-no-color", "-detailed-exitcode"); code != 0 {
				t.Errorf("the plan without refresh is not empty (exit %d):\n%s\napply:\n%s", code,
					strings.TrimSpace(plan), strings.TrimSpace(out))
			}
		})
	}
}

// What the web interface can store in exclude_ips beyond a
// plain repeated line: CRLF line ends (a browser's textarea), blank lines,
// and a second spelling that comes first (a range with host bits, an
// upper-case IPv6 address). A single resource that sets the list gets it
// written back as configured, and the plan after the apply is empty.
func TestAccWebsite_webSpellingsWrittenBack(t *testing.T) {
	// Skips here, not only in each case, so that the live pass does not
	// count it as passed.
	acctest.NeedsEmulator(t, storesWebRepeat)
	acctest.Parent(t)
	for _, tc := range []struct{ name, stored, cfg string }{
		{"crlf", "1.2.3.4\r\n1.2.3.4\r\n", "1.2.3.4"},
		{"blank lines", "1.2.3.4\n\n1.2.3.4\n", "1.2.3.4"},
		{"host bits first", "10.0.0.1/8\n10.0.0.0/8", "10.0.0.0/8"},
		{"upper ipv6 first", "2001:DB8::1\n2001:db8::1", "2001:db8::1"},
		{"zero-padded ipv6 first", "2001:0db8::1\r\n2001:db8::1", "2001:db8::1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, domain, w := emulatedWorkdir(t, storesWebRepeat, "spell")
			w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [%q]
}
`, domain, tc.cfg)))
			w.MustRun(0, "apply", "-auto-approve")
			setStoredIPs(t, env, domain, tc.stored)
			out, code := w.Run("apply", "-auto-approve", "-no-color")
			if code != 0 {
				t.Fatalf("apply failed (exit %d):\n%s", code, out)
			}
			wantStoredIPs(t, env, domain, tc.cfg, "after the apply")
			wantPlanEmpty(t, w, out)
		})
	}
}

// A write-back whose update fails (maintenance, a lost
// answer after commit, throttling) is planned again, and the next apply
// finishes it; no error from Terraform, no perpetual diff.
func TestAccWebsite_writeBackFaultsPlannedAgain(t *testing.T) {
	// Skips here, not only in each case, so that the live pass does not
	// count it as passed.
	acctest.NeedsEmulator(t, storesWebRepeat)
	acctest.Parent(t)
	for _, tc := range []struct {
		name string
		f    emulator.Faults
	}{
		{"maintenance 503", emulator.Faults{Methods: []string{"PUT", "PATCH", "POST"}, ErrorRate: 1, ErrorStatuses: []int{503}}},
		{"502 after commit", emulator.Faults{Methods: []string{"PUT", "PATCH", "POST"}, ErrorAfterCommitRate: 1}},
		{"reset after commit", emulator.Faults{Methods: []string{"PUT", "PATCH", "POST"}, ResetAfterRate: 1}},
		{"throttled once", emulator.Faults{Methods: []string{"PUT", "PATCH"}, ThrottleRate: 1, MaxFaults: 1}},
		{"503 on reads", emulator.Faults{Methods: []string{"GET"}, ErrorRate: 1, ErrorStatuses: []int{503}}},
		{"truncated answer", emulator.Faults{Methods: []string{"PUT", "PATCH"}, TruncateRate: 1}},
		{"malformed answer", emulator.Faults{Methods: []string{"PUT", "PATCH"}, MalformedRate: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, domain, w := emulatedWorkdir(t, storesWebRepeat, "fault")
			w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, domain)))
			w.MustRun(0, "apply", "-auto-approve")
			setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
			f := tc.f
			if err := env.SetFaults(&f); err != nil {
				t.Fatal(err)
			}
			first, _ := w.Run("apply", "-auto-approve", "-no-color")
			if err := env.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			out, code := w.Run("apply", "-auto-approve", "-no-color")
			if code != 0 {
				t.Fatalf("the apply after the fault failed (exit %d):\n%s\nfirst:\n%s", code, out, first)
			}
			wantStoredIPs(t, env, domain, "1.2.3.4", "after the apply following the fault")
			wantPlanEmpty(t, w, out)
		})
	}
}

// A saved plan that announces the write-back is applied
// as planned; a -refresh-only apply records the fold, and the next plan
// and apply write back.
// A single resource whose exclude_ips is unknown at plan
// (from a resource replaced in the same apply) and turns out to be the
// list the state holds folded: the apply must neither fail with an
// inconsistent final plan nor leave a perpetual diff.
// A terraform query -generate-config-out over a website whose
// exclude_ips the web interface stored with a repeat: the generated
// configuration adopts it, the apply loses no entry, and the plan after
// it is empty.
// The write-back survives a moved block in the same plan, a
// -target apply of another resource first, and an import with terraform
// import followed by a -refresh=false apply.
// A website whose other settings hold what the provider
// never writes (NULL privacy, email and exclude_bots; email 2), with a
// repeated exclude_ips line, imported by an import block into a
// configuration that sets the list: the apply settles it and the plan
// after it is empty.
func TestAccWebsite_importNullSettingsWithRepeats(t *testing.T) {
	// Skips here, not only in each case, so that the live pass does not
	// count it as passed.
	acctest.NeedsEmulator(t, storesWebRepeat)
	acctest.Parent(t)
	two := 2
	for _, tc := range []struct {
		name string
		s    wire.Settings
	}{
		{"nulls", wire.Settings{ExcludeIPs: "1.2.3.4\n1.2.3.4"}},
		{"email 2", wire.Settings{Email: &two, ExcludeIPs: "1.2.3.4\r\n1.2.3.4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, domain, w := emulatedWorkdir(t, storesWebRepeat, "nulls")
			seeded := env.Seed(env.Key, emulator.Website{Domain: domain, Settings: tc.s})
			w.Write("main.tf", env.Config(fmt.Sprintf(`import {
  to = analytics_website.a
  id = "%d"
}
resource "analytics_website" "a" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, seeded.ID, domain)))
			out, code := w.Run("apply", "-auto-approve", "-no-color")
			if code != 0 {
				t.Fatalf("apply failed (exit %d):\n%s", code, out)
			}
			wantStoredIPs(t, env, domain, "1.2.3.4", "after the import's apply")
			wantPlanEmpty(t, w, out)
		})
	}
}

// Twins under two provider configurations (an alias of the
// same installation): each provider instance notes only its own
// configuration. The one that ignores exclude_ips never writes; the one
// that manages the list writes it back; the plan after is empty.
// The list from a sensitive variable: written back when
// managed, never under ignore_changes (config list differs).

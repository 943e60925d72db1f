package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// What the web interface can store in exclude_ips beyond a
// plain repeated line: CRLF line ends (a browser's textarea), blank lines,
// and a second spelling that comes first (a range with host bits, an
// upper-case IPv6 address). A single resource that sets the list gets it
// written back as configured, and the plan after the apply is empty.
func TestAccWebsite_webSpellingsWrittenBack(t *testing.T) {
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

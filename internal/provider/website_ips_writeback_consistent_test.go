package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// A write-back
// of exclude_ips is a full update that sends every field the
// configuration manages, from the plan. The plan shows no change to
// exclude_bots (only the write-back's warning and updated_at), yet a
// change of exclude_bots made in the web interface after the plan is
// undone by the apply, without a word. The API leaves a field it is not
// sent as stored (the update rules), and the update already leaves
// exclude_ips out so as not to undo what the plan did not show; the
// write-back's other fields undo it. Here the configuration follows a list
// the web interface changed (and stored with a repeat) and changes
// skip_destroy alone: before 48da5e6 that change was applied without a
// request; now it sends the whole record.
func TestAccWebsite_writeBackKeepsLaterWebChangeOfOtherField(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, "stores a repeated exclude_ips line and changes a website after the plan",
		"wb-other-field")
	hcl := func(ips string, skip bool) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  exclude_ips  = [%q]
  exclude_bots = true
  skip_destroy = %t
}
`, domain, ips, skip))
	}
	id := webStoresIPs(t, env, w, domain, hcl("1.2.3.4", false), "5.6.7.8\n5.6.7.8", hcl("5.6.7.8", true))
	plan := w.MustRun(0, "plan", "-out=tfplan", "-no-color")
	// After the plan, the web interface turns exclude_bots off and makes
	// the statistics private.
	off, private := 0, 1
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeBots, x.Privacy = &off, &private })
	out := w.MustRun(0, "apply", "-no-color", "tfplan")
	stored, _ := env.Website(id)
	if stored.ExcludeBots == nil || *stored.ExcludeBots != 0 || stored.Privacy == nil || *stored.Privacy != 1 {
		t.Errorf("exclude_bots is %v and privacy %v (web interface: 0 and 1, private) on the server after an apply "+
			"whose plan changed only skip_destroy (and wrote exclude_ips back): the web interface's changes made after "+
			"the plan were undone\nplan:\n%s\napply:\n%s", shownInt(stored.ExcludeBots), shownInt(stored.Privacy),
			strings.TrimSpace(plan), strings.TrimSpace(out))
	}
}

// The same two resources, the provider's
// tracking_url changed and applied first to b alone (-target). The full
// apply's plan validates both configurations (the domain is ambiguous, no
// write-back for a, updated_at known); its apply validates only a, the
// one with a change, so there the note is a's alone and the plan made
// again at apply writes back, with updated_at unknown: Terraform fails
// with "Provider produced inconsistent final plan".
func TestAccWebsite_ambiguousNoteFinalPlanConsistent(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w := ambiguousRepeat(t, env, "ambiguous-final")
	w.MustRun(0, "apply", "-auto-approve", "-target=analytics_website.b")
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 0 || strings.Contains(out, "inconsistent") {
		t.Errorf("the apply of a tracking_url change (exit code %d) failed: its plan did not write exclude_ips "+
			"back, the plan made again at apply did\n%s", code, strings.TrimSpace(out))
	}
}

// With lifecycle ignore_changes = [exclude_ips]
// and a configured list that is unknown at plan time (it depends on a
// resource this apply replaces), ValidateConfig takes no note, and the
// plan falls back on the written-list record: the web interface repeated
// the list Terraform wrote, so the plan updates the website and warns
// "This apply writes the list back with each entry once". The apply
// compares the configuration as written (now known, another list) with
// the plan, finds the list not managed, and sends nothing: the plan
// announced an update and a write-back that ignore_changes rules out and
// that never happen.
func TestAccWebsite_ignoredListUnknownAtPlanNoWriteBack(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "ignored-unknown")
	hcl := func(ip string, n int) string {
		return env.Config(fmt.Sprintf(`resource "terraform_data" "ip" {
  input            = %q
  triggers_replace = %d
}
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [terraform_data.ip.output]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, ip, n, domain))
	}
	w.Write("main.tf", hcl("1.2.3.4", 1))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	w.Write("main.tf", hcl("9.9.9.9", 2))
	plan := w.MustRun(0, "plan", "-no-color")
	if flat := strings.Join(strings.Fields(plan), " "); strings.Contains(flat, "Writing exclude_ips Back") ||
		strings.Contains(flat, "analytics_website.test will be updated") {
		out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
		stored, _ := env.WebsiteByDomain(domain)
		t.Errorf("exclude_ips is in ignore_changes, yet the plan updates the website to write the list back; the "+
			"apply then leaves it %q\nplan:\n%s\napply:\n%s", stored.ExcludeIPs, strings.TrimSpace(plan),
			strings.TrimSpace(out))
	}
	w.DestroyIfLive()
}

func shownInt(p *int) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}

// Two resources hold websites with one domain
// (the server has no unique index on the domain; the provider's kept and
// duplicate paths deal with such websites), each with its own exclude_ips.
// The notes of the configuration as validated then hold the domain as
// ambiguous, and the plan does not write back the repeat the web interface
// stored in one list. But the update does write it back (it compares its
// configuration with its plan, not the notes), so the plan and the apply
// disagree: with a change of the provider's tracking_url, applied without
// a request and planned with updated_at known, the update sends a request
// that changes updated_at, and Terraform fails with "Provider produced
// inconsistent result after apply".
func TestAccWebsite_ambiguousNoteUpdateNoUnplannedWriteBack(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w := ambiguousRepeat(t, env, "ambiguous-note")
	plan := w.MustRun(0, "plan", "-no-color")
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 0 || strings.Contains(out, "inconsistent") {
		t.Errorf("the apply of a tracking_url change (exit code %d) failed; its plan did not write exclude_ips "+
			"back, yet the update did\nplan:\n%s\napply:\n%s", code, strings.TrimSpace(plan), strings.TrimSpace(out))
	}
}

// seedSameDomain seeds one website with domain for each of settings (the
// server has no unique index on the domain), created an hour before now,
// and deletes them when the test ends. It returns their ids and when
// they were created.
func seedSameDomain(t *testing.T, env *acctest.Env, domain string, settings ...wire.Settings) ([]int64, time.Time) {
	t.Helper()
	old := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	ids := make([]int64, len(settings))
	for i, s := range settings {
		ids[i] = env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old, Settings: s}).ID
	}
	t.Cleanup(func() {
		for _, id := range ids {
			_ = env.API(env.Key).DeleteWebsite(context.Background(), id)
		}
	})
	return ids, old
}

// ambiguousRepeat seeds two websites with one domain (from name), whose
// exclude_ips are 1.1.1.1 and 2.2.2.2, and imports them into
// analytics_website.a and .b, each managing its list. Then the web
// interface stores a's list with a repeat (a minute after the websites
// were created), and the configuration changes the provider's
// tracking_url, which applies without a request.
func ambiguousRepeat(t *testing.T, env *acctest.Env, name string) *acctest.Workdir {
	t.Helper()
	domain := env.Domain(name)
	ids, old := seedSameDomain(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"))
	w := acctest.NewWorkdir(t)
	hcl := func(settings ...string) string {
		return env.ProviderBlock(settings...) + importPair(ids[0], ids[1]) + fmt.Sprintf(`resource "analytics_website" "a" {
  domain      = %q
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %q
  exclude_ips = ["2.2.2.2"]
}
`, domain, domain)
	}
	w.Write("main.tf", hcl())
	w.MustRun(0, "apply", "-auto-approve")
	env.UpdateWebsite(ids[0], func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1"; x.UpdatedAt = old.Add(time.Minute) })
	w.Write("main.tf", hcl(`tracking_url = "https://stats.example.net"`))
	return w
}

// storedSettings are a website's settings as the web interface stores
// them: privacy (0 public, 1 private), no e-mail reports, bots excluded,
// and exclude_ips as typed.
func storedSettings(privacy int, ips string) wire.Settings {
	return wire.Settings{Privacy: ptr(privacy), Email: ptr(0), ExcludeBots: ptr(1), ExcludeIPs: ips}
}

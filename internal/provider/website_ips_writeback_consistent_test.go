package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

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

// The notes of the plan walk and of the apply walk
// differ when a list is unknown at plan and known at apply (Terraform
// validates each instance again, with the known configuration, right before
// its final plan). X manages ["1.1.1.1"] (folded repeats on the server) and
// changes only skip_destroy; Z, of the same domain, has a list known only
// after apply. At plan the domain holds an unknown note: no write-back,
// updated_at planned known. At apply Z's list is known: X's final plan
// plans the write-back, updated_at becomes unknown, and Terraform stops
// with "Provider produced inconsistent final plan".
func TestAccWebsite_listUnknownAtPlanFinalPlanConsistent(t *testing.T) {
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

// A write-back planned with skip_destroy alone sends
// exclude_ips alone (OnlyExcludeIPs). When its answer is lost, the update
// keeps the prior state as if it had sent exclude_params
// (keepUnsettled: in.OmitExcludeParams is false), so the state forgets
// exclude_params the update never sent, and the next plan shows
// exclude_params to be set again: a change the server never had.
func TestAccWebsite_lostListOnlyWriteBackKeepsExcludeParams(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, "stores a repeated exclude_ips line and loses an update's answer",
		"wb-lost-only-ips")
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
	webStoresIPs(t, env, w, domain, hcl(false), "5.6.7.8\n5.6.7.8", hcl(true))
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
}

// Two resources of one domain, a managing exclude_ips
// ["1.1.1.1"] and b under lifecycle ignore_changes = [exclude_ips] with
// ["2.2.2.2"] in its configuration and ["1.1.1.1"] in its state (repeated
// on the server). Terraform hands b's plan the state's list, which a's
// note holds: the plan cannot tell, and announces a write-back. The apply
// sees b's configuration as written, writes nothing, warns, and records
// the list as kept: the next plan is empty, and the repeats stay (before,
// every plan announced the write-back again).
func TestAccWebsite_ignoredTwinWriteBackAnnouncedOnce(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("ignored-twin")
	w, _, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(1, "1.1.1.1"), fmt.Sprintf(`resource "analytics_website" "a" {
  domain      = %[1]q
  privacy     = "public"
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  privacy     = "private"
  exclude_ips = ["2.2.2.2"]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, domain))
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1" })
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if stored, _ := env.Website(id2); stored.ExcludeIPs != "1.1.1.1\n1.1.1.1" {
		t.Errorf("b's exclude_ips is in ignore_changes, yet the apply wrote it back: the server holds %q\n%s",
			stored.ExcludeIPs, strings.TrimSpace(out))
	}
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "Writing exclude_ips Back") &&
		!strings.Contains(flat, "exclude_ips Kept by ignore_changes") {
		t.Errorf("the apply announced a write-back for b and did not say why it made none:\n%s", strings.TrimSpace(out))
	}
	w.MustRun(0, "plan", "-no-color", "-detailed-exitcode") // exit code 2 (a change) fails
}

// With one configuration of the domain, the list decides whether the plan
// is given the configuration's list: ignore_changes of another attribute
// (here email_reports, changed in the web interface) leaves the write-back
// of the repeats the web interface stored in exclude_ips as it is.
func TestAccWebsite_otherAttributeIgnoredStillWritesBack(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "other-ignored")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain        = %q
  email_reports = false
  exclude_ips   = ["1.2.3.4"]
  lifecycle {
    ignore_changes = [email_reports]
  }
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeIPs = "1.2.3.4\n1.2.3.4"; x.Email = ptr(1) })
	w.MustRun(0, "apply", "-auto-approve")
	stored, _ := env.Website(id)
	if stored.ExcludeIPs != "1.2.3.4" {
		t.Errorf("the configuration sets exclude_ips, yet the apply left the repeats: the server holds %q", stored.ExcludeIPs)
	}
	if stored.Email == nil || *stored.Email != 1 {
		t.Errorf("email_reports is in ignore_changes, yet the write-back changed it: %v", shownInt(stored.Email))
	}
}

// A write-back beside a change the plan applies without a request (the
// provider's tracking_url) keeps updated_at as planned, so that its plan
// does not depend on the decision, and the apply is consistent.
func TestAccWebsite_writeBackBesideLocalChangeConsistent(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "beside-local")
	hcl := func(settings ...string) string {
		return env.ProviderBlock(settings...) + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, domain)
	}
	id := webStoresIPs(t, env, w, domain, hcl(), "1.2.3.4\n1.2.3.4", hcl(`tracking_url = "https://stats.example.net"`))
	plan := w.MustRun(0, "plan", "-no-color")
	if !strings.Contains(strings.Join(strings.Fields(plan), " "), "Writing exclude_ips Back") {
		t.Errorf("the plan does not announce the write-back:\n%s", strings.TrimSpace(plan))
	}
	w.MustRun(0, "apply", "-auto-approve")
	if stored, _ := env.Website(id); stored.ExcludeIPs != "1.2.3.4" {
		t.Errorf("the write-back beside a tracking_url change left %q on the server", stored.ExcludeIPs)
	}
	if out := w.MustRun(0, "plan", "-no-color", "-detailed-exitcode"); strings.Contains(out, "will be updated") {
		t.Errorf("after the write-back, the plan is not empty:\n%s", strings.TrimSpace(out))
	}
}

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Two resources of one domain whose configurations differ
// in exclude_ips alone, b under ignore_changes = [exclude_ips] with a's
// list in its state (repeated on the server). The docs call this "out of
// sight": the repeats are written back once. But only the plan takes b's
// plan as written (a's note matches it); the plan made again at apply
// validates b alone (a has no change), and the update compares b's
// configuration as written with its plan: neither writes back. Every plan
// then announces the same write-back and an update: a perpetual diff.
func TestAccWebsite_twinIgnoredNoPerpetualWriteBack(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-perpetual")
	w, _, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain      = %[1]q
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  exclude_ips = ["2.2.2.2"]
  depends_on  = [analytics_website.a] # a's note is taken before b's plan
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, domain))
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1" })
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	stored, _ := env.Website(id2)
	out, code := w.Run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Errorf("after an apply, the plan is not empty (exit code %d; b's server list %q):\nfirst apply:\n%s\nplan:\n%s",
			code, stored.ExcludeIPs, strings.TrimSpace(first), strings.TrimSpace(out))
	}
}

// Configurations that differ in more than exclude_ips. b
// ignores privacy and exclude_ips; the web interface made b public, like
// a, and stored a's list with a repeat. Terraform hands b's plan a's
// configuration exactly (privacy and list from b's state), so the plan
// cannot tell b from a and announces a write-back, in every plan: a limit
// website_ips_ignored.go and the docs state. What must hold: the apply
// writes nothing under ignore_changes.
func TestAccWebsite_otherIgnoredTwinNeverWritten(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-other")
	w, _, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(1, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain      = %[1]q
  privacy     = "public"
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  privacy     = "private"
  exclude_ips = ["2.2.2.2"]
  depends_on  = [analytics_website.a] # a's note is taken before b's plan
  lifecycle {
    ignore_changes = [privacy, exclude_ips]
  }
}
`, domain))
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1"; x.Privacy = ptr(0) })
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if stored, _ := env.Website(id2); stored.ExcludeIPs != "1.1.1.1\n1.1.1.1" || shownInt(stored.Privacy) != "0" {
		t.Errorf("b's privacy and exclude_ips are in ignore_changes, yet the apply changed them: privacy %s, list %q\n%s",
			shownInt(stored.Privacy), stored.ExcludeIPs, strings.TrimSpace(out))
	}
}

// Commit f3e7049 lets the list decide for one configuration, so
// that ignore_changes of another attribute does not stop the write-back
// (TestAccWebsite_otherAttributeIgnoredStillWritesBack). With a second
// resource of the domain the whole configuration decides again: a manages
// exclude_ips and ignores email_reports, which the web interface changed,
// so a's plan (email_reports from the state) matches no note, and the
// repeats stay for good, although the docs say the apply writes them back
// whenever the configuration sets exclude_ips.
// Since then a domain with two configurations noted plans no write-back,
// and the docs say the repeats of two resources of one domain may stay.
// What must hold: no plan announces what no apply makes.
func TestAccWebsite_twinOtherIgnoredNoPerpetualPlan(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-missed")
	w, id1, _ := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain        = %[1]q
  email_reports = false
  exclude_ips   = ["1.1.1.1"]
  depends_on    = [analytics_website.b] # b's note is taken before a's plan
  lifecycle {
    ignore_changes = [email_reports]
  }
}
resource "analytics_website" "b" {
  domain      = %[1]q
  exclude_ips = ["2.2.2.2"]
}
`, domain))
	env.UpdateWebsite(id1, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1"; x.Email = ptr(1) })
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	// Two resources of one domain: the repeats may stay (the documented
	// limit), but no plan may announce what no apply makes.
	wantPlanEmpty(t, w, out)
}

// When the provider's configuration is unknown at plan
// (base_url from a resource this apply replaces) and the plan does not
// refresh (-refresh=false), ValidateConfig takes no note (the provider is
// not configured), and the plan falls back on the written-list record:
// under ignore_changes = [exclude_ips], with another list configured, it
// announces a write-back and plans an update that the apply never makes
// (the same announcement TestAccWebsite_ignoredListUnknownAtPlanNoWriteBack
// refused for a list unknown at plan).
func TestAccWebsite_unknownProviderIgnoredNoWriteBack(t *testing.T) {
	acctest.NeedsEmulator(t, "stores a repeated exclude_ips line, as the web interface does")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("unknown-provider")
	w := acctest.NewWorkdir(t)
	ref, decl := env.APIKeyRef(env.Key)
	hcl := func(ips string, n int) string {
		return decl + fmt.Sprintf(`
resource "terraform_data" "url" {
  input            = %q
  triggers_replace = %d
}
provider "analytics" {
  base_url = terraform_data.url.output
  api_key  = %s
}
resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [%q]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, env.URL, n, ref, domain, ips)
	}
	w.Write("main.tf", hcl("1.2.3.4", 1))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	w.MustRun(0, "apply", "-refresh-only", "-auto-approve")
	w.Write("main.tf", hcl("9.9.9.9", 2))
	plan := w.MustRun(0, "plan", "-refresh=false", "-no-color")
	if flat := strings.Join(strings.Fields(plan), " "); strings.Contains(flat, "Writing exclude_ips Back") ||
		strings.Contains(flat, "analytics_website.test will be updated") {
		out := w.MustRun(0, "apply", "-refresh=false", "-auto-approve", "-no-color")
		stored, _ := env.WebsiteByDomain(domain)
		t.Errorf("exclude_ips is in ignore_changes, yet the plan updates the website to write the list back; the "+
			"apply then leaves it %q\nplan:\n%s\napply:\n%s", stored.ExcludeIPs, strings.TrimSpace(plan),
			strings.TrimSpace(out))
	}
}

// With -refresh=false the folded mark of the last refresh
// plans the write-back. The update's fresh read shows that the web
// interface has since set another list, without repeats: it leaves the
// list out and warns, but keeps the mark, so every later -refresh=false
// plan announces the same write-back and an update that does nothing,
// although the provider has read that the server holds no repeats.
func TestAccWebsite_refreshFalseWebChangeClearsFoldedMark(t *testing.T) {
	refreshFalseAfterWebChange(t, "stale-mark", "9.9.9.9")
}

// refreshFalseAfterWebChange: the read marks a repeated list (1.2.3.4
// twice), the web interface then stores later, and an apply with
// -refresh=false plans the write-back; its update's fresh read shows
// later. The server keeps later, and the next -refresh=false plan is
// empty: no write-back announced again.
func refreshFalseAfterWebChange(t *testing.T, name, later string) {
	t.Helper()
	acctest.NeedsEmulator(t, storesWebRepeat)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain(name)
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	w.MustRun(0, "apply", "-refresh-only", "-auto-approve")
	setStoredIPs(t, env, domain, later)
	first := w.MustRun(0, "apply", "-refresh=false", "-auto-approve", "-no-color")
	wantStoredIPs(t, env, domain, later, "after the apply whose read showed another list")
	plan, code := w.Run("plan", "-refresh=false", "-no-color", "-detailed-exitcode")
	if code != 0 || strings.Contains(plan, "Writing exclude_ips Back") {
		t.Errorf("the update read %q, yet the next -refresh=false plan (exit %d) writes the state's list back "+
			"again:\n%s\nfirst apply:\n%s", later, code, strings.TrimSpace(plan), strings.TrimSpace(first))
	}
}

// The notes are keyed by the domain as written, but under
// ignore_changes = all the plan is given the state's domain. With the
// domain edited in the configuration (ignored), no note has the plan's
// domain, and the plan falls back on the written-list record: the web
// interface repeated the list Terraform wrote, so every plan announces a
// write-back and an update that the apply never makes (the configuration
// as written sets another list).
func TestAccWebsite_ignoreAllOtherDomainNoPerpetualPlan(t *testing.T) {
	acctest.NeedsEmulator(t, "stores a repeated exclude_ips line, as the web interface does")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("ignore-all")
	w := acctest.NewWorkdir(t)
	hcl := func(domain, ips string) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [%q]
  lifecycle {
    ignore_changes = all
  }
}
`, domain, ips))
	}
	w.Write("main.tf", hcl(domain, "1.2.3.4"))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	w.Write("main.tf", hcl(env.Domain("ignore-all-renamed"), "9.9.9.9"))
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	wantStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4", "under ignore_changes = all")
	plan, code := w.Run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Errorf("under ignore_changes = all, the plan after an apply is not empty (exit %d):\n%s\nfirst apply:\n%s",
			code, strings.TrimSpace(plan), strings.TrimSpace(first))
	}
}

// The kept record (ipsKeptKey) is cleared only by an update
// that sends exclude_ips. Under ignore_changes = all with the domain edited
// (TestAccWebsite_ignoreAllOtherDomainNoPerpetualPlan), the apply records
// the state's list as kept. When the configuration then manages that very
// list again (lifecycle removed, domain as before), the plan equals the
// state, nothing clears the record, and the write-back the configuration
// asks for never comes: the repeats stay for good.
func TestAccWebsite_ignoreRemovedWritesBackKeptList(t *testing.T) {
	acctest.NeedsEmulator(t, "stores a repeated exclude_ips line, as the web interface does")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("kept-sticks")
	w := acctest.NewWorkdir(t)
	hcl := func(domain, ips, lifecycle string) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [%q]
  %s
}
`, domain, ips, lifecycle))
	}
	const ignoreAll = "lifecycle {\n    ignore_changes = all\n  }"
	w.Write("main.tf", hcl(domain, "1.2.3.4", ignoreAll))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4")
	w.Write("main.tf", hcl(env.Domain("kept-sticks-renamed"), "9.9.9.9", ignoreAll))
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	wantStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4", "under ignore_changes = all")
	// The configuration manages the list again, the very list the state
	// holds: the repeats must be written back once each.
	w.Write("main.tf", hcl(domain, "1.2.3.4", ""))
	second := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if stored, _ := env.WebsiteByDomain(domain); stored.ExcludeIPs != "1.2.3.4" {
		t.Errorf("the configuration manages exclude_ips again, yet the apply left the repeats %q (the kept record "+
			"of the earlier apply stops the write-back)\nfirst apply:\n%s\nsecond apply:\n%s", stored.ExcludeIPs,
			strings.TrimSpace(first), strings.TrimSpace(second))
	}
}

// The third tier (no note holds the rest of a plan's
// configuration) lets any note of the domain with the plan's list decide.
// b ignores email_reports and exclude_ips, and differs from a in privacy,
// which it does not ignore: Terraform hands b's plan a configuration that
// is not a's (privacy private), so this is not the documented limit of
// two resources handed the same configuration. The web interface changed
// b's email_reports and stored a's list in b with a repeat: b's plan finds
// a's note of that list and announces a write-back; the plan made again at
// apply validates b alone and plans none. Every plan shows the update.
func TestAccWebsite_twinOtherRestNoPerpetualWriteBack(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-rest")
	w, _, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(1, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain      = %[1]q
  privacy     = "public"
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain        = %[1]q
  privacy       = "private"
  email_reports = false
  exclude_ips   = ["2.2.2.2"]
  depends_on    = [analytics_website.a] # a's note is taken before b's plan
  lifecycle {
    ignore_changes = [email_reports, exclude_ips]
  }
}
`, domain))
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1"; x.Email = ptr(1) })
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	stored, _ := env.Website(id2)
	if stored.ExcludeIPs != "1.1.1.1\n1.1.1.1" {
		t.Errorf("b's exclude_ips is in ignore_changes, yet the apply wrote %q", stored.ExcludeIPs)
	}
	out, code := w.Run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Errorf("after an apply, the plan is not empty (exit code %d; b's server list %q):\nfirst apply:\n%s\nplan:\n%s",
			code, stored.ExcludeIPs, strings.TrimSpace(first), strings.TrimSpace(out))
	}
}

// 59cc923 makes the update's fresh read record the folded
// mark as it reads the list now, so that -refresh=false plans stop
// announcing a write-back of a list the server no longer holds. But the
// mark says whether the server holds the state's list with repeats: when
// the web interface has since stored another list, itself with a repeat,
// the mark stays set for a list the state does not hold, and every
// -refresh=false plan announces the same write-back, which every apply
// leaves out.
func TestAccWebsite_refreshFalseOtherRepeatedListNoPerpetualPlan(t *testing.T) {
	refreshFalseAfterWebChange(t, "stale-mark-rep", "9.9.9.9\n9.9.9.9")
}

// Resource a manages its list and ignores email_reports, which the
// web interface changed to what b configures; b, of the same domain,
// differs from a in email_reports and exclude_ips. Terraform hands a's
// plan b's configuration with a's list, so a note of b holds the rest of
// it with another list: the plan takes a's list as not written, and the
// repeats in a's list stay for good, although a's configuration sets it.
// The docs' limits name configurations that differ in exclude_ips alone,
// and a resource that ignores the list; neither is this.
// Since then a domain with two configurations noted plans no write-back,
// and the docs say the repeats of two resources of one domain may stay.
// What must hold: no plan announces what no apply makes.
func TestAccWebsite_twinRestOfOtherNoPerpetualPlan(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-blocked")
	w, id1, _ := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain        = %[1]q
  email_reports = false
  exclude_ips   = ["1.1.1.1"]
  depends_on    = [analytics_website.b] # b's note is taken before a's plan
  lifecycle {
    ignore_changes = [email_reports]
  }
}
resource "analytics_website" "b" {
  domain        = %[1]q
  email_reports = true
  exclude_ips   = ["2.2.2.2"]
}
`, domain))
	env.UpdateWebsite(id1, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1"; x.Email = ptr(1) })
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	// Two resources of one domain: the repeats may stay (the documented
	// limit), but no plan may announce what no apply makes.
	wantPlanEmpty(t, w, out)
}

// The docs say of two resources of one domain whose
// configurations differ in exclude_ips alone that neither list is written
// back. But a plan decides from the notes taken so far in the walk: a
// resource planned before its twin's configuration is validated finds
// only its own note and writes back. Here b depends on a, both lists are
// repeated on the server, and the apply writes a's back and leaves b's:
// two resources alike in all but order are treated unlike, and which is
// written back depends on the order Terraform plans them.
// Since then a domain with two configurations noted plans no write-back,
// and the docs say the repeats of two resources of one domain may stay.
// What must hold: no plan announces what no apply makes.
func TestAccWebsite_twinsInOrderNoPerpetualPlan(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and repeated exclude_ips lines")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-order")
	w, id1, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain      = %[1]q
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  exclude_ips = ["2.2.2.2"]
  depends_on  = [analytics_website.a] # only the order of the plans
}
`, domain))
	env.UpdateWebsite(id1, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1" })
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "2.2.2.2\n2.2.2.2" })
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	// Which of the two is written back depends on the order of the plans
	// (the documented limit: the repeats may stay); no plan may announce
	// what no apply makes.
	wantPlanEmpty(t, w, out)
}

// A list unknown at plan is noted as unknown, so that no
// write-back is announced under ignore_changes
// (TestAccWebsite_ignoredListUnknownAtPlanNoWriteBack). With
// a second resource of the domain whose configuration is b's rest with
// the list b's state holds, the unknown note is passed over and a's note
// matches b's plan exactly: the plan announces a write-back of b's list,
// which the plan made again at apply (b's list known, a not planned) does
// not make.
func TestAccWebsite_twinUnknownListNoWriteBack(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-unknown")
	ids, _ := seedSameDomain(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"))
	id1, id2 := ids[0], ids[1]
	w := acctest.NewWorkdir(t)
	hcl := func(bIPs, extra string) string {
		return env.ProviderBlock() + importPair(id1, id2) + fmt.Sprintf(`resource "analytics_website" "a" {
  domain      = %[1]q
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  exclude_ips = [%[2]s]
  depends_on  = [analytics_website.a] # a's note is taken before b's plan
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
%[3]s
`, domain, bIPs, extra)
	}
	w.Write("main.tf", hcl(`"2.2.2.2"`, ""))
	w.MustRun(0, "apply", "-auto-approve")
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1" })
	w.MustRun(0, "apply", "-refresh-only", "-auto-approve")
	// b's list now comes from a resource this plan creates: unknown.
	w.Write("main.tf", hcl("terraform_data.ip.output", `resource "terraform_data" "ip" {
  input = "2.2.2.2"
}`))
	plan := w.MustRun(0, "plan", "-no-color")
	if flat := strings.Join(strings.Fields(plan), " "); strings.Contains(flat, "analytics_website.b will be updated") {
		out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
		stored, _ := env.Website(id2)
		t.Errorf("b's exclude_ips is in ignore_changes, yet the plan updates it to write the list back; the apply "+
			"leaves it %q\nplan:\n%s\napply:\n%s", stored.ExcludeIPs, strings.TrimSpace(plan), strings.TrimSpace(out))
	}
}

// The kept record also comes from the documented limit of
// two resources that Terraform hands the same configuration, once the
// other resource changes in the same apply (the plan made again at apply
// then has its note): b's update records a's list as kept. When b later
// manages exclude_ips, with that very list, the record still stops the
// write-back, with no warning: the repeats stay for good.
// Since then a domain with two configurations noted plans no write-back,
// and the docs say the repeats of two resources of one domain may stay.
// What must hold: no plan announces what no apply makes.
func TestAccWebsite_twinKeptNoPerpetualPlan(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-kept")
	ids, _ := seedSameDomain(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(1, "2.2.2.2"))
	id1, id2 := ids[0], ids[1]
	w := acctest.NewWorkdir(t)
	hcl := func(aEmail bool, b string) string {
		return env.ProviderBlock() + importPair(id1, id2) + fmt.Sprintf(`resource "analytics_website" "a" {
  domain        = %[1]q
  privacy       = "public"
  email_reports = %[2]t
  exclude_ips   = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain     = %[1]q
  depends_on = [analytics_website.a] # a's note is taken before b's plan
  %[3]s
}
`, domain, aEmail, b)
	}
	const ignoring = `privacy     = "private"
  exclude_ips = ["2.2.2.2"]
  lifecycle {
    ignore_changes = [privacy, exclude_ips]
  }`
	w.Write("main.tf", hcl(false, ignoring))
	w.MustRun(0, "apply", "-auto-approve")
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1"; x.Privacy = ptr(0) })
	w.Write("main.tf", hcl(true, ignoring)) // a changes too: both are planned again at apply
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if stored, _ := env.Website(id2); stored.ExcludeIPs != "1.1.1.1\n1.1.1.1" {
		t.Fatalf("b ignores exclude_ips, yet the apply wrote %q", stored.ExcludeIPs)
	}
	// b manages exclude_ips now, with the list its state holds.
	w.Write("main.tf", hcl(true, `privacy     = "public"
  exclude_ips = ["1.1.1.1"]`))
	second := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	// With its twin beside it, b's repeats may stay (the documented limit);
	// no plan may announce what no apply makes.
	wantPlanEmpty(t, w, first+"\n"+second)
}

// wantPlanEmpty fails the test unless a plan now shows no change: after
// an apply, nothing is announced that no apply makes.
func wantPlanEmpty(t *testing.T, w *acctest.Workdir, applied string) {
	t.Helper()
	if out, code := w.Run("plan", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Errorf("after an apply, the plan is not empty (exit code %d):\n%s\napply:\n%s", code,
			strings.TrimSpace(out), strings.TrimSpace(applied))
	}
}

// The third tier needs no web-interface change but the
// list. b ignores skip_destroy (unset in its configuration) with
// exclude_ips: Terraform hands b's plan the state's skip_destroy (false),
// not null as validated, so no note holds the rest of b's plan, and a's
// note of the list b's state holds decides. Every plan shows b's update,
// which no apply makes.
func TestAccWebsite_twinIgnoredUnsetNoPerpetualWriteBack(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain and a repeated exclude_ips line")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("twin-unset")
	w, _, id2 := twinWorkdir(t, env, domain, storedSettings(0, "1.1.1.1"), storedSettings(0, "2.2.2.2"), fmt.Sprintf(`
resource "analytics_website" "a" {
  domain      = %[1]q
  exclude_ips = ["1.1.1.1"]
}
resource "analytics_website" "b" {
  domain      = %[1]q
  exclude_ips = ["2.2.2.2"]
  depends_on  = [analytics_website.a] # a's note is taken before b's plan
  lifecycle {
    ignore_changes = [skip_destroy, exclude_ips]
  }
}
`, domain))
	env.UpdateWebsite(id2, func(x *emulator.Website) { x.ExcludeIPs = "1.1.1.1\n1.1.1.1" })
	first := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	stored, _ := env.Website(id2)
	out, code := w.Run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Errorf("after an apply, the plan is not empty (exit code %d; b's server list %q):\nfirst apply:\n%s\nplan:\n%s",
			code, stored.ExcludeIPs, strings.TrimSpace(first), strings.TrimSpace(out))
	}
}

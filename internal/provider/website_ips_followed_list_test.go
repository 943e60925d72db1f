package provider

import (
	"fmt"
	"strings"
	"testing"
)

// The web interface changes exclude_ips to a
// list with a repeated line, and the user follows it: the configuration
// now sets the very list the read folds it into. The plan does not write
// it back (rewriteFoldedIPs: the state's list is not the one Terraform
// wrote last, so it was changed outside Terraform), and
// website_ips_folded.go says why that is fine: "the server excludes the
// same addresses, and the next update writes the list once each". The
// schema says the same ("stored twice there ... is read once and written
// back once by the next apply"). Since d7b6064 an update whose plan does
// not change exclude_ips leaves it out, so no update writes it: the repeat
// stays on the server for good, although the configuration manages
// exclude_ips. (On the tree before d7b6064 the update for exclude_bots
// sent the list once each.)
func TestAccWebsite_followedWebListRepeatWrittenBack(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "followed-web-list")
	// The web interface: another address, typed twice. The user takes the
	// web interface's list into the configuration, and changes another
	// setting: an update.
	id := webStoresIPs(t, env, w, domain, ipsBotsConfig(env, domain, "1.2.3.4", true), "5.6.7.8\n5.6.7.8",
		ipsBotsConfig(env, domain, "5.6.7.8", false))
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	if got := env.MustWebsite(t, domain); got.ExcludeBotsValue() {
		t.Fatalf("exclude_bots is still true: the update did not run:\n%s", out)
	}
	// And one more apply, as the schema promises "the next apply".
	out2 := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	stored, _ := env.Website(id)
	if stored.ExcludeIPs != "5.6.7.8" {
		t.Errorf("the server still holds exclude_ips %q after an update and another apply of a configuration that "+
			"manages exclude_ips = [\"5.6.7.8\"]; want the list written back once each (\"5.6.7.8\")\nupdate:\n%s\nnext "+
			"apply:\n%s", stored.ExcludeIPs, strings.TrimSpace(out), strings.TrimSpace(out2))
	}
	w.DestroyIfLive()
}

// The resource guide says of an
// exclude_ips entry stored twice in the web interface: "when the
// configuration sets exclude_ips, the next plan warns and the apply writes
// the list back once each", and the schema says "written back once by the
// next apply". When the configuration follows a list the web interface
// changed (and typed with a repeat), neither happens: the plan shows no
// change, and the repeat stays until some update for another reason
// (c3ba2e8's follow-up write-back). No apply of this configuration ever
// writes it back.
func TestAccWebsite_followedRepeatWrittenByNextApply(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, storesWebRepeat, "followed-repeat")
	hcl := func(ips string) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = [%q]
}
`, domain, ips))
	}
	id := webStoresIPs(t, env, w, domain, hcl("1.2.3.4"), "5.6.7.8\n5.6.7.8", hcl("5.6.7.8"))
	plan := w.MustRun(0, "plan", "-no-color")
	out := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	out2 := w.MustRun(0, "apply", "-auto-approve", "-no-color")
	stored, _ := env.Website(id)
	if stored.ExcludeIPs != "5.6.7.8" {
		t.Errorf("the server holds exclude_ips %q after two applies of a configuration that sets exclude_ips = "+
			"[\"5.6.7.8\"]; the guide promises that the next plan warns and the apply writes the list back once "+
			"each\nplan:\n%s\napply:\n%s\nnext apply:\n%s", stored.ExcludeIPs, strings.TrimSpace(plan),
			strings.TrimSpace(out), strings.TrimSpace(out2))
	}
	w.DestroyIfLive()
}

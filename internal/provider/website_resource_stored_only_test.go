package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// Websites whose stored domain is in Unicode or ends with a dot (made in
// the web interface: the server stores both as written) are adopted with
// their stored domain: imported by id, by domain, by identity (Terraform
// 1.12 and later) and from terraform query (1.14 and later), each plans no
// change after the import, sends no write, keeps its id, and warns that it
// records no browser pageview and what to do. A new website with such a
// domain is refused at plan time.
func TestAccWebsite_adoptStoredOnlyDomains(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read; resource identity: Terraform 1.12")
	acctest.NeedsEmulator(t, "seeds websites as the web interface stores them and counts the emulator's requests")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	byID := env.Seed(env.Key, emulator.Website{Domain: "bücher-adopt.example", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)}})
	byDomain := env.Seed(env.Key, emulator.Website{Domain: "shop-adopt.example.com.", Settings: wire.Settings{Privacy: ptr(1), Email: ptr(0), ExcludeBots: ptr(1)}})
	ids := map[string]int64{byID.Domain: byID.ID, byDomain.Domain: byDomain.ID}
	imports := fmt.Sprintf(`
import {
  to = analytics_website.by_id
  id = "%d"
}
resource "analytics_website" "by_id" {
  domain = %q
}
import {
  to = analytics_website.by_domain
  id = %q
}
resource "analytics_website" "by_domain" {
  domain  = %q
  privacy = "private"
}
`, byID.ID, byID.Domain, byDomain.Domain, byDomain.Domain)
	if acctest.CLIAtLeast(t, w.CLI, tfversion.Version1_12_0.String()) && !w.IsOpenTofu() {
		byIdentity := env.Seed(env.Key, emulator.Website{Domain: "münchen-adopt.example.", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)}})
		ids[byIdentity.Domain] = byIdentity.ID
		imports += fmt.Sprintf(`
import {
  to       = analytics_website.by_identity
  identity = { id = "%d" }
}
resource "analytics_website" "by_identity" {
  domain = %q
}
`, byIdentity.ID, byIdentity.Domain)
	}
	w.Write("main.tf", env.ProviderBlock()+imports)

	warned := planWarnings(w.PlanDiags(), "Website Records No Pageviews")
	for addr, domain := range map[string]string{"analytics_website.by_id": byID.Domain, "analytics_website.by_domain": byDomain.Domain} {
		d, ok := warned[addr]
		if !ok || !strings.Contains(d.Detail, domain) || !strings.Contains(d.Detail, "records no pageview from a browser") ||
			!strings.Contains(d.Detail, "analytics_website_statistics_export") {
			t.Errorf("%s: no warning that it records no pageview: %+v", addr, warned)
		}
	}
	if len(warned) != len(ids) {
		t.Errorf("%d warnings for %d websites: %+v", len(warned), len(ids), warned)
	}
	env.ResetStats()
	out := w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", len(ids))) {
		t.Errorf("the apply did more than import:\n%s", out)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	if n := env.Writes(); n != 0 {
		t.Errorf("adopting sent %d write requests: %v", n, env.Stats().ByRoute)
	}
	for domain, id := range ids {
		if got, ok := env.WebsiteByDomain(domain); !ok || got.ID != id {
			t.Errorf("%s: the website %d is gone or replaced: %+v", domain, id, got)
		}
	}

	// Naming the ASCII form instead replaces the website: the plan says so.
	ascii, _ := canonicalDomainOf(byID.Domain)
	w.Write("main.tf", env.ProviderBlock()+strings.Replace(imports, fmt.Sprintf("domain = %q", byID.Domain),
		fmt.Sprintf("domain = %q", ascii), 1))
	warned = planWarnings(w.PlanDiags(), "Replacing a Website for Its ASCII Domain")
	if d, ok := warned["analytics_website.by_id"]; !ok || !strings.Contains(d.Detail, `set domain = "bücher-adopt.example"`) {
		t.Errorf("no warning that the ASCII form replaces the website: %+v", warned)
	}
	w.Write("main.tf", env.ProviderBlock()+imports)

	// A new website with such a domain is refused, naming the ASCII form.
	w.Write("new.tf", `
resource "analytics_website" "new" {
  domain = "neu-bücher.example"
}
`)
	out, code := w.Run("plan")
	if code == 0 || !acctest.ExpectError(`Error: Domain Records No Pageviews.*This plan creates a website.*"neu-bücher.example" is in Unicode.*Set domain = "xn--neu-bcher-.*\.example"`).MatchString(out) {
		t.Errorf("a new Unicode website: exit code %d:\n%s", code, out)
	}
}

// TestAccWebsiteList_adoptStoredOnlyDomains: terraform query lists a
// website stored in Unicode, and the configuration it generates adopts it
// without a change, with the warning.
func TestAccWebsiteList_adoptStoredOnlyDomains(t *testing.T) {
	acctest.CLIDependent(t, "list resources and terraform query -generate-config-out: Terraform 1.14")
	acctest.NeedsEmulator(t, "seeds a website as the web interface stores it and counts the emulator's requests")
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	seeded := env.Seed(env.Key, emulator.Website{Domain: "tf-acc-bücher.example", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)}})
	w.Write("main.tf", env.ProviderBlock())
	w.Write("websites.tfquery.hcl", `
list "analytics_website" "all" {
  provider         = analytics
  include_resource = true
  config {
    search = "tf-acc-"
  }
}
`)
	w.MustRun(0, "query", "-generate-config-out=generated.tf")
	if gen := w.Read("generated.tf"); !strings.Contains(gen, `"tf-acc-bücher.example"`) {
		t.Fatalf("the generated configuration does not hold the stored domain:\n%s", gen)
	}
	if warned := planWarnings(w.PlanDiags(), "Website Records No Pageviews"); len(warned) != 1 {
		t.Errorf("want one warning, got %+v", warned)
	}
	env.ResetStats()
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "plan", "-detailed-exitcode")
	if n := env.Writes(); n != 0 {
		t.Errorf("adopting sent %d write requests: %v", n, env.Stats().ByRoute)
	}
	if got, ok := env.WebsiteByDomain(seeded.Domain); !ok || got.ID != seeded.ID {
		t.Errorf("the website is gone or replaced: %+v", got)
	}
}

// A plan that creates a new website in Unicode fails with "Domain Records
// No Pageviews". It must not also carry the adoption warning meant for an
// existing website ("A website's domain cannot change. ... export them
// first ...: deleting the website deletes them"): there is no website, no
// statistics and nothing to delete. Today the domain validator adds that
// warning (twice) to every configuration naming such a domain.
func TestAccWebsite_newUnicodeDomainHasNoAdoptionWarning(t *testing.T) {
	acctest.NeedsEmulator(t, "plans against an empty emulator")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "n" {
  domain = "neu-bücher.example"
}
`)
	out, code := w.Run("plan", "-no-color")
	if code == 0 || !strings.Contains(out, "Error: Domain Records No Pageviews") {
		t.Fatalf("exit code %d, no refusal:\n%s", code, out)
	}
	if strings.Contains(out, "Warning: Website Records No Pageviews") || strings.Contains(out, "deleting the website deletes them") {
		t.Errorf("a plan creating a website warns as if it existed:\n%s", out)
	}
}

// Defect 3, what the plan says: a website with a domain no new website may
// have (a trailing dot: imported), skip_destroy = false, planned with
// -replace. Refusing the replacement is right (the create could not have
// that domain), but the plan also says "Domain Already Held: Probably a
// Tainted Website" and tells the user to run terraform untaint: the
// website is not tainted (untaint fails), and it is this resource's own,
// in its state, not one held elsewhere.
func TestAccWebsite_storedOnlyReplaceNotCalledTainted(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a website with a domain the provider refuses for a new website")
	wantReplaceNotCalledTainted(t, acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan))))
}

// wantReplaceNotCalledTainted imports a website with a stored-only domain
// (a trailing dot) into env and plans its -replace: the plan must not call
// it a tainted website nor say to untaint it, which fails.
func wantReplaceNotCalledTainted(t *testing.T, env *acctest.Env) {
	t.Helper()
	w := acctest.NewWorkdir(t)
	domain := fmt.Sprintf("shop-%s.example.com.", strings.ToLower(strings.Split(env.Domain("x"), "-")[2]))
	s := env.Seed(env.Key, emulator.Website{Domain: domain})
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain = %q
}
import {
  to = analytics_website.test
  id = "%d"
}
`, domain, s.ID)))
	w.MustRun(0, "apply", "-auto-approve")
	out, code := w.Run("plan", "-no-color", "-replace="+websiteAddr)
	if strings.Contains(out, "Probably a Tainted Website") || strings.Contains(out, "terraform untaint") {
		t.Errorf("the plan of -replace (exit code %d) calls the website tainted and says to untaint it:\n%s", code, out)
	}
	if _, code := w.Run("untaint", websiteAddr); code == 0 {
		t.Errorf("terraform untaint succeeded on a website that was never tainted")
	}
}

// The second plan of a -replace was told from a tainted
// website's create by the owner the first plan remembered. On an older
// build without GET /account no owner is remembered, so -replace of a
// website with a stored-only domain (a trailing dot, imported) was called
// a tainted website, with the advice to run terraform untaint, which
// fails: the website was never tainted.
func TestAccWebsite_storedOnlyReplaceWithoutAccountNotCalledTainted(t *testing.T) {
	acctest.NeedsEmulator(t, "emulates a build without GET /account; seeds a website with a stored-only domain")
	wantReplaceNotCalledTainted(t, acctest.New(t, acctest.Emulator(emulator.Options{NoAccountEndpoint: true})))
}

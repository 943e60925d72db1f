package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// TestAccWebsite_generatedConfig adopts websites made in the web interface
// with import blocks and -generate-config-out, as a user would: the
// generated configuration validates, holds nothing that would overwrite
// what the API cannot return, plans no change once imported, and a change
// made in it loses nothing on the server.
func TestAccWebsite_generatedConfig(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read; -generate-config-out")
	acctest.NeedsEmulator(t, "seeds exclude_params and passwords as the web interface stores them and counts the emulator's requests")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	public := env.Seed(env.Key, emulator.Website{Domain: "gen-public.example.com", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(1), ExcludeBots: ptr(1), ExcludeParams: "utm_source\nfbclid", ExcludeIPs: "10.0.0.1\r\n10.0.0.2\r\n"}})
	env.Seed(env.Key, emulator.Website{Domain: "gen-secret.example.com", Settings: wire.Settings{Privacy: ptr(2), Password: "from-the-ui", Email: ptr(0), ExcludeBots: ptr(0), ExcludeParams: "&"}})
	w.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`
import {
  to = analytics_website.public
  id = "%d"
}
import {
  to = analytics_website.secret
  id = "gen-secret.example.com"
}
`, public.ID))

	env.ResetStats()
	w.MustRun(0, "plan", "-generate-config-out=generated.tf")
	gen := w.Read("generated.tf")
	if m := regexp.MustCompile(`(?m)^\s*exclude_params\s*=\s*[^n\s].*$`).FindString(gen); m != "" {
		t.Errorf("the generated configuration sets exclude_params, which the API never returns: %q\n%s", m, gen)
	}
	w.MustRun(0, "validate")
	w.MustRun(0, "apply", "-auto-approve")
	if n := env.Writes(); n != 0 {
		t.Errorf("adopting sent %d write requests: %v", n, env.Stats().ByRoute)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")

	// A change in the generated configuration loses nothing.
	changed := regexp.MustCompile(`(email_reports\s*=\s*)true`).ReplaceAllString(gen, "${1}false")
	changed = regexp.MustCompile(`(exclude_bots\s*=\s*)false`).ReplaceAllString(changed, "${1}true")
	if changed == gen {
		t.Fatalf("the generated configuration does not have the expected attributes:\n%s", gen)
	}
	w.Write("generated.tf", changed)
	w.MustRun(0, "apply", "-auto-approve")
	for domain, want := range map[string][2]string{
		"gen-public.example.com": {"utm_source\nfbclid", ""},
		"gen-secret.example.com": {"&", "from-the-ui"},
	} {
		got, _ := env.WebsiteByDomain(domain)
		if got.ExcludeParams != want[0] || got.Password != want[1] {
			t.Errorf("%s: exclude_params %q (want %q), password changed: %v", domain, got.ExcludeParams, want[0], got.Password != want[1])
		}
	}
	if got, _ := env.WebsiteByDomain("gen-public.example.com"); got.Email == nil || *got.Email != 0 {
		t.Errorf("the change was not applied: email = %v", got.Email)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
}

// TestAccWebsite_websiteLimitWarning: a plan that creates more websites than
// the user's plan allows (GET /account) warns at plan time; one that fits
// does not.
func TestAccWebsite_websiteLimitWarning(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows 3 websites")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey, WebsiteLimit: 3}}}))
	env.Seed(env.Key, emulator.Website{Domain: "existing.example.com"})
	plan := func(n int) string {
		w.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`
resource "analytics_website" "new" {
  count  = %d
  domain = "new-${count.index}.example.com"
}
`, n))
		return w.MustRun(0, "plan")
	}
	if out := plan(2); regexp.MustCompile(`Website Limit`).MatchString(out) {
		t.Errorf("2 new websites for a limit of 3 with 1 existing: unexpected warning:\n%s", out)
	}
	env.ResetStats()
	out := plan(3)
	if n := len(regexp.MustCompile(`Warning: Website Limit Would Be Exceeded`).FindAllString(out, -1)); n != 1 {
		t.Errorf("3 new websites for a limit of 3 with 1 existing: %d warnings, want 1 (the third):\n%s", n, out)
	}
	if !acctest.ExpectError(`the plan so far creates 3 websites .*holds 1 website, and the plan allows 3. Applied in full, it would make 4 websites`).MatchString(out) {
		t.Errorf("the warning does not give the limit, the count held and the count planned:\n%s", out)
	}
	if st := env.Stats(); st.ByRoute["GET /api/v1/account"] != 1 || st.ByRoute["GET /api/v1/websites"] != 1 || st.Total != 2 {
		t.Errorf("requests of the plan: %v, want one GET /account and one list request", st.ByRoute)
	}
}

// TestAccImport_byDomainFromSweep imports 120 websites by domain with a
// for_each import block: one list sweep resolves every domain (no request
// per website), the result is the websites themselves, and another user's
// domain in the same plan is still "not found", with the usual hint.
func TestAccImport_byDomainFromSweep(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read; its request count failed on OpenTofu once while it passed on Terraform")
	acctest.NeedsEmulator(t, "seeds 120 websites into the emulator's memory and counts its requests")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})))
	var domains []string
	for i := range 120 {
		d := fmt.Sprintf("by-domain-%03d.example.com", i)
		env.Seed(env.Key, emulator.Website{Domain: d, Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeParams: "keep"}})
		domains = append(domains, fmt.Sprintf("%q", d))
	}
	env.Seed(acctest.KeyOther, emulator.Website{Domain: "theirs.example.com"})
	config := func(domains []string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
locals {
  domains = toset([%s])
}
import {
  for_each = local.domains
  to       = analytics_website.site[each.key]
  id       = each.key
}
resource "analytics_website" "site" {
  for_each = local.domains
  domain   = each.key
}
`, strings.Join(domains, ", "))
	}

	w.Write("main.tf", config(append(domains[:3:3], `"theirs.example.com"`)))
	out, code := w.Run("plan")
	if code == 0 || !acctest.ExpectError(`Website Not Found.*No website with the domain "theirs.example.com" belongs to this API key's user`).MatchString(out) {
		t.Errorf("another user's domain: exit code %d:\n%s", code, out)
	}

	w.Write("main.tf", config(domains))
	env.ResetStats()
	out = w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, "120 imported, 0 added, 0 changed, 0 destroyed") {
		t.Fatalf("the apply did more than import:\n%s", out)
	}
	// The apply's plan: the account and the sweep's 2 pages, and no request
	// per website; applying imports reads and writes nothing. How many list
	// requests that takes depends on when Terraform's import calls arrive
	// (client.BulkReader): usually 2, 3 when the first lookup's page 1 lands
	// before a second lookup arrives (that lookup then searches its domain),
	// 2 more for each pause of over a TTL between two lookups. So the test
	// asserts what no timing changes: no read of a website by id, and far
	// fewer requests than websites (a tenth).
	s := env.Stats()
	t.Logf("adopting 120 websites by domain: %d requests: %v", s.Total, s.ByRoute)
	if s.ByRoute["GET /api/v1/websites/{id}"] != 0 || s.Total > 12 || env.Writes() != 0 {
		t.Errorf("adopting 120 websites by domain cost %d requests, %d of them writes (want no read by id and at most "+
			"12 in all): %v", s.Total, env.Writes(), s.ByRoute)
	}
	state := w.Read("terraform.tfstate")
	for _, ws := range env.Websites() {
		if ws.Domain != "theirs.example.com" && !strings.Contains(state, fmt.Sprintf(`"id": "%d"`, ws.ID)) {
			t.Errorf("website %d (%s) is not in the state", ws.ID, ws.Domain)
		}
		if ws.Domain != "theirs.example.com" && ws.ExcludeParams != "keep" {
			t.Errorf("website %d lost its exclude_params: %q", ws.ID, ws.ExcludeParams)
		}
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
}

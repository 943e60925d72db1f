package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// List resources and `terraform query` need Terraform 1.14 or later; on
// older Terraform and on OpenTofu these tests skip, by design.

// queryWebsites are the websites the query steps list, made by the first
// step.
const queryWebsites = `
resource "analytics_website" "shop" {
  domain         = "tf-acc-query-shop.example.com"
  privacy        = "private"
  exclude_params = ["utm_source"]
  exclude_ips    = ["10.0.0.1"]
}
resource "analytics_website" "blog" {
  domain        = "tf-acc-query-blog.example.com"
  privacy       = "password"
  password      = "tf-acc-secret"
  email_reports = true
}
resource "analytics_website" "docs" {
  domain       = "tf-acc-query-docs.example.com"
  exclude_bots = false
}
`

// queryList is a list block over the websites of queryWebsites.
func queryList(name, attrs, config string) string {
	return fmt.Sprintf(`
list "analytics_website" %q {
  provider = analytics
  %s
  config {
    search = "tf-acc-query-"
    %s
  }
}
`, name, attrs, config)
}

// byDomain selects the query result of one website.
func byDomain(domain string) queryfilter.QueryFilter {
	return queryfilter.ByDisplayName(knownvalue.StringExact(domain))
}

// TestAccWebsiteList_query lists websites with terraform query: every
// matching website once, with its id as identity and its domain as display
// name; with include_resource, the resource as an import reads it, without
// the values the API never returns; the filters and the limit apply.
func TestAccWebsiteList_query(t *testing.T) {
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: env.Config(queryWebsites)},
			{
				Query: true,
				Config: queryList("all", "include_resource = true", "") +
					queryList("private", "", `privacy = "private"`) +
					queryList("first", "limit = 1", `sort_by = "domain"
    sort = "asc"`) +
					queryList("none", "", `privacy = "public"
    favorite = true`),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("analytics_website.all", 3),
					querycheck.ExpectIdentity("analytics_website.all", map[string]knownvalue.Check{
						"id": knownvalue.StringRegexp(regexp.MustCompile(`^[1-9][0-9]*$`)),
					}),
					querycheck.ExpectResourceDisplayName("analytics_website.all", byDomain("tf-acc-query-shop.example.com"),
						knownvalue.StringExact("tf-acc-query-shop.example.com")),
					querycheck.ExpectResourceKnownValues("analytics_website.all", byDomain("tf-acc-query-shop.example.com"),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("domain"), KnownValue: knownvalue.StringExact("tf-acc-query-shop.example.com")},
							{Path: tfjsonpath.New("privacy"), KnownValue: knownvalue.StringExact("private")},
							{Path: tfjsonpath.New("exclude_ips"), KnownValue: knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("10.0.0.1")})},
							// Set on the server, but the API never returns it.
							{Path: tfjsonpath.New("exclude_params"), KnownValue: knownvalue.Null()},
							{Path: tfjsonpath.New("id"), KnownValue: knownvalue.NotNull()},
							{Path: tfjsonpath.New("tracking_code"), KnownValue: knownvalue.StringExact(wantTrackingCode(env.URL, false))},
						}),
					querycheck.ExpectResourceKnownValues("analytics_website.all", byDomain("tf-acc-query-blog.example.com"),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("privacy"), KnownValue: knownvalue.StringExact("password")},
							{Path: tfjsonpath.New("password"), KnownValue: knownvalue.Null()},
							{Path: tfjsonpath.New("password_wo_version"), KnownValue: knownvalue.Null()},
							{Path: tfjsonpath.New("email_reports"), KnownValue: knownvalue.Bool(true)},
						}),
					querycheck.ExpectResourceKnownValues("analytics_website.all", byDomain("tf-acc-query-docs.example.com"),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("exclude_bots"), KnownValue: knownvalue.Bool(false)},
							{Path: tfjsonpath.New("exclude_ips"), KnownValue: knownvalue.SetSizeExact(0)},
						}),
					querycheck.ExpectLength("analytics_website.private", 1),
					querycheck.ExpectResourceDisplayName("analytics_website.private", byDomain("tf-acc-query-shop.example.com"),
						knownvalue.StringExact("tf-acc-query-shop.example.com")),
					querycheck.ExpectLength("analytics_website.first", 1),
					querycheck.ExpectResourceDisplayName("analytics_website.first", byDomain("tf-acc-query-blog.example.com"),
						knownvalue.StringExact("tf-acc-query-blog.example.com")),
					querycheck.ExpectLength("analytics_website.none", 0),
				},
			},
			{ // a wrong base_url is an error, not an empty list
				Query: true,
				Config: fmt.Sprintf(`
provider "analytics" {
  alias    = "wrong"
  base_url = %q
  api_key  = %q
}
list "analytics_website" "wrong" {
  provider = analytics.wrong
  config {}
}
`, env.URL+"/analytics", env.Key),
				ExpectError: acctest.ExpectError(`Unexpected Answer at base_url.*Could not list the websites.*/analytics/api/v1`),
			},
		},
	})
}

// TestAccGuide_adoptQuery runs the adoption guide's recipe for Terraform
// 1.14 and later on an account of 150 websites made outside Terraform:
// terraform query -generate-config-out costs one request per 100 websites
// and writes import blocks by identity and resource blocks that validate,
// hold nothing the API never returns, import with no write and plan no
// change; a first change to them keeps what the server holds and the API
// never returns (exclude_params, the password); the imports remember the
// owner.
func TestAccGuide_adoptQuery(t *testing.T) {
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	env := acctest.New(t, acctest.Emulator(guideUsers))
	seeded := seedAccount(env, 150)
	w.Write("main.tf", env.ProviderBlock())
	w.Write("websites.tfquery.hcl", guideFile(t, "adopt-query", "websites.tfquery.hcl"))
	w.MustRun(0, "validate", "-query")

	// The guide's commands, in order.
	out := w.MustRun(0, "query")
	if n := strings.Count(out, "list.analytics_website.site "); n != 150 || !strings.Contains(out, "adopt-149.example.com") {
		t.Errorf("the query listed %d websites, want 150:\n%s", n, out)
	}
	env.ResetStats()
	out = w.MustRun(0, "query", "-generate-config-out=generated.tf")
	if n := strings.Count(out, "list.analytics_website.site "); n != 150 {
		t.Errorf("the query listed %d websites, want 150:\n%s", n, out)
	}
	t.Logf("query of 150 websites: %v", env.Stats().ByRoute)
	if s := env.Stats(); s.Total != 2 {
		t.Errorf("the query of 150 websites cost %d requests, want 2 (list pages): %v", s.Total, s.ByRoute)
	}
	gen := w.Read("generated.tf")
	if n := regexp.MustCompile(`(?m)^import \{\n\s+to\s+= analytics_website\.site_\d+\n(?:.*\n)*?\s+identity = \{`).
		FindAllStringIndex(gen, -1); len(n) != 150 {
		t.Errorf("%d import blocks by identity, want 150:\n%.2000s", len(n), gen)
	}
	if m := regexp.MustCompile(`(?m)^\s*(exclude_params|password|password_wo|password_wo_version)\s*=\s*[^n\s].*$`).FindString(gen); m != "" {
		t.Errorf("the generated configuration sets a value the API never returns: %q", m)
	}
	if strings.Contains(gen, "someone-else") {
		t.Error("another user's website was listed")
	}
	w.MustRun(0, "validate")
	// Renamed before the first apply, as the guide allows: the resource
	// block and the import block's to.
	renamed := strings.NewReplacer(`resource "analytics_website" "site_0" {`, `resource "analytics_website" "oldest" {`,
		"to       = analytics_website.site_0\n", "to       = analytics_website.oldest\n").Replace(gen)
	if renamed == gen {
		t.Fatalf("no analytics_website.site_0 to rename:\n%.1000s", gen)
	}
	gen = renamed
	w.Write("generated.tf", gen)
	out = w.MustRun(0, "plan")
	if !strings.Contains(out, "Plan: 150 to import, 0 to add, 0 to change, 0 to destroy") ||
		!strings.Contains(out, "analytics_website.oldest: Preparing import") {
		t.Fatalf("the plan does more than import:\n%s", out)
	}

	env.ResetStats()
	out = w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, "150 imported, 0 added, 0 changed, 0 destroyed") {
		t.Fatalf("the apply did more than import:\n%s", out)
	}
	// The account, a probe and the sweep's 2 pages: no request per website.
	t.Logf("apply of 150 imports: %v", env.Stats().ByRoute)
	if s := env.Stats(); env.Writes() != 0 || s.Total > 4 {
		t.Errorf("the apply cost %d requests (%d writes), want at most 4 and no write: %v", s.Total, env.Writes(), s.ByRoute)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	checkUnchanged(t, env, seeded)

	// A first change to the generated configuration: e-mail reports on for
	// every website. Only that changes on the server.
	changed := regexp.MustCompile(`(email_reports\s*=\s*)false`).ReplaceAllString(gen, "${1}true")
	w.Write("generated.tf", changed)
	out = w.MustRun(0, "apply", "-auto-approve")
	if !regexp.MustCompile(`0 added, \d+ changed, 0 destroyed`).MatchString(out) || changed == gen {
		t.Fatalf("the change was not applied:\n%s", out)
	}
	checkKept(t, env, seeded)
	for _, ws := range env.Websites() {
		if ws.Owner == env.Key && (ws.Email == nil || *ws.Email != 1) {
			t.Errorf("website %d (%s): e-mail reports %v after the change", ws.ID, ws.Domain, ws.Email)
		}
	}
	w.MustRun(0, "plan", "-detailed-exitcode")

	// List results carry no private state; the import that follows
	// remembered the owner: with another user's key, the plan fails naming
	// both users and drops nothing.
	w.Write("main.tf", env.ProviderBlockAt(env.URL, guideOtherKey))
	out, code := w.Run("plan")
	if code == 0 || !acctest.ExpectError(`Website Belongs to Another User.*created or imported by user #1`).MatchString(out) {
		t.Errorf("another user's key: exit code %d:\n%.3000s", code, out)
	}
	checkKept(t, env, seeded)
}

// checkKept fails unless every website still holds the exclude_params and
// the password it was seeded with (which the API never returns) and the
// same excluded IPs (an update rewrites the list one per line).
func checkKept(t *testing.T, env *acctest.Env, seeded []emulator.Website) {
	t.Helper()
	ips := func(s string) string {
		f := strings.FieldsFunc(s, func(r rune) bool { return r == '\r' || r == '\n' })
		slices.Sort(f)
		return strings.Join(f, ",")
	}
	for _, w := range seeded {
		got, ok := env.Website(w.ID)
		switch {
		case !ok:
			t.Errorf("website %d (%s) is gone", w.ID, w.Domain)
		case got.ExcludeParams != w.ExcludeParams || got.Password != w.Password || ips(got.ExcludeIPs) != ips(w.ExcludeIPs):
			t.Errorf("website %d (%s) lost data: exclude_params %q (was %q), exclude_ips %q (was %q), password changed: %v",
				w.ID, w.Domain, got.ExcludeParams, w.ExcludeParams, got.ExcludeIPs, w.ExcludeIPs, got.Password != w.Password)
		}
	}
}

// TestAccWebsiteList_limitCLI: the list block's limit bounds what terraform
// query lists and the pages it reads; an empty list warns, naming whose
// websites were listed; a server in maintenance is an error.
func TestAccWebsiteList_limitCLI(t *testing.T) {
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	for i := range 250 {
		env.Seed(env.Key, emulator.Website{Domain: fmt.Sprintf("tf-acc-limit-%03d.example.com", i)})
	}
	w.Write("main.tf", env.ProviderBlock())
	for _, c := range []struct {
		limit, search string
		want, reqs    int
	}{
		{"", "tf-acc-limit-", 100, 1}, // Terraform's default limit
		{"limit = 150", "tf-acc-limit-", 150, 2},
		{"limit = 1000", "tf-acc-limit-", 250, 3},
		{"limit = 1000", "tf-acc-limit-none", 0, 2}, // the list page and GET /account
	} {
		w.Write("websites.tfquery.hcl", fmt.Sprintf(`
list "analytics_website" "limited" {
  provider = analytics
  %s
  config {
    search = %q
  }
}
`, c.limit, c.search))
		env.ResetStats()
		out := w.MustRun(0, "query")
		if n := strings.Count(out, "list.analytics_website.limited "); n != c.want {
			t.Errorf("%q: %d results, want %d", c.limit, n, c.want)
		}
		if s := env.Stats(); s.Total != c.reqs {
			t.Errorf("%q: %d requests, want %d: %v", c.limit, s.Total, c.reqs, s.ByRoute)
		}
		if c.want == 0 && !acctest.ExpectError(`Warning: No Websites Found.*user #1 \(User 1, user1@example.test\) has no website that matches`).MatchString(out) {
			t.Errorf("an empty list does not say whose websites were listed:\n%s", out)
		}
	}

	// A server in maintenance: an error, not an empty list.
	env.SetMaintenance(true)
	w.Write("main.tf", fmt.Sprintf("provider \"analytics\" {\n  base_url    = %q\n  api_key     = %q\n  max_retries = 0\n}\n", env.URL, env.Key))
	out, code := w.Run("query")
	if code == 0 || strings.Contains(out, "list.analytics_website.limited ") ||
		!acctest.ExpectError(`Error: Analytics Server Unavailable.*Could not list the websites.*HTTP 503.*maintenance mode`).MatchString(out) {
		t.Errorf("maintenance: exit code %d:\n%s", code, out)
	}
}

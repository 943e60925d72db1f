package provider

import (
	"fmt"
	"regexp"
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
	acctest.CLIDependent(t, "list resources and terraform query: Terraform 1.14; OpenTofu has none")
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

// TestAccWebsiteList_limitCLI: the list block's limit bounds what terraform
// query lists and the pages it reads; an empty list warns, naming whose
// websites were listed; a server in maintenance is an error.
func TestAccWebsiteList_limitCLI(t *testing.T) {
	acctest.CLIDependent(t, "list resources and terraform query: Terraform 1.14; OpenTofu has none")
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
		// Page 1 of a search comes at once; beyond it, every page of
		// the search is read twice (a rename may have shifted one).
		{"", "tf-acc-limit-", 100, 1}, // Terraform's default limit
		{"limit = 150", "tf-acc-limit-", 150, 6},
		{"limit = 1000", "tf-acc-limit-", 250, 6},
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

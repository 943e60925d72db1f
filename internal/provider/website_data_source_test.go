package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// seed250 gives the default user 250 websites site-000 .. site-249, a
// decoy whose domain contains site-042's, and another user's websites.
func seed250(env *acctest.Env) map[string]int64 {
	ids := map[string]int64{}
	for i := range 250 {
		d := fmt.Sprintf("site-%03d.example.com", i)
		w := emulator.Website{Domain: d, Settings: wire.Settings{Privacy: ptr(i % 3), Email: ptr(i % 2), ExcludeBots: ptr(1)}}
		if i%3 == 2 {
			w.Password = "pw"
		}
		if i == 7 {
			w.ExcludeIPs = "192.0.2.1\r\n2001:db8::/32"
		}
		ids[d] = env.Seed(env.Key, w).ID
	}
	ids["decoy"] = env.Seed(env.Key, emulator.Website{Domain: "a-site-042.example.com"}).ID
	env.AddUser(emulator.User{Key: "other-user-key"})
	env.Seed("other-user-key", emulator.Website{Domain: "site-other.example.com"})
	return ids
}

func TestAccWebsiteDataSources(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds 250 websites (about 500 requests, over 8 minutes of a 60 requests/minute throttle) and expects the exact list of the user's websites, which on an installation holds the user's own")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	ids := seed250(env)
	id7 := strconv.FormatInt(ids["site-007.example.com"], 10)

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: env.Config(fmt.Sprintf(`
data "analytics_website" "by_id" {
  id = %q
}

data "analytics_website" "by_domain" {
  domain = "site-042.example.com"
}

data "analytics_websites" "all" {
  sort_by = "domain"
  sort    = "asc"
}

data "analytics_websites" "search" {
  search  = "SITE-1"
  sort_by = "domain"
  sort    = "desc"
}

data "analytics_websites" "newest_first" {}
`, id7)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("domain"), knownvalue.StringExact("site-007.example.com")),
					statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("privacy"), knownvalue.StringExact("private")),
					statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("email_reports"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("exclude_ips"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("192.0.2.1"), knownvalue.StringExact("2001:db8::/32"),
					})),
					statecheck.ExpectKnownValue("data.analytics_website.by_domain", tfjsonpath.New("id"),
						knownvalue.StringExact(strconv.FormatInt(ids["site-042.example.com"], 10))),
					statecheck.ExpectKnownValue("data.analytics_website.by_domain", tfjsonpath.New("privacy"), knownvalue.StringExact("public")),
					statecheck.ExpectKnownValue("data.analytics_website.by_domain", tfjsonpath.New("password_set"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("data.analytics_websites.all", tfjsonpath.New("websites"), knownvalue.ListSizeExact(251)),
					statecheck.ExpectKnownValue("data.analytics_websites.all", tfjsonpath.New("websites").AtSliceIndex(0).AtMapKey("domain"),
						knownvalue.StringExact("a-site-042.example.com")),
					statecheck.ExpectKnownValue("data.analytics_websites.all", tfjsonpath.New("websites").AtSliceIndex(250).AtMapKey("domain"),
						knownvalue.StringExact("site-249.example.com")),
					statecheck.ExpectKnownValue("data.analytics_websites.all", tfjsonpath.New("websites").AtSliceIndex(3).AtMapKey("password_set"),
						knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.analytics_websites.search", tfjsonpath.New("websites"), knownvalue.ListSizeExact(100)),
					statecheck.ExpectKnownValue("data.analytics_websites.search", tfjsonpath.New("websites").AtSliceIndex(0).AtMapKey("domain"),
						knownvalue.StringExact("site-199.example.com")),
					statecheck.ExpectKnownValue("data.analytics_websites.search", tfjsonpath.New("websites").AtSliceIndex(99).AtMapKey("domain"),
						knownvalue.StringExact("site-100.example.com")),
					statecheck.ExpectKnownValue("data.analytics_websites.newest_first", tfjsonpath.New("websites").AtSliceIndex(0).AtMapKey("domain"),
						knownvalue.StringExact("a-site-042.example.com")),
				},
			},
			{
				Config:      env.Config(`data "analytics_website" "x" { domain = "missing.example.com" }`),
				ExpectError: acctest.ExpectError(`Website Not Found.*No website with the exact domain\s+"missing.example.com"`),
			},
			{ // another user's website is not visible
				Config:      env.Config(`data "analytics_website" "x" { domain = "site-other.example.com" }`),
				ExpectError: acctest.ExpectError(`Website Not Found`),
			},
			{
				Config:      env.Config(`data "analytics_website" "x" { id = "99999" }`),
				ExpectError: acctest.ExpectError(`Website Not Found.*No website with id 99999`),
			},
			{
				Config:      env.Config(`data "analytics_website" "x" {}`),
				ExpectError: acctest.ExpectError(`Invalid Attribute Combination.*id.*domain`),
			},
			{
				Config:      env.Config(`data "analytics_websites" "x" { sort_by = "name" }`),
				ExpectError: acctest.ExpectError(`sort_by.*value must be one of`),
			},
			{ // a valid last step, so that the post-test destroy can run
				Config: env.Config(`data "analytics_websites" "x" { search = "site-00" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.analytics_websites.x", tfjsonpath.New("websites"), knownvalue.ListSizeExact(10)),
				},
			},
		},
	})
}

// The data sources on any installation, with a few websites of the test's
// own: by id, by exact domain (not the website whose domain contains it), a
// case-insensitive search sorted both ways, a missing domain and another
// user's website.
func TestAccWebsiteDataSources_fewWebsites(t *testing.T) {
	env := acctest.New(t)
	a := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Domain("ds-a"), Privacy: client.PrivacyPrivate, Email: true,
		ExcludeBots: true, ExcludeIPs: []string{"192.0.2.1\r", "2001:db8::/32"}})
	env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Domain("ds-b"), Privacy: client.PrivacyPassword, Password: ptr("pw-ds-b"), ExcludeBots: true})
	decoy := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Run() + "-x" + a.Domain, ExcludeBots: true})
	last := resource.TestStep{ // a valid last step, so that the post-test destroy can run
		Config: env.Config(fmt.Sprintf(`data "analytics_websites" "x" { search = %q }`, env.Run())),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.analytics_websites.x", tfjsonpath.New("websites"), knownvalue.ListSizeExact(3)),
		},
	}
	steps := []resource.TestStep{
		{
			Config: env.Config(fmt.Sprintf(`
data "analytics_website" "by_id" {
  id = "%d"
}

data "analytics_website" "by_domain" {
  domain = %q
}

data "analytics_websites" "asc" {
  search  = %q
  sort_by = "domain"
  sort    = "asc"
}

data "analytics_websites" "desc" {
  search  = %q
  sort_by = "domain"
  sort    = "desc"
}
`, a.ID, a.Domain, strings.ToUpper(env.Run()), env.Run())),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("domain"), knownvalue.StringExact(a.Domain)),
				statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("privacy"), knownvalue.StringExact("private")),
				statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("email_reports"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.analytics_website.by_id", tfjsonpath.New("exclude_ips"), knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact("192.0.2.1"), knownvalue.StringExact("2001:db8::/32"),
				})),
				statecheck.ExpectKnownValue("data.analytics_website.by_domain", tfjsonpath.New("id"), knownvalue.StringExact(strconv.FormatInt(a.ID, 10))),
				statecheck.ExpectKnownValue("data.analytics_website.by_domain", tfjsonpath.New("password_set"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.analytics_websites.asc", tfjsonpath.New("websites"), knownvalue.ListSizeExact(3)),
				statecheck.ExpectKnownValue("data.analytics_websites.asc", tfjsonpath.New("websites").AtSliceIndex(0).AtMapKey("domain"),
					knownvalue.StringExact(a.Domain)),
				statecheck.ExpectKnownValue("data.analytics_websites.asc", tfjsonpath.New("websites").AtSliceIndex(1).AtMapKey("password_set"),
					knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.analytics_websites.desc", tfjsonpath.New("websites").AtSliceIndex(0).AtMapKey("domain"),
					knownvalue.StringExact(decoy.Domain)),
			},
		},
		{
			Config:      env.Config(fmt.Sprintf(`data "analytics_website" "x" { domain = %q }`, env.Domain("missing"))),
			ExpectError: acctest.ExpectError(`Website Not Found.*No website with the exact domain\s+"` + regexp.QuoteMeta(env.Domain("missing")) + `"`),
		},
	}
	if env.Key2 != "" { // another user's website is not visible
		other := env.SeedViaAPI(t, env.Key2, client.WebsiteInput{Domain: env.Domain("ds-other"), ExcludeBots: true})
		steps = append(steps, resource.TestStep{
			Config:      env.Config(fmt.Sprintf(`data "analytics_website" "x" { domain = %q }`, other.Domain)),
			ExpectError: acctest.ExpectError(`Website Not Found`),
		})
		// and the last step's search, 3 websites, shows none of the other user's
	}
	env.Test(t, append(steps, last)...)
}

// The data sources follow the same rule: an answer that is not the API's is
// an error naming base_url, not "not found" (nor an empty list).
func TestAccDataSources_wrongBaseURL(t *testing.T) {
	env := acctest.New(t)
	w := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Domain("ds"), ExcludeBots: true})
	wrong := env.ProviderBlockAt(env.URL+"/analytics", env.Key)
	want := acctest.ExpectError(`Unexpected Answer at base_url.*could not be found`)
	env.Test(t,
		resource.TestStep{Config: wrong + fmt.Sprintf(`data "analytics_website" "by_id" { id = "%d" }`, w.ID), ExpectError: want},
		resource.TestStep{Config: wrong + fmt.Sprintf(`data "analytics_website" "by_domain" { domain = %q }`, w.Domain), ExpectError: want},
		resource.TestStep{Config: wrong + `data "analytics_websites" "all" {}`, ExpectError: want},
	)
}

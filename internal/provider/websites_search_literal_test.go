package provider

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsites_searchIsLiteralSubstring: analytics_websites lists,
// for `search`, the websites whose domain contains the text in any case.
// The application's search is a LIKE pattern (`_` any one character, `%`
// any run) applied only when PHP reads the value as true, after trimming:
// unfiltered, `a_b` also lists `axb`, and "0" and " " list every website,
// which a configuration feeding imports or for_each would adopt.
func TestAccWebsites_searchIsLiteralSubstring(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds websites whose domains differ in one character")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	tag := env.Domain("lit")
	// The emulator is this test's own: a domain without the random label
	// (which may hold a "0") makes the "0" case fail whatever it drew.
	for _, d := range []string{"a_b." + tag, "axb." + tag, "plain." + tag, "nodigit.example.net"} {
		env.Seed(env.Key, emulator.Website{Domain: d})
	}
	searches := map[string]string{"underscore": "a_b." + tag, "zero": "0", "blank": " "}
	var hcl strings.Builder
	for name, s := range searches {
		fmt.Fprintf(&hcl, "data \"analytics_websites\" %q {\n  search = %q\n}\n", name, s)
	}
	literal := func(s *terraform.State) error {
		var bad []string
		for name, search := range searches {
			rs := s.RootModule().Resources["data.analytics_websites."+name]
			if rs == nil {
				return fmt.Errorf("no data.analytics_websites.%s in the state", name)
			}
			n, _ := strconv.Atoi(rs.Primary.Attributes["websites.#"])
			for i := range n {
				d := rs.Primary.Attributes[fmt.Sprintf("websites.%d.domain", i)]
				if !strings.Contains(strings.ToLower(d), strings.ToLower(search)) {
					bad = append(bad, fmt.Sprintf("search %q listed %q", search, d))
				}
			}
		}
		if len(bad) > 0 {
			return fmt.Errorf("websites whose domain does not contain the search text: %s", strings.Join(bad, "; "))
		}
		return nil
	}
	env.TestCase(t, resource.TestCase{
		Steps: []resource.TestStep{{Config: env.Config(hcl.String()), Check: literal}},
		// The seeded websites are no resource's: nothing to destroy.
		CheckDestroy: func(*terraform.State) error { return nil },
	})
}

// TestAccWebsiteList_querySearchIsLiteralSubstring: the same for
// terraform query (Terraform 1.14 and later).
func TestAccWebsiteList_querySearchIsLiteralSubstring(t *testing.T) {
	acctest.CLIDependent(t, "list resources and terraform query: Terraform 1.14; OpenTofu has none")
	acctest.NeedsEmulator(t, "seeds websites whose domains differ in one character")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	tag := env.Domain("litq")
	for _, d := range []string{"a_b." + tag, "axb." + tag} {
		env.Seed(env.Key, emulator.Website{Domain: d})
	}
	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		CheckDestroy:           func(*terraform.State) error { return nil },
		Steps: []resource.TestStep{
			{Config: env.Config("")},
			{
				Query: true,
				Config: fmt.Sprintf(`
list "analytics_website" "lit" {
  provider = analytics
  config {
    search = %q
  }
}
`, "a_b."+tag),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("analytics_website.lit", 1),
				},
			},
		},
	})
}

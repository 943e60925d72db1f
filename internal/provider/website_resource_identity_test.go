package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Resource identity (Terraform 1.12 and OpenTofu 1.12 and later): the
// identity is the website's id, set after create, refresh and update (older
// clients send no prior identity), and import by identity plans clean.
func TestAccWebsite_identity(t *testing.T) {
	acctest.CLIDependent(t, "resource identity: Terraform 1.12")
	env := acctest.New(t)
	idIs := regexp.MustCompile(`^[1-9][0-9]*$`)
	// The import steps plan in a working directory of their own, where the
	// provider's source must be named.
	cfg := func(extra string) string {
		return env.Config(requiredProviders, websiteHCL(fmt.Sprintf("domain = %q\n", env.Domain("identity"))+extra))
	}
	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{
				Config: cfg(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(websiteAddr, map[string]knownvalue.Check{"id": knownvalue.StringRegexp(idIs)}),
					statecheck.ExpectIdentityValueMatchesState(websiteAddr, tfjsonpath.New("id")),
				},
			},
			{
				Config: cfg("email_reports = true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentityValueMatchesState(websiteAddr, tfjsonpath.New("id")),
				},
			},
			{ // import { to = ..., identity = { id = "N" } }
				Config:          cfg("email_reports = true"),
				ResourceName:    websiteAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{ // and by id, with an import block
				Config:          cfg("email_reports = true"),
				ResourceName:    websiteAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// An identity that is not a website id is refused, naming the form, without
// repeating the value.
func TestAccWebsite_identityImportInvalid(t *testing.T) {
	acctest.CLIDependent(t, "resource identity: Terraform 1.12")
	env := acctest.New(t)
	domain := env.Domain("identity-invalid")
	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
import {
  to       = analytics_website.test
  identity = { id = %q }
}
`, domain), websiteHCL(fmt.Sprintf("domain = %q", domain))),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`Invalid Import Identity.*numeric id, a positive whole number.*e.g. "12".*not repeated here`),
		}},
	})
}

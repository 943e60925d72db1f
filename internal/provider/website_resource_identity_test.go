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
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
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

// TestAccWebsite_identityReadFailsNoWrite: the identity check's read fails
// (503, no retries): a destroy and an update with -refresh=false fail
// without writing, and the state keeps the website.
func TestAccWebsite_identityReadFailsNoWrite(t *testing.T) {
	acctest.NeedsEmulator(t, "fails the identity check's read")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("idfail")
	cfg := func(extra string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain = %q
  %s
}
`, domain, extra)
	}
	s.W.Write("main.tf", cfg(""))
	s.W.MustRun(0, "apply", "-auto-approve")
	id := s.StateID(t, "test")
	if err := env.SetFaults(&emulator.Faults{Methods: []string{"GET"}, ErrorRate: 1, ErrorStatuses: []int{503}}); err != nil {
		t.Fatal(err)
	}
	env.ResetStats()
	out, code := s.W.Run("destroy", "-auto-approve", "-refresh=false")
	if code != 1 || env.Writes() != 0 {
		t.Errorf("destroy -refresh=false with a failing read: exit %d, %d writes\n%s", code, env.Writes(), out)
	}
	s.W.Write("main.tf", cfg("email_reports = true"))
	out, code = s.W.Run("apply", "-auto-approve", "-refresh=false")
	if code != 1 || env.Writes() != 0 {
		t.Errorf("update -refresh=false with a failing read: exit %d, %d writes\n%s", code, env.Writes(), out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if s.StateID(t, "test") != id {
		t.Errorf("state lost the website")
	}
	if _, ok := env.Website(id); !ok {
		t.Errorf("website gone")
	}
	s.W.MustRun(0, "apply", "-auto-approve")
	s.Destroy(t)
}

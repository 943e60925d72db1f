package provider

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A password_wo removed on the server where the plan cannot see it (an
// apply with -refresh=false, or a removal between the refresh and the
// apply), with an unrelated change: the update finds the website without a
// password although password_wo is configured, sends password_wo again and
// keeps password_wo_version as planned, instead of failing with "Provider
// produced inconsistent result ... password_wo_version: was 1, but now
// null". (With a refresh, the removal shows in the plan: see
// TestAccWebsite_passwordWriteOnly.) Write-only attributes need Terraform or
// OpenTofu 1.11 or later.
func TestAccWebsite_passwordWriteOnlyRemovedUnseen(t *testing.T) {
	acctest.NeedsEmulator(t, "removes the password between the refresh and the apply with a handler in front of the API, and reads the stored password, which the API never returns")
	const password = "WriteOnlyUnseen-5c81a7"
	cases := []struct {
		name string
		// noRefresh plans every step with -refresh=false; else the
		// password is removed when the update arrives, after the refresh.
		noRefresh bool
	}{
		{"apply without refresh", true},
		{"removed between refresh and apply", false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			domain := fmt.Sprintf("tf-acc-pw-wo-unseen-%d.example.com", i+1)
			audit := &requestAudit{key: emulator.DefaultAPIKey}
			var (
				env      *acctest.Env
				removeAt atomic.Bool // remove the password when the next update arrives
			)
			removePassword := func() {
				w, ok := env.WebsiteByDomain(domain)
				if !ok {
					t.Errorf("the emulator has no website %s", domain)
					return
				}
				env.UpdateWebsite(w.ID, func(w *emulator.Website) { w.Password = "" })
			}
			env = acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(audit.wrap, func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method == http.MethodPut && removeAt.CompareAndSwap(true, false) {
						removePassword()
					}
					next.ServeHTTP(w, r)
				})
			}))
			cfg := func(extra string) string {
				return env.Config(websiteHCL(fmt.Sprintf(`
  domain              = %q
  privacy             = "password"
  password_wo         = %q
  password_wo_version = 1
%s`, domain, password, extra)))
			}
			var opts *resource.AdditionalCLIOptions
			if c.noRefresh {
				opts = &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}}
			}
			steps := []resource.TestStep{
				{Config: cfg(""), Check: checkStoredPassword(env, domain, password)},
				{
					PreConfig: func() {
						if c.noRefresh {
							removePassword()
						} else {
							removeAt.Store(true)
						}
					},
					Config: cfg("  email_reports = true\n"),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(1)),
						},
					},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(1)),
					},
					Check: resource.ComposeTestCheckFunc(
						func(*terraform.State) error {
							if removeAt.Load() {
								return fmt.Errorf("no update reached the server")
							}
							return nil
						},
						checkStoredPassword(env, domain, password),
						audit.checkLastWrite(http.MethodPut, ptr(password)),
						env.CheckEmulator(domain, func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
					),
				},
			}
			if !c.noRefresh {
				// Seen by a refresh, the removal shows in the plan as a
				// change of password_wo_version, and the apply repairs it.
				steps = append(steps, resource.TestStep{
					PreConfig: removePassword,
					Config:    cfg("  email_reports = true\n"),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(1)),
						},
					},
					Check: resource.ComposeTestCheckFunc(
						checkStoredPassword(env, domain, password),
						audit.checkLastWrite(http.MethodPut, ptr(password)),
					),
				})
			}
			resource.Test(t, resource.TestCase{
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
				PreCheck:                 func() { acctest.PreCheck(t) },
				ProtoV6ProviderFactories: acctest.Factories,
				AdditionalCLIOptions:     opts,
				CheckDestroy:             env.CheckDestroy,
				Steps:                    steps,
			})
			if !t.Failed() {
				audit.verify(t, env)
			}
		})
	}
}

package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const websiteAddr = "analytics_website.test"

func websiteHCL(body string) string {
	return "resource \"analytics_website\" \"test\" {\n" + body + "\n}\n"
}

func intIs(name string, p *int, want int) error {
	if p == nil {
		return fmt.Errorf("%s is NULL on the server, want %d", name, want)
	}
	if *p != want {
		return fmt.Errorf("%s is %d on the server, want %d", name, *p, want)
	}
	return nil
}

func sortedLines(s string) string {
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	slices.Sort(lines)
	return strings.Join(lines, ",")
}

// sameLines reports whether the API's exclusion list holds want, in any
// order.
func sameLines(name string, got []string, want string) error {
	if g := sortedLines(strings.Join(got, "\n")); g != want {
		return fmt.Errorf("%s on the server = %q, want %q", name, g, want)
	}
	return nil
}

// TestAccWebsite_lifecycle: create, update, replace and import. On the
// other CLIs (acctest.RepeatPassSteps) it runs the create and the two
// imports, which depend on the CLI; the updates and the replacement ran
// on Terraform 1.8.5.
func TestAccWebsite_lifecycle(t *testing.T) {
	acctest.CLIDependent(t, "the import command: Terraform 1.12 and later send and expect a resource identity")
	env := acctest.New(t)
	domain, domain2 := env.Domain("lifecycle"), env.Domain("www2-lifecycle")
	sameID := statecheck.CompareValue(compare.ValuesSame())

	env.Test(t, acctest.RepeatPassSteps([]resource.TestStep{
		{ // create with defaults
			Config: env.Config(websiteHCL(fmt.Sprintf(`domain = %q`, domain))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(websiteAddr, tfjsonpath.New("id")),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[1-9][0-9]*$`))),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("privacy"), knownvalue.StringExact("public")),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password"), knownvalue.Null()),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("email_reports"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("exclude_bots"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("exclude_params"), knownvalue.Null()), // not managed
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("exclude_ips"), knownvalue.SetSizeExact(0)),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
			},
			Check: env.CheckWebsite(domain, func(w client.Website) error {
				// every field is sent explicitly: no NULL privacy/email
				if err := intIs("privacy", w.Privacy, 0); err != nil {
					return err
				}
				if err := intIs("email", w.Email, 0); err != nil {
					return err
				}
				return intIs("exclude_bots", w.ExcludeBots, 1)
			}),
		},
		{ // in-place update of every mutable attribute
			Config: env.Config(websiteHCL(fmt.Sprintf(`
  domain         = %q
  privacy        = "password"
  password       = "s3cret-pass"
  email_reports  = true
  exclude_bots   = false
  exclude_params = ["utm_source", "fbclid"]
  exclude_ips    = ["203.0.113.7", "10.0.0.0/8", "2001:db8::/32"]
`, domain))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(websiteAddr, tfjsonpath.New("id")),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("privacy"), knownvalue.StringExact("password")),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password"), knownvalue.StringExact("s3cret-pass")),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("exclude_ips"), knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact("203.0.113.7"), knownvalue.StringExact("10.0.0.0/8"), knownvalue.StringExact("2001:db8::/32"),
				})),
			},
			Check: resource.ComposeTestCheckFunc(
				env.CheckWebsite(domain, func(w client.Website) error {
					for _, c := range []struct {
						name string
						p    *int
						want int
					}{{"privacy", w.Privacy, 2}, {"email", w.Email, 1}, {"exclude_bots", w.ExcludeBots, 0}} {
						if err := intIs(c.name, c.p, c.want); err != nil {
							return err
						}
					}
					if !w.PasswordSet {
						return fmt.Errorf("the server says no password is set")
					}
					return sameLines("exclude_ips", w.ExcludeIPs, "10.0.0.0/8,2001:db8::/32,203.0.113.7")
				}),
				env.CheckStored(domain, func(w emulator.Website) error { // what the API never returns
					if w.Password != "s3cret-pass" {
						return fmt.Errorf("password on the server is not the configured one")
					}
					if got := sortedLines(w.ExcludeParams); got != "fbclid,utm_source" {
						return fmt.Errorf("exclude_params on the server = %q", got)
					}
					return nil
				}),
			),
		},
		{ // leaving password privacy clears the password on the server
			Config: env.Config(websiteHCL(fmt.Sprintf(`
  domain         = %q
  privacy        = "private"
  exclude_params = ["utm_source"]
`, domain))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(websiteAddr, tfjsonpath.New("id"))},
			Check: env.CheckWebsite(domain, func(w client.Website) error {
				if w.PasswordSet {
					return fmt.Errorf("the password is still stored after leaving password privacy")
				}
				if len(w.ExcludeIPs) != 0 {
					return fmt.Errorf("exclude_ips = %q on the server, want empty", w.ExcludeIPs)
				}
				return intIs("privacy", w.Privacy, 1)
			}),
		},
		{ // a new domain replaces the website
			Config: env.Config(websiteHCL(fmt.Sprintf(`
  domain         = %q
  privacy        = "private"
  exclude_params = ["utm_source"]
`, domain2))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: resource.ComposeTestCheckFunc(
				env.CheckGone(domain),
				env.CheckWebsite(domain2, func(client.Website) error { return nil }),
			),
		},
		{ // import by id
			ResourceName:            websiteAddr,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"exclude_params"},
		},
		{ // import by exact domain (domain2, or domain in a repeat pass)
			ResourceName:            websiteAddr,
			ImportState:             true,
			ImportStateIdFunc:       stateAttr(websiteAddr, "domain"),
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"exclude_params"},
		},
	}, 0, 4, 5)...)
}

// stateAttr is the attribute attr of the resource addr in the state, as an
// ImportStateIdFunc.
func stateAttr(addr, attr string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		rs := s.RootModule().Resources[addr]
		if rs == nil || rs.Primary.Attributes[attr] == "" {
			return "", fmt.Errorf("no %s.%s in the state", addr, attr)
		}
		return rs.Primary.Attributes[attr], nil
	}
}

// An import block by domain plans no change for a matching configuration.
func TestAccWebsite_importBlockByDomain(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read")
	env := acctest.New(t)
	domain := env.Domain("shop")
	seeded := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: domain, Privacy: 1, Email: true, ExcludeBots: false,
		ExcludeIPs: []string{"192.0.2.1\r", "192.0.2.0/24"}})
	// a substring match that must not be taken for the website
	env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Run() + "-my" + domain, ExcludeBots: true})

	env.Test(t, resource.TestStep{
		Config: env.Config(fmt.Sprintf(`
import {
  to = analytics_website.test
  id = %[1]q
}
`, domain) + websiteHCL(fmt.Sprintf(`
  domain        = %q
  privacy       = "private"
  email_reports = true
  exclude_bots  = false
  exclude_ips   = ["192.0.2.0/24", "192.0.2.1"]
`, domain))),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionNoop)},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("domain"), knownvalue.StringExact(domain)),
			statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("id"), knownvalue.StringExact(fmt.Sprint(seeded.ID))),
		},
	})
}

func TestAccWebsite_drift(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("drift")
	cfg := env.Config(websiteHCL(fmt.Sprintf(`
  domain        = %q
  privacy       = "password"
  password      = "initial-pass"
  email_reports = true
  exclude_ips   = ["1.2.3.4", "5.6.7.8"]
`, domain)))
	env.Test(t, []resource.TestStep{
		{Config: cfg},
		{ // the web UI stores CRLF line ends: no diff
			PreConfig: func() {
				env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"5.6.7.8\r", "1.2.3.4\r\n"} })
			},
			Config:   cfg,
			PlanOnly: true,
		},
		{ // changed behind Terraform's back: plan updates, apply restores
			PreConfig: func() {
				env.Change(t, domain, func(in *client.WebsiteInput) {
					// the API clears a password only with privacy 0 or 1
					in.Privacy, in.Email, in.ExcludeBots = 0, false, false
					in.Password = ptr("")
					in.ExcludeIPs = []string{"9.9.9.9"}
				})
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("privacy"), knownvalue.StringExact("password")),
				},
			},
			Check: resource.ComposeTestCheckFunc(
				env.CheckWebsite(domain, func(w client.Website) error {
					if !w.PasswordSet {
						return fmt.Errorf("the password removed outside Terraform was not restored")
					}
					if err := intIs("privacy", w.Privacy, 2); err != nil {
						return err
					}
					if err := intIs("exclude_bots", w.ExcludeBots, 1); err != nil {
						return err
					}
					if err := sameLines("exclude_ips", w.ExcludeIPs, "1.2.3.4,5.6.7.8"); err != nil {
						return err
					}
					return intIs("email", w.Email, 1)
				}),
				env.CheckStored(domain, func(w emulator.Website) error {
					if w.Password != "initial-pass" {
						return fmt.Errorf("the password restored is not the configured one")
					}
					return nil
				}),
			),
		},
		{ // deleted behind Terraform's back: plan recreates
			PreConfig: func() { env.Remove(t, domain) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate)},
			},
			Check: env.CheckWebsite(domain, func(client.Website) error { return nil }),
		},
	}...)
}

// The real server answers an update of a deleted website with a 500; the
// provider must say what happened, and the next apply recreates it.
func TestAccWebsite_updateOfDeletedWebsite(t *testing.T) {
	acctest.NeedsEmulator(t, "deletes the website between Terraform's refresh and its update (a handler around the emulator), and emulates an older build's 404")
	acctest.Parent(t)
	for name, legacy := range map[string]bool{"current build answers 500": false, "older build answers 404": true} {
		t.Run(name, func(t *testing.T) { testUpdateOfDeletedWebsite(t, legacy) })
	}
}

func testUpdateOfDeletedWebsite(t *testing.T, legacyUpdateNotFound bool) {
	var armed atomic.Bool
	var env *acctest.Env
	env = acctest.New(t, acctest.Emulator(emulator.Options{LegacyUpdateNotFound: legacyUpdateNotFound}), acctest.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && armed.CompareAndSwap(true, false) {
				for _, ws := range env.Websites() {
					env.DeleteWebsite(ws.ID)
				}
			}
			next.ServeHTTP(w, r)
		})
	}))
	env.TestCase(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: env.Config(websiteHCL(`domain = "gone.example.com"`))},
			{
				PreConfig:   func() { armed.Store(true) },
				Config:      env.Config(websiteHCL("domain = \"gone.example.com\"\nemail_reports = true")),
				ExpectError: acctest.ExpectError(`Website Deleted Outside Terraform.*was deleted outside Terraform.*created anew`),
			},
			{
				Config: env.Config(websiteHCL("domain = \"gone.example.com\"\nemail_reports = true")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate)},
				},
				Check: env.CheckEmulator("gone.example.com", func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
			},
		},
	})
}

// Errors only the server can detect: a domain another user of the
// installation holds, and a key it does not know.
func TestAccWebsite_serverErrors(t *testing.T) {
	env := acctest.New(t)
	env.NeedsKey2(t)
	taken := env.Domain("taken")
	env.SeedViaAPI(t, env.Key2, client.WebsiteInput{Domain: taken, ExcludeBots: true})
	step := func(key, domain, want string) resource.TestStep {
		return resource.TestStep{
			Config:      env.ProviderBlockAt(env.URL, key) + websiteHCL(fmt.Sprintf("domain = %q", domain)),
			ExpectError: acctest.ExpectError(want),
		}
	}
	env.Test(t,
		step(env.Key, taken, `Domain Already Exists.*The domain has already been taken.*terraform\s+import`),
		step("wrong-key", env.Domain("new"), `API Key Rejected.*HTTP 401.*ANALYTICS_API_KEY`),
	)
	if ws, err := env.TestWebsites(env.Key); err != nil || len(ws) != 0 {
		t.Errorf("the first user holds %v (%v), want no website", ws, err)
	}
	if _, err := env.FindWebsite(env.Key2, taken); err != nil {
		t.Errorf("the other user's website: %v", err)
	}
}

// Errors of a user's plan: its website limit, and no API access.
func TestAccWebsite_planErrors(t *testing.T) {
	acctest.NeedsEmulator(t, "needs users whose plan limits websites or lacks API access, which the emulator sets up")
	const (
		keyLimited = "limited-key-000000000000000000000000000000000000000000000000000"
		keyNoAPI   = "no-api-key-0000000000000000000000000000000000000000000000000000"
	)
	env := acctest.New(t, acctest.Emulator(emulator.Options{Users: []emulator.User{
		{Key: keyLimited, WebsiteLimit: 1}, {Key: keyNoAPI, NoAPIAccess: true},
	}}))
	env.Seed(keyLimited, emulator.Website{Domain: "tf-acc-first.example.com"})
	step := func(key, domain, want string) resource.TestStep {
		return resource.TestStep{
			Config:      env.ProviderBlockAt(env.URL, key) + websiteHCL(fmt.Sprintf("domain = %q", domain)),
			ExpectError: acctest.ExpectError(want),
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			step(keyLimited, "tf-acc-second.example.com", `Website Limit Reached.*You created too many websites`),
			step(keyNoAPI, "tf-acc-new.example.com", `API Access Denied.*You don't have access to this feature.*API access`),
		},
	})
	if n := len(env.Websites()); n != 1 {
		t.Errorf("the server holds %d websites, want the 1 seeded", n)
	}
}

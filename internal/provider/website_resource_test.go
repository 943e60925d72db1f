package provider

import (
	"fmt"
	"net/http"
	"regexp"
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

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const websiteAddr = "analytics_website.test"

func websiteHCL(body string) string {
	return "resource \"analytics_website\" \"test\" {\n" + body + "\n}\n"
}

// checkEmulator runs fn against the emulator's record of domain.
func checkEmulator(env *testEnv, domain string, fn func(w emulator.Website) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, w := range env.Websites() {
			if w.Domain == domain {
				return fn(w)
			}
		}
		return fmt.Errorf("the emulator has no website %q", domain)
	}
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
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			if lines[j] < lines[i] {
				lines[i], lines[j] = lines[j], lines[i]
			}
		}
	}
	return strings.Join(lines, ",")
}

func checkDestroyed(env *testEnv) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if ws := env.Websites(); len(ws) != 0 {
			return fmt.Errorf("the emulator still holds %d websites after destroy, e.g. %q", len(ws), ws[0].Domain)
		}
		return nil
	}
}

func TestAccWebsite_lifecycle(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	sameID := statecheck.CompareValue(compare.ValuesSame())

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(env),
		Steps: []resource.TestStep{
			{ // create with defaults
				Config: env.config(websiteHCL(`domain = "example.com"`)),
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
				Check: checkEmulator(env, "example.com", func(w emulator.Website) error {
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
				Config: env.config(websiteHCL(`
  domain         = "example.com"
  privacy        = "password"
  password       = "s3cret-pass"
  email_reports  = true
  exclude_bots   = false
  exclude_params = ["utm_source", "fbclid"]
  exclude_ips    = ["203.0.113.7", "10.0.0.0/8", "2001:db8::/32"]
`)),
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
				Check: checkEmulator(env, "example.com", func(w emulator.Website) error {
					for _, c := range []struct {
						name string
						p    *int
						want int
					}{{"privacy", w.Privacy, 2}, {"email", w.Email, 1}, {"exclude_bots", w.ExcludeBots, 0}} {
						if err := intIs(c.name, c.p, c.want); err != nil {
							return err
						}
					}
					if w.Password != "s3cret-pass" {
						return fmt.Errorf("password on the server is not the configured one")
					}
					if got := sortedLines(w.ExcludeParams); got != "fbclid,utm_source" {
						return fmt.Errorf("exclude_params on the server = %q", got)
					}
					if got := sortedLines(w.ExcludeIPs); got != "10.0.0.0/8,2001:db8::/32,203.0.113.7" {
						return fmt.Errorf("exclude_ips on the server = %q", got)
					}
					return nil
				}),
			},
			{ // leaving password privacy clears the password on the server
				Config: env.config(websiteHCL(`
  domain         = "example.com"
  privacy        = "private"
  exclude_params = ["utm_source"]
`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(websiteAddr, tfjsonpath.New("id"))},
				Check: checkEmulator(env, "example.com", func(w emulator.Website) error {
					if w.Password != "" {
						return fmt.Errorf("the password is still stored after leaving password privacy")
					}
					if w.ExcludeIPs != "" {
						return fmt.Errorf("exclude_ips = %q on the server, want empty", w.ExcludeIPs)
					}
					return intIs("privacy", w.Privacy, 1)
				}),
			},
			{ // a new domain replaces the website
				Config: env.config(websiteHCL(`
  domain         = "www2.example.org"
  privacy        = "private"
  exclude_params = ["utm_source"]
`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(*terraform.State) error {
					if _, ok := env.websiteByDomain(t, "example.com"); ok {
						return fmt.Errorf("the old website is still on the server after replacement")
					}
					if n := len(env.Websites()); n != 1 {
						return fmt.Errorf("the server holds %d websites, want 1", n)
					}
					return nil
				},
			},
			{ // import by id
				ResourceName:            websiteAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"exclude_params"},
			},
			{ // import by exact domain
				ResourceName:            websiteAddr,
				ImportState:             true,
				ImportStateId:           "www2.example.org",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"exclude_params"},
			},
		},
	})
}

// An import block by domain plans no change for a matching configuration.
func TestAccWebsite_importBlockByDomain(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	one, two := 1, 1
	env.Seed(env.Key, emulator.Website{Domain: "shop.example.com", Privacy: &one, Email: &two, ExcludeBots: ptr(0),
		ExcludeIPs: "192.0.2.1\r\n192.0.2.0/24"})
	// a substring match that must not be taken for the website
	env.Seed(env.Key, emulator.Website{Domain: "myshop.example.com"})

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.config(`
import {
  to = analytics_website.test
  id = "shop.example.com"
}
` + websiteHCL(`
  domain        = "shop.example.com"
  privacy       = "private"
  email_reports = true
  exclude_bots  = false
  exclude_ips   = ["192.0.2.0/24", "192.0.2.1"]
`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionNoop)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("domain"), knownvalue.StringExact("shop.example.com")),
				statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("id"), knownvalue.StringExact("1")),
			},
		}},
	})
}

func TestAccWebsite_drift(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	cfg := env.config(websiteHCL(`
  domain        = "drift.example.com"
  privacy       = "password"
  password      = "initial-pass"
  email_reports = true
  exclude_ips   = ["1.2.3.4", "5.6.7.8"]
`))
	idOf := func() int64 {
		w, ok := env.websiteByDomain(t, "drift.example.com")
		if !ok {
			t.Fatal("the emulator has no website drift.example.com")
		}
		return w.ID
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(env),
		Steps: []resource.TestStep{
			{Config: cfg},
			{ // the web UI stores CRLF line ends and a trailing newline: no diff
				PreConfig: func() {
					env.UpdateWebsite(idOf(), func(w *emulator.Website) { w.ExcludeIPs = "5.6.7.8\r\n1.2.3.4\r\n" })
				},
				Config:   cfg,
				PlanOnly: true,
			},
			{ // changed behind Terraform's back: plan updates, apply restores
				PreConfig: func() {
					env.UpdateWebsite(idOf(), func(w *emulator.Website) {
						w.Privacy, w.Email, w.ExcludeBots = ptr(0), ptr(0), ptr(0)
						w.Password = ""
						w.ExcludeIPs = "9.9.9.9"
					})
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("privacy"), knownvalue.StringExact("password")),
					},
				},
				Check: checkEmulator(env, "drift.example.com", func(w emulator.Website) error {
					if w.Password != "initial-pass" {
						return fmt.Errorf("the password removed outside Terraform was not restored")
					}
					if err := intIs("privacy", w.Privacy, 2); err != nil {
						return err
					}
					if err := intIs("exclude_bots", w.ExcludeBots, 1); err != nil {
						return err
					}
					if got := sortedLines(w.ExcludeIPs); got != "1.2.3.4,5.6.7.8" {
						return fmt.Errorf("exclude_ips = %q", got)
					}
					return intIs("email", w.Email, 1)
				}),
			},
			{ // deleted behind Terraform's back: plan recreates
				PreConfig: func() { env.DeleteWebsite(idOf()) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate)},
				},
				Check: checkEmulator(env, "drift.example.com", func(emulator.Website) error { return nil }),
			},
		},
	})
}

// The real server answers an update of a deleted website with a 500; the
// provider must say what happened, and the next apply recreates it.
func TestAccWebsite_updateOfDeletedWebsite(t *testing.T) {
	for name, legacy := range map[string]bool{"current build answers 500": false, "older build answers 404": true} {
		t.Run(name, func(t *testing.T) { testUpdateOfDeletedWebsite(t, legacy) })
	}
}

func testUpdateOfDeletedWebsite(t *testing.T, legacyUpdateNotFound bool) {
	var armed atomic.Bool
	var env *testEnv
	env = newTestEnv(t, emulator.Options{LegacyUpdateNotFound: legacyUpdateNotFound}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && armed.CompareAndSwap(true, false) {
				for _, ws := range env.Websites() {
					env.DeleteWebsite(ws.ID)
				}
			}
			next.ServeHTTP(w, r)
		})
	})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(env),
		Steps: []resource.TestStep{
			{Config: env.config(websiteHCL(`domain = "gone.example.com"`))},
			{
				PreConfig:   func() { armed.Store(true) },
				Config:      env.config(websiteHCL("domain = \"gone.example.com\"\nemail_reports = true")),
				ExpectError: expectError(`Website Deleted Outside Terraform.*was deleted outside Terraform.*created anew`),
			},
			{
				Config: env.config(websiteHCL("domain = \"gone.example.com\"\nemail_reports = true")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate)},
				},
				Check: checkEmulator(env, "gone.example.com", func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
			},
		},
	})
}

// Errors only the server can detect.
func TestAccWebsite_serverErrors(t *testing.T) {
	const (
		keyA       = "user-a-key-0000000000000000000000000000000000000000000000000000"
		keyB       = "user-b-key-0000000000000000000000000000000000000000000000000000"
		keyLimited = "limited-key-000000000000000000000000000000000000000000000000000"
		keyNoAPI   = "no-api-key-0000000000000000000000000000000000000000000000000000"
	)
	env := newTestEnv(t, emulator.Options{Users: []emulator.User{
		{Key: keyA}, {Key: keyB}, {Key: keyLimited, WebsiteLimit: 1}, {Key: keyNoAPI, NoAPIAccess: true},
	}})
	env.Seed(keyB, emulator.Website{Domain: "taken.example.com"})
	env.Seed(keyLimited, emulator.Website{Domain: "first.example.com"})
	step := func(key, domain, want string) resource.TestStep {
		return resource.TestStep{
			Config:      env.providerConfigWithKey(key) + websiteHCL(fmt.Sprintf("domain = %q", domain)),
			ExpectError: expectError(want),
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(keyA, "taken.example.com", `Domain Already Exists.*The domain has already been taken.*terraform\s+import`),
			step(keyLimited, "second.example.com", `Website Limit Reached.*You created too many websites`),
			step("wrong-key", "new.example.com", `API Key Rejected.*HTTP 401.*ANALYTICS_API_KEY`),
			step(keyNoAPI, "new.example.com", `API Access Denied.*You don't have access to this feature.*API access`),
		},
	})
	if n := len(env.Websites()); n != 2 {
		t.Errorf("the server holds %d websites, want the 2 seeded", n)
	}
}

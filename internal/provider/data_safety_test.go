package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The paths on which a provider loses data if it trusts ambiguous evidence:
// a wrong base_url, another user's key, adopted websites, values the server
// stores differently, slow creates and redirects. Every test ends by showing
// that the state and the server still hold what they held.

// Keys of the two users of the data-safety tests.
const (
	keyOwner = emulator.DefaultAPIKey
	keyOther = "OtherUsersValidApiKey0123456789abcdefghijklmnopqrstuvwxyzABCDE"
)

func twoUsers(opts emulator.Options) emulator.Options {
	opts.Users = []emulator.User{
		{Key: keyOwner, Name: "Alice", Email: "alice@example.test"},
		{Key: keyOther, Name: "Bob", Email: "bob@example.test"},
	}
	return opts
}

// twoWebsites is the configuration of the data-safety tests: two websites,
// so that "every website vanished at once" can be told from one deletion.
func twoWebsites() string {
	return websiteHCL(`
  domain         = "safe-a.example.com"
  exclude_params = ["utm_source"]
`) + `
resource "analytics_website" "second" {
  domain = "safe-b.example.com"
}
`
}

// configAt is the provider block with another base_url or key, and the
// websites.
func (env *testEnv) configAt(baseURL, key string) string {
	return fmt.Sprintf("provider \"analytics\" {\n  base_url = %q\n  api_key  = %q\n}\n", baseURL, key) + twoWebsites()
}

// keptSteps are the operations a user runs against a wrong base_url or with
// a wrong key, each of which must fail with want and leave the state alone:
// plan (a refresh), destroy and import. (apply -refresh-only: see
// TestAccWebsite_refreshOnlyKeepsState.)
func keptSteps(cfg, want, importWant string) []resource.TestStep {
	return []resource.TestStep{
		{Config: cfg, PlanOnly: true, ExpectError: expectError(want)},
		{Config: cfg, Destroy: true, ExpectError: expectError(want)},
		{ // an import block adopting website 1 under another address
			Config: cfg + `
import {
  to = analytics_website.adopted
  id = "1"
}
resource "analytics_website" "adopted" {
  domain = "safe-b.example.com"
}
`,
			PlanOnly:    true,
			ExpectError: expectError(importWant),
		},
	}
}

// keptState is the last step: with the right settings, the plan is empty,
// so the state still holds both websites as they are on the server. It is a
// plan-only step (an apply would repair what it checks), and
// terraform-plugin-testing runs neither Check nor ConfigStateChecks in
// those: the checks are plan checks of the refreshed plan, which it runs.
func keptState(env *testEnv) resource.TestStep {
	return resource.TestStep{
		Config:   env.configAt(env.URL, keyOwner),
		PlanOnly: true,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PostApplyPostRefresh: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
				plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionNoop),
				plancheck.ExpectResourceAction("analytics_website.second", plancheck.ResourceActionNoop),
				planCheckFunc(func(req plancheck.CheckPlanRequest) error {
					var n int // resources in the refreshed state the plan was made from
					if p := req.Plan; p.PriorState != nil && p.PriorState.Values != nil && p.PriorState.Values.RootModule != nil {
						n = len(p.PriorState.Values.RootModule.Resources)
					}
					if n != 2 {
						return fmt.Errorf("the state holds %d websites, want 2", n)
					}
					if n := len(env.Websites()); n != 2 {
						return fmt.Errorf("the server holds %d websites, want 2", n)
					}
					return nil
				}),
			},
		},
	}
}

// planCheckFunc is a plan check written as a function.
type planCheckFunc func(plancheck.CheckPlanRequest) error

func (f planCheckFunc) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(req)
}

// proxy404 answers the paths under /proxy/ as a web server in front of the
// application would: with its own HTML 404 page.
func proxy404(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/proxy/") {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func TestAccWebsite_wrongBaseURL(t *testing.T) {
	cases := []struct{ name, suffix, want string }{
		{"moved path prefix", "/analytics", `Unexpected Answer at base_url.*/analytics/api/v1.*could not be found`},
		{"proxy HTML 404", "/proxy", `Unexpected Answer at base_url.*404 Not Found`},
		{"unknown path under /api/v1", "/api/v1/v2", `Unexpected Answer at base_url.*Resource not found`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := newTestEnv(t, emulator.Options{}, proxy404)
			steps := []resource.TestStep{{Config: env.configAt(env.URL, keyOwner)}}
			steps = append(steps, keptSteps(env.configAt(env.URL+c.suffix, keyOwner), c.want, c.want)...)
			steps = append(steps, keptState(env))
			env.test(t, steps...)
		})
	}
}

func TestAccWebsite_otherUsersKey(t *testing.T) {
	t.Run("server with GET /account", func(t *testing.T) {
		env := newTestEnv(t, twoUsers(emulator.Options{}))
		steps := []resource.TestStep{{Config: env.configAt(env.URL, keyOwner)}}
		steps = append(steps, keptSteps(env.configAt(env.URL, keyOther),
			`Website Belongs to Another User.*created or imported by user #1\b[^(]*api_key belongs to user #2 \(Bob, bob@example.test\).*Check the provider's api_key`,
			`Website Not Found.*No website with id 1 belongs to this API key's user, user #2 \(Bob`)...)
		steps = append(steps, keptState(env))
		env.test(t, steps...)
	})
	t.Run("older build without GET /account", func(t *testing.T) {
		env := newTestEnv(t, twoUsers(emulator.Options{NoAccountEndpoint: true}))
		steps := []resource.TestStep{{Config: env.configAt(env.URL, keyOwner)}}
		steps = append(steps, keptSteps(env.configAt(env.URL, keyOther),
			`Every Managed Website Vanished.*another user of the installation.*Check the provider's api_key`,
			`Website Not Found.*No website with id 1 belongs to this API key's user`)...)
		steps = append(steps, keptState(env),
			resource.TestStep{ // one website deleted outside Terraform still leaves the state
				PreConfig: func() {
					w, _ := env.websiteByDomain(t, "safe-b.example.com")
					env.DeleteWebsite(w.ID)
				},
				Config: env.configAt(env.URL, keyOwner),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("analytics_website.second", plancheck.ResourceActionCreate)},
				},
			})
		env.test(t, steps...)
	})
}

// testWithoutRefresh runs steps as env.test does, but every plan with
// -refresh=false, as `terraform destroy -refresh=false` plans: Delete then
// gets the state as it is, without a Read before it that would catch a
// foreign key or vanished websites first.
func (env *testEnv) testWithoutRefresh(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		AdditionalCLIOptions:     &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}},
		CheckDestroy:             checkDestroyed(env),
		Steps:                    steps,
	})
}

// A destroy without refresh with another user's key deletes nothing and
// drops nothing from the state: Delete checks the owner itself, and, where
// the server cannot tell the owner, the vanish guard refuses both websites.
func TestAccWebsite_otherUsersKeyDestroyWithoutRefresh(t *testing.T) {
	cases := []struct {
		name string
		opts emulator.Options
		want string
	}{
		{"server with GET /account", twoUsers(emulator.Options{}),
			`Website Belongs to Another User.*Refusing to delete .*created or imported by user #1\b[^(]*api_key belongs to user #2 \(Bob`},
		{"older build without GET /account", twoUsers(emulator.Options{NoAccountEndpoint: true}),
			`Every Managed Website Vanished.*Could not delete`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := newTestEnv(t, c.opts)
			cfg := func(key string) string {
				return env.providerConfigWithKey(key) + `
resource "analytics_website" "a" {
  domain = "tf-acc-norefresh-a.example.com"
}
resource "analytics_website" "b" {
  domain = "tf-acc-norefresh-b.example.com"
}
`
			}
			env.testWithoutRefresh(t,
				resource.TestStep{Config: cfg(keyOwner)},
				resource.TestStep{Config: cfg(keyOther), Destroy: true, ExpectError: expectError(c.want)},
				// Without refresh, the plan is empty only if the state still
				// holds both websites.
				resource.TestStep{
					PreConfig: func() {
						if n := len(env.Websites()); n != 2 {
							t.Errorf("the server holds %d websites, want 2", n)
						}
					},
					Config: cfg(keyOwner), PlanOnly: true,
				},
			)
		})
	}
}

// Adopting a website whose exclude_params were set in the web interface,
// then changing something else, must not erase them.
func TestAccWebsite_importKeepsExcludeParams(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	byID := env.Seed(env.Key, emulator.Website{Domain: "adopt-id.example.com", Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeParams: "utm_source\nref"})
	env.Seed(env.Key, emulator.Website{Domain: "adopt-domain.example.com", Privacy: ptr(2), Password: "from-the-ui", Email: ptr(0), ExcludeBots: ptr(1), ExcludeParams: "&"})
	cfg := func(extra string) string {
		return env.config(fmt.Sprintf(`
import {
  to = analytics_website.by_id
  id = "%d"
}
import {
  to = analytics_website.by_domain
  id = "adopt-domain.example.com"
}
resource "analytics_website" "by_id" {
  domain = "adopt-id.example.com"
  %[2]s
}
resource "analytics_website" "by_domain" {
  domain  = "adopt-domain.example.com"
  privacy = "password"
  %[2]s
}
`, byID.ID, extra))
	}
	unchanged := func(emulator.Website) error { return nil }
	checkKept := func(domain, params, password string) resource.TestCheckFunc {
		return checkEmulator(env, domain, func(w emulator.Website) error {
			if w.ExcludeParams != params {
				return fmt.Errorf("%s: exclude_params is %q on the server, want %q", domain, w.ExcludeParams, params)
			}
			if w.Password != password {
				return fmt.Errorf("%s: the password was changed", domain)
			}
			return nil
		})
	}
	env.test(t, []resource.TestStep{
		{
			Config: cfg(""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("analytics_website.by_id", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("analytics_website.by_domain", plancheck.ResourceActionNoop),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("analytics_website.by_id", tfjsonpath.New("exclude_params"), knownvalue.Null()),
				statecheck.ExpectKnownValue("analytics_website.by_domain", tfjsonpath.New("password"), knownvalue.Null()),
			},
			Check: checkEmulator(env, "adopt-id.example.com", unchanged),
		},
		{ // an unrelated change keeps what the API cannot return
			Config: cfg("email_reports = true"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("analytics_website.by_id", plancheck.ResourceActionUpdate)},
			},
			Check: resource.ComposeTestCheckFunc(
				checkKept("adopt-id.example.com", "utm_source\nref", ""),
				checkKept("adopt-domain.example.com", "&", "from-the-ui"),
				checkEmulator(env, "adopt-id.example.com", func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
			),
		},
		{ // managed from now on: sent, and then cleared when Terraform set it and the configuration removes it
			Config: cfg(`exclude_params = ["fbclid"]`),
			Check:  checkKept("adopt-id.example.com", "fbclid", ""),
		},
		{
			Config: cfg(""),
			Check:  checkKept("adopt-id.example.com", "", ""),
		},
		{ // "managed, empty" is expressible and stable
			Config: cfg(`exclude_params = []`),
			Check:  checkKept("adopt-id.example.com", "", ""),
		},
	}...)
}

// The password is dropped from the state when the server says none is set,
// even though the privacy stays "password", and the next apply sets it again.
func TestAccWebsite_passwordRemovedOutsideTerraform(t *testing.T) {
	// "0" is stored but reads back as no password, like an empty one.
	for _, removed := range []string{"", "0"} {
		t.Run(fmt.Sprintf("stored %q", removed), func(t *testing.T) {
			env := newTestEnv(t, emulator.Options{})
			cfg := env.config(websiteHCL(`
  domain   = "pw-drift.example.com"
  privacy  = "password"
  password = "pw-one-two"
`))
			env.test(t, []resource.TestStep{
				{Config: cfg},
				{
					PreConfig: func() {
						w, _ := env.websiteByDomain(t, "pw-drift.example.com")
						env.UpdateWebsite(w.ID, func(w *emulator.Website) { w.Password = removed })
					},
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
					},
					Check: checkStoredPassword(env, "pw-drift.example.com", "pw-one-two"),
				},
			}...)
		})
	}
}

// Exclusion lists read back exactly: an entry with stray spaces, which the
// server never matches, shows as a difference that the apply repairs; line
// breaks of every kind do not.
func TestAccWebsite_exclusionsReadBackExactly(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	cfg := env.config(websiteHCL(`
  domain      = "ips.example.com"
  exclude_ips = ["10.0.0.1", "10.0.0.2"]
`))
	setIPs := func(v string) func() {
		return func() {
			w, _ := env.websiteByDomain(t, "ips.example.com")
			env.UpdateWebsite(w.ID, func(w *emulator.Website) { w.ExcludeIPs = v })
		}
	}
	env.test(t, []resource.TestStep{
		{Config: cfg},
		{
			PreConfig: setIPs("10.0.0.1 \n10.0.0.2"),
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
			},
			Check: checkEmulator(env, "ips.example.com", func(w emulator.Website) error {
				if w.ExcludeIPs != "10.0.0.1\n10.0.0.2" && w.ExcludeIPs != "10.0.0.2\n10.0.0.1" {
					return fmt.Errorf("exclude_ips is %q on the server", w.ExcludeIPs)
				}
				return nil
			}),
		},
		{PreConfig: setIPs("10.0.0.2\r10.0.0.1"), Config: cfg, PlanOnly: true},
		{PreConfig: setIPs("10.0.0.2\r\n10.0.0.1\r\n"), Config: cfg, PlanOnly: true},
	}...)
}

// A create that outlives the client's time limit, on a server whose
// uniqueness check and insert are not atomic, ends with one website. The
// backoff is shortened so that the create is sent again long before the
// first store lands: only the settle window (waiting for that store before
// sending again) keeps the second from passing the uniqueness check too.
func TestAccWebsite_slowCommitMakesNoDuplicate(t *testing.T) {
	t.Setenv(EnvTestRetryWaitMin, "5ms")
	env := newTestEnv(t, emulator.Options{Faults: &emulator.Faults{SlowCommit: 1500 * time.Millisecond, SlowCommitCount: 1}})
	cfg := env.reliableConfig(`timeout = "1s"`, websiteHCL(`domain = "slow.example.com"`))
	env.test(t, []resource.TestStep{
		{
			Config: cfg,
			Check: func(s *terraform.State) error {
				time.Sleep(2 * time.Second) // past the slow insert
				var ids []int64
				for _, w := range env.Websites() {
					if w.Domain == "slow.example.com" {
						ids = append(ids, w.ID)
					}
				}
				if len(ids) != 1 {
					return fmt.Errorf("the server holds %d websites slow.example.com (ids %v), want 1", len(ids), ids)
				}
				if got := s.RootModule().Resources[websiteAddr].Primary.ID; got != fmt.Sprint(ids[0]) {
					return fmt.Errorf("the state holds id %s, the server %d", got, ids[0])
				}
				return nil
			},
		},
		{Config: cfg, PlanOnly: true},
	}...)
}

// A redirect to another URL (http:// to https://, say) names the URL to
// use, and changes nothing.
func TestAccWebsite_redirect(t *testing.T) {
	var redirect atomic.Bool
	env := newTestEnv(t, emulator.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if redirect.Load() {
				http.Redirect(w, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusMovedPermanently)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	host := strings.TrimPrefix(env.URL, "http://")
	env.test(t, []resource.TestStep{
		{Config: env.configAt(env.URL, keyOwner)},
		{
			PreConfig:   func() { redirect.Store(true) },
			Config:      env.configAt(env.URL, keyOwner),
			PlanOnly:    true,
			ExpectError: expectError(`Unexpected Answer at base_url.*redirect.*https://` + strings.ReplaceAll(host, ".", `\.`) + `.*base_url`),
		},
		{PreConfig: func() { redirect.Store(false) }, Config: env.configAt(env.URL, keyOwner), PlanOnly: true},
	}...)
}

// After an update, a read of the same website later in the same run (here
// a data source that depends on it) returns the new record, not one the
// bulk reader read before the update.
func TestAccWebsite_readAfterUpdateInOneRun(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	w := env.Seed(env.Key, emulator.Website{Domain: "fresh.example.com", Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)})
	cfg := func(trigger string) string {
		return env.config(fmt.Sprintf(`
resource "terraform_data" "trigger" {
  input = %[2]q
}
# Read during the apply, before the update (it waits for the trigger).
data "analytics_website" "before" {
  id         = "%[1]d"
  depends_on = [terraform_data.trigger]
}
import {
  to = analytics_website.test
  id = "%[1]d"
}
resource "analytics_website" "test" {
  domain        = "fresh.example.com"
  email_reports = data.analytics_website.before.id != ""
}
# Read during the apply, after the update.
data "analytics_website" "after" {
  id         = "%[1]d"
  depends_on = [analytics_website.test]
}
`, w.ID, trigger))
	}
	env.test(t, []resource.TestStep{
		{
			Config: cfg("one"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.analytics_website.before", tfjsonpath.New("email_reports"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.analytics_website.after", tfjsonpath.New("email_reports"), knownvalue.Bool(true)),
			},
		},
	}...)
}

// The data sources follow the same rule: an answer that is not the API's is
// an error naming base_url, not "not found" (nor an empty list).
func TestAccDataSources_wrongBaseURL(t *testing.T) {
	env := newTestEnv(t, emulator.Options{})
	env.Seed(env.Key, emulator.Website{Domain: "ds.example.com"})
	wrong := fmt.Sprintf("provider \"analytics\" {\n  base_url = %q\n  api_key  = %q\n}\n", env.URL+"/analytics", env.Key)
	want := expectError(`Unexpected Answer at base_url.*could not be found`)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: wrong + `data "analytics_website" "by_id" { id = "1" }`, ExpectError: want},
			{Config: wrong + `data "analytics_website" "by_domain" { domain = "ds.example.com" }`, ExpectError: want},
			{Config: wrong + `data "analytics_websites" "all" {}`, ExpectError: want},
		},
	})
}

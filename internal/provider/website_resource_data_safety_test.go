package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// The paths on which a provider loses data if it trusts ambiguous evidence:
// a wrong base_url, another user's key, adopted websites, values the server
// stores differently, slow creates and redirects. Every test ends by showing
// that the state and the server still hold what they held.

func TestAccWebsite_wrongBaseURL(t *testing.T) {
	acctest.Parent(t)
	// The API's own wrong paths, one after the other on one pair of
	// websites: whatever either wrong base_url drops or deletes, the last
	// step finds missing.
	t.Run("API path", func(t *testing.T) {
		env := acctest.New(t)
		steps := []resource.TestStep{{Config: pinnedConfigAt(env, env.URL, env.Key)}}
		for _, c := range []struct{ suffix, want string }{
			{"/analytics", `Unexpected Answer at base_url.*/analytics/api/v1.*could not be found`}, // a moved path prefix
			{"/api/v1/v2", `Unexpected Answer at base_url.*Resource not found`},                    // an unknown path under /api/v1
		} {
			steps = append(steps, keptSteps(t, env, pinnedConfigAt(env, env.URL+c.suffix, env.Key), c.want, c.want)...)
		}
		steps = append(steps, keptState(env))
		env.Test(t, steps...)
	})
	t.Run("proxy HTML 404", func(t *testing.T) {
		acctest.NeedsEmulator(t, "a web server's own HTML 404 page in front of the API (a handler around the emulator)")
		want := `Unexpected Answer at base_url.*404 Not Found`
		env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(proxy404))
		steps := []resource.TestStep{{Config: pinnedConfigAt(env, env.URL, acctest.KeyOwner)}}
		steps = append(steps, keptSteps(t, env, pinnedConfigAt(env, env.URL+"/proxy", acctest.KeyOwner), want, want)...)
		steps = append(steps, keptState(env))
		env.Test(t, steps...)
	})
}

// pinnedConfigAt is configAt with the tracking URL pinned to env's, which
// keeps the tracking code of a test that changes base_url as it was (it
// follows base_url by default): the non-refresh plans that
// terraform-plugin-testing runs before the refreshing ones would otherwise
// show the tracking code's change, and never reach the refresh whose error
// the test expects.
func pinnedConfigAt(env *acctest.Env, baseURL, key string) string {
	return env.ProviderBlockAt(baseURL, key, fmt.Sprintf("tracking_url = %q", env.URL)) + twoWebsites(env)
}

func TestAccWebsite_otherUsersKey(t *testing.T) {
	acctest.Parent(t)
	t.Run("server with GET /account", func(t *testing.T) {
		env := acctest.New(t)
		env.NeedsKey2(t)
		owner, other := account(t, env, env.Key), account(t, env, env.Key2)
		steps := []resource.TestStep{{Config: configAt(env, env.URL, env.Key)}}
		steps = append(steps, keptSteps(t, env, configAt(env, env.URL, env.Key2),
			`Website Belongs to Another User.*created or imported by `+regexp.QuoteMeta(fmt.Sprintf("user #%d", owner.ID))+
				`\b[^(]*api_key belongs to `+regexp.QuoteMeta(other.String())+`.*Check the provider's api_key`,
			`Website Not Found.*No website with id [0-9]+ belongs to this API key's user, `+regexp.QuoteMeta(other.String()))...)
		steps = append(steps, keptState(env))
		env.Test(t, steps...)
	})
	t.Run("older build without GET /account", func(t *testing.T) {
		acctest.NeedsEmulator(t, "emulates an older build without GET /account, and its expected messages name the emulator's website id 1")
		env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{NoAccountEndpoint: true})))
		steps := []resource.TestStep{{Config: configAt(env, env.URL, acctest.KeyOwner)}}
		steps = append(steps, keptSteps(t, env, configAt(env, env.URL, acctest.KeyOther),
			`Every Managed Website Vanished.*another user of the installation.*Check the provider's api_key`,
			`Website Not Found.*No website with id 1 belongs to this API key's user`)...)
		steps = append(steps, keptState(env),
			resource.TestStep{ // one website deleted outside Terraform still leaves the state
				PreConfig: func() {
					w, _ := env.WebsiteByDomain(env.Domain("safe-b"))
					env.DeleteWebsite(w.ID)
				},
				Config: configAt(env, env.URL, acctest.KeyOwner),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("analytics_website.second", plancheck.ResourceActionCreate)},
				},
			})
		env.Test(t, steps...)
	})
}

// A destroy without refresh with another user's key deletes nothing and
// drops nothing from the state: Delete checks the owner itself, and, where
// the server cannot tell the owner, the vanish guard refuses both websites.
func TestAccWebsite_otherUsersKeyDestroyWithoutRefresh(t *testing.T) {
	acctest.NeedsEmulator(t, "its users are the emulator's (the messages name user #1 and Bob), one case emulates an older build without GET /account, and the websites left are counted in its memory")
	acctest.Parent(t)
	cases := []struct {
		name string
		opts emulator.Options
		want string
	}{
		{"server with GET /account", acctest.TwoUsers(emulator.Options{}),
			`Website Belongs to Another User.*Refusing to delete .*created or imported by user #1\b[^(]*api_key belongs to user #2 \(Bob`},
		{"older build without GET /account", acctest.TwoUsers(emulator.Options{NoAccountEndpoint: true}),
			`Every Managed Website Vanished.*Could not delete`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := acctest.New(t, acctest.Emulator(c.opts))
			cfg := func(key string) string {
				return env.ProviderBlockAt(env.URL, key) + `
resource "analytics_website" "a" {
  domain = "tf-acc-norefresh-a.example.com"
}
resource "analytics_website" "b" {
  domain = "tf-acc-norefresh-b.example.com"
}
`
			}
			// Every plan with -refresh=false, as `terraform destroy
			// -refresh=false` plans: Delete then gets the state as it is,
			// without a Read before it that would catch a foreign key or
			// vanished websites first.
			env.TestCase(t, resource.TestCase{AdditionalCLIOptions: &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}}, Steps: []resource.TestStep{
				{Config: cfg(acctest.KeyOwner)},
				{Config: cfg(acctest.KeyOther), Destroy: true, ExpectError: acctest.ExpectError(c.want)},
				// Without refresh, the plan is empty only if the state still
				// holds both websites.
				{
					PreConfig: func() {
						if n := len(env.Websites()); n != 2 {
							t.Errorf("the server holds %d websites, want 2", n)
						}
					},
					Config: cfg(acctest.KeyOwner), PlanOnly: true,
				},
			}})
		})
	}
}

// Adopting a website whose exclude_params were set in the web interface,
// then changing something else, must not erase them. On the other CLIs
// (acctest.RepeatPassSteps) it runs the import and the change after it,
// which keeps what the import's private state says; the steps that manage
// exclude_params ran on Terraform 1.8.5.
func TestAccWebsite_importKeepsExcludeParams(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read")
	acctest.NeedsEmulator(t, "checks exclude_params and the password on the server, which the API never returns, and seeds exclude_params as the web interface stores them")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	byID := env.Seed(env.Key, emulator.Website{Domain: "adopt-id.example.com", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeParams: "utm_source\nref"}})
	env.Seed(env.Key, emulator.Website{Domain: "adopt-domain.example.com", Settings: wire.Settings{Privacy: ptr(2), Password: "from-the-ui", Email: ptr(0), ExcludeBots: ptr(1), ExcludeParams: "&"}})
	cfg := func(extra string) string {
		return env.Config(fmt.Sprintf(`
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
		return env.CheckEmulator(domain, func(w emulator.Website) error {
			if w.ExcludeParams != params {
				return fmt.Errorf("%s: exclude_params is %q on the server, want %q", domain, w.ExcludeParams, params)
			}
			if w.Password != password {
				return fmt.Errorf("%s: the password was changed", domain)
			}
			return nil
		})
	}
	env.Test(t, acctest.RepeatPassSteps([]resource.TestStep{
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
			Check: env.CheckEmulator("adopt-id.example.com", unchanged),
		},
		{ // an unrelated change keeps what the API cannot return
			Config: cfg("email_reports = true"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("analytics_website.by_id", plancheck.ResourceActionUpdate)},
			},
			Check: resource.ComposeTestCheckFunc(
				checkKept("adopt-id.example.com", "utm_source\nref", ""),
				checkKept("adopt-domain.example.com", "&", "from-the-ui"),
				env.CheckEmulator("adopt-id.example.com", func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
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
	}, 0, 1)...)
}

// The password is dropped from the state when the server says none is set,
// even though the privacy stays "password", and the next apply sets it again.
func TestAccWebsite_passwordRemovedOutsideTerraform(t *testing.T) {
	acctest.Parent(t)
	// "0" is stored but reads back as no password, like an empty one.
	for _, removed := range []string{"", "0"} {
		t.Run(fmt.Sprintf("stored %q", removed), func(t *testing.T) {
			env := acctest.New(t)
			domain := env.Domain("pw-drift")
			cfg := env.Config(websiteHCL(fmt.Sprintf(`
  domain   = %q
  privacy  = "password"
  password = "pw-one-two"
`, domain)))
			env.Test(t, []resource.TestStep{
				{Config: cfg},
				{
					PreConfig: func() {
						if removed == "" {
							// The API clears a password only with privacy 0
							// or 1; privacy 2 sent without one keeps none.
							env.Change(t, domain, func(in *client.WebsiteInput) { in.Privacy, in.Password = 1, ptr("") })
							env.Change(t, domain, func(in *client.WebsiteInput) { in.Privacy = 2 })
							return
						}
						env.Change(t, domain, func(in *client.WebsiteInput) { in.Password = ptr(removed) })
					},
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
					},
					Check: resource.ComposeTestCheckFunc(
						env.CheckWebsite(domain, func(w client.Website) error {
							if !w.PasswordSet || w.PrivacyValue() != client.PrivacyPassword {
								return fmt.Errorf("password set %v, privacy %d on the server; want a password and privacy 2", w.PasswordSet, w.PrivacyValue())
							}
							return nil
						}),
						env.CheckStored(domain, func(w emulator.Website) error {
							if w.Password != "pw-one-two" {
								return fmt.Errorf("the password stored on the server is not the configured one")
							}
							return nil
						}),
					),
				},
			}...)
		})
	}
}

// Exclusion lists read back exactly: an entry with stray spaces, which the
// server never matches, shows as a difference that the apply repairs; line
// breaks of every kind do not.
func TestAccWebsite_exclusionsReadBackExactly(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("ips")
	cfg := env.Config(websiteHCL(fmt.Sprintf(`
  domain      = %q
  exclude_ips = ["10.0.0.1", "10.0.0.2"]
`, domain)))
	// setIPs stores v as the exclusion list (the API joins lines with LF).
	setIPs := func(v ...string) func() {
		return func() {
			env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = v })
		}
	}
	env.Test(t, []resource.TestStep{
		{Config: cfg},
		{
			PreConfig: setIPs("10.0.0.1 ", "10.0.0.2"),
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
			},
			Check: resource.ComposeTestCheckFunc(
				env.CheckWebsite(domain, func(w client.Website) error {
					if ips := strings.Join(w.ExcludeIPs, "|"); ips != "10.0.0.1|10.0.0.2" && ips != "10.0.0.2|10.0.0.1" {
						return fmt.Errorf("exclude_ips is %q on the server", ips)
					}
					return nil
				}),
				// One entry per line, as the provider sends it (the API shows
				// only the lines).
				env.CheckStored(domain, func(w emulator.Website) error {
					if raw := w.ExcludeIPs; raw != "10.0.0.1\n10.0.0.2" && raw != "10.0.0.2\n10.0.0.1" {
						return fmt.Errorf("exclude_ips is %q on the server", raw)
					}
					return nil
				}),
			),
		},
		{PreConfig: setIPs("10.0.0.2\r10.0.0.1"), Config: cfg, PlanOnly: true},
		// The trailing line break is trimmed by the server, as on every input.
		{PreConfig: setIPs("10.0.0.2\r", "10.0.0.1\r\n"), Config: cfg, PlanOnly: true},
	}...)
}

// A create that outlives the client's time limit, on a server whose
// uniqueness check and insert are not atomic, ends with one website. The
// first store is held before its insert until the provider either looks
// the domain up (the settle window: the store then lands and is adopted)
// or sends the store again (then it lands too, and the second store, which
// passed the uniqueness check meanwhile, makes a duplicate). The backoff
// is shortened, so only the settle window keeps the store from being sent
// again at once. Nothing here depends on how long anything takes.
func TestAccWebsite_slowCommitMakesNoDuplicate(t *testing.T) {
	acctest.NeedsEmulator(t, "injects a slow commit of the create (fault injection)")
	waiting, release, landed := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	land := func() {
		releaseOnce.Do(func() { close(release) })
		select {
		case <-landed:
		case <-time.After(time.Minute):
			t.Error("the held store never landed")
		}
	}
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })
	isWaiting := func() bool {
		select {
		case <-waiting:
			return true
		default:
			return false
		}
	}
	var posts atomic.Int32
	faults := &emulator.Faults{SlowCommitCount: 1, SlowCommitHold: func() {
		close(waiting)
		<-release
	}}
	env := acctest.New(t, acctest.Emulator(emulator.Options{Faults: faults}), acctest.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/websites"):
				if posts.Add(1) == 1 {
					defer close(landed) // the client has gone; the insert is done when this returns
				} else {
					land()
				}
			case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/websites") && isWaiting():
				land()
			}
			next.ServeHTTP(w, r)
		})
	}))
	fastRetries(t, env)
	cfg := reliableConfig(env, `timeout = "1s"`, websiteHCL(`domain = "slow.example.com"`))
	env.Test(t, []resource.TestStep{
		{
			Config: cfg,
			Check: func(s *terraform.State) error {
				if !isWaiting() {
					return errors.New("the create's store was never held before its insert")
				}
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
	acctest.NeedsEmulator(t, "turns a redirect on and off between steps (a handler around the emulator)")
	var redirect atomic.Bool
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if redirect.Load() {
				http.Redirect(w, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusMovedPermanently)
				return
			}
			next.ServeHTTP(w, r)
		})
	}))
	host := strings.TrimPrefix(env.URL, "http://")
	env.Test(t, []resource.TestStep{
		{Config: configAt(env, env.URL, acctest.KeyOwner)},
		{
			PreConfig:   func() { redirect.Store(true) },
			Config:      configAt(env, env.URL, acctest.KeyOwner),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`Unexpected Answer at base_url.*redirect.*https://` + strings.ReplaceAll(host, ".", `\.`) + `.*base_url`),
		},
		{PreConfig: func() { redirect.Store(false) }, Config: configAt(env, env.URL, acctest.KeyOwner), PlanOnly: true},
	}...)
}

// After an update, a read of the same website later in the same run (here
// a data source that depends on it) returns the new record, not one the
// bulk reader read before the update.
func TestAccWebsite_readAfterUpdateInOneRun(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read")
	env := acctest.New(t)
	domain := env.Domain("fresh")
	w := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: domain, ExcludeBots: true})
	cfg := func(trigger string) string {
		return env.Config(fmt.Sprintf(`
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
  domain        = %[3]q
  email_reports = data.analytics_website.before.id != ""
}
# Read during the apply, after the update.
data "analytics_website" "after" {
  id         = "%[1]d"
  depends_on = [analytics_website.test]
}
`, w.ID, trigger, domain))
	}
	env.Test(t, []resource.TestStep{
		{
			Config: cfg("one"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.analytics_website.before", tfjsonpath.New("email_reports"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.analytics_website.after", tfjsonpath.New("email_reports"), knownvalue.Bool(true)),
			},
		},
	}...)
}

// The fixtures of the data-safety tests above: two
// websites, the operations that must leave the state alone and the step
// that shows it did.

// twoWebsites is the configuration of the data-safety tests: two websites,
// so that "every website vanished at once" can be told from one deletion.
func twoWebsites(env *acctest.Env) string {
	return websiteHCL(fmt.Sprintf(`
  domain         = %q
  exclude_params = ["utm_source"]
`, env.Domain("safe-a"))) + fmt.Sprintf(`
resource "analytics_website" "second" {
  domain = %q
}
`, env.Domain("safe-b"))
}

// configAt is the provider block with another base_url or key, and the
// test's two websites.
func configAt(env *acctest.Env, baseURL, key string) string {
	return env.ProviderBlockAt(baseURL, key) + twoWebsites(env)
}

// keptSteps are the operations a user runs against a wrong base_url or with
// a wrong key, each of which must fail with want and leave the state alone:
// plan (a refresh), destroy and import. (apply -refresh-only: see
// TestAccWebsite_refreshOnlyKeepsState.)
func keptSteps(t *testing.T, env *acctest.Env, cfg, want, importWant string) []resource.TestStep {
	t.Helper()
	adoptID, setAdoptID := acctest.ProcessVariable("adopt_id")
	return []resource.TestStep{
		{Config: cfg, PlanOnly: true, ExpectError: acctest.ExpectError(want)},
		{Config: cfg, Destroy: true, ExpectError: acctest.ExpectError(want)},
		{ // an import block adopting a website of the test under another address
			PreConfig: func() {
				id := "1" // the emulator's first website, which the emulator's cases name
				if env.Emulator == nil {
					id = fmt.Sprint(env.MustWebsite(t, env.Domain("safe-a")).ID)
				}
				setAdoptID(id)
			},
			Config: cfg + fmt.Sprintf(`
variable %q {
  type = string
}
import {
  to = analytics_website.adopted
  id = var.%s
}
resource "analytics_website" "adopted" {
  domain = %q
}
`, adoptID, adoptID, env.Domain("safe-b")),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(importWant),
		},
	}
}

// keptState is the last step: with the right settings, the plan is empty,
// so the state still holds both websites as they are on the server (in the
// emulator's memory, or read through the API). It is a plan-only step (an
// apply would repair what it checks), and terraform-plugin-testing runs
// neither Check nor ConfigStateChecks in those: the checks are plan checks
// of the refreshed plan, which it runs.
func keptState(env *acctest.Env) resource.TestStep {
	return resource.TestStep{
		Config:   configAt(env, env.URL, env.Key),
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
					if env.Emulator != nil {
						n = len(env.Websites())
					} else {
						ws, err := env.TestWebsites(env.Key)
						if err != nil {
							return err
						}
						n = len(ws)
					}
					if n != 2 {
						return fmt.Errorf("the server holds %d websites of the test, want 2", n)
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

// account is key's user, as GET /account describes it; the test skips on
// an installation without that endpoint (an older build).
func account(t *testing.T, env *acctest.Env, key string) websiteOwner {
	t.Helper()
	a, err := env.API(key).Account(t.Context())
	if errors.Is(err, client.ErrAccountUnsupported) {
		t.Skip("the installation has no GET /api/v1/account (an older build): the messages differ (see the emulated case)")
	}
	if err != nil {
		t.Fatalf("GET /account: %v", err)
	}
	return *ownerOf(a)
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

// TestAccWebsite_refreshOnlyKeepsState: `terraform apply -refresh-only`,
// which saves whatever the refresh read, against a wrong base_url, with
// another user's key or behind a redirect, fails and leaves the state file
// exactly as it was.
func TestAccWebsite_refreshOnlyKeepsState(t *testing.T) {
	acctest.NeedsEmulator(t, "puts a web server's HTML 404 and a redirect in front of the API (handlers around the emulator)")
	w := acctest.NewWorkdir(t)
	var redirect atomic.Bool
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})), acctest.Wrap(proxy404, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if redirect.Load() {
				http.Redirect(rw, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusFound)
				return
			}
			next.ServeHTTP(rw, r)
		})
	}))
	w.Write("main.tf", configAt(env, env.URL, acctest.KeyOwner))
	w.MustRun(0, "apply", "-auto-approve")
	state := w.Read("terraform.tfstate")

	for _, c := range []struct {
		name, baseURL, key, want string
		redirect                 bool
	}{
		{"moved path prefix", env.URL + "/analytics", acctest.KeyOwner, "Unexpected Answer at base_url", false},
		{"proxy HTML 404", env.URL + "/proxy", acctest.KeyOwner, "Unexpected Answer at base_url", false},
		{"unknown path under /api/v1", env.URL + "/api/v1/v2", acctest.KeyOwner, "Unexpected Answer at base_url", false},
		{"another user's key", env.URL, acctest.KeyOther, "Website Belongs to Another User", false},
		{"redirect to https", env.URL, acctest.KeyOwner, "set base_url to https://", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			redirect.Store(c.redirect)
			defer redirect.Store(false)
			w.Write("main.tf", configAt(env, c.baseURL, c.key))
			out := w.MustRun(1, "apply", "-refresh-only", "-auto-approve")
			if !strings.Contains(strings.Join(strings.Fields(out), " "), c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, out)
			}
			if got := w.Read("terraform.tfstate"); got != state {
				t.Errorf("the state changed:\n%s", got)
			}
		})
	}
	w.Write("main.tf", configAt(env, env.URL, acctest.KeyOwner))
	w.MustRun(0, "plan", "-detailed-exitcode")
	w.DestroyIfLive()
}

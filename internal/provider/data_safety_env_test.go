package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The fixtures of the data-safety tests (data_safety_test.go): two users,
// two websites, the operations that must leave the state alone and the step
// that shows it did, for the in-process emulator (testEnv) and for any
// installation (accEnv).

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
// so the state still holds both websites as they are on the server.
func keptState(env *testEnv) resource.TestStep {
	return keptStateStep(env.configAt(env.URL, keyOwner), func() (int, error) { return len(env.Websites()), nil })
}

// keptStateStep is keptState's step, with serverWebsites counting the
// websites of the test on the server. It is a plan-only step (an apply
// would repair what it checks), and terraform-plugin-testing runs neither
// Check nor ConfigStateChecks in those: the checks are plan checks of the
// refreshed plan, which it runs.
func keptStateStep(cfg string, serverWebsites func() (int, error)) resource.TestStep {
	return resource.TestStep{
		Config:   cfg,
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
					n, err := serverWebsites()
					if err != nil {
						return err
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

// twoWebsites is twoWebsites with the test's domains.
func (env *accEnv) twoWebsites() string {
	return strings.NewReplacer(`"safe-a.example.com"`, fmt.Sprintf("%q", env.domain("safe-a")),
		`"safe-b.example.com"`, fmt.Sprintf("%q", env.domain("safe-b"))).Replace(twoWebsites())
}

// configAt is the provider block with another base_url or key, and the
// test's two websites.
func (env *accEnv) configAt(baseURL, key string) string {
	return env.providerBlock(baseURL, key) + env.twoWebsites()
}

// keptSteps is keptSteps for an accEnv: the import step adopts the test's
// first website by its id (read through the API when the step starts).
func (env *accEnv) keptSteps(t *testing.T, cfg, want, importWant string) []resource.TestStep {
	t.Helper()
	return []resource.TestStep{
		{Config: cfg, PlanOnly: true, ExpectError: expectError(want)},
		{Config: cfg, Destroy: true, ExpectError: expectError(want)},
		{ // an import block adopting the first website under another address
			PreConfig: func() {
				t.Setenv("TF_VAR_adopt_id", fmt.Sprint(env.mustWebsite(t, env.domain("safe-a")).ID))
			},
			Config: cfg + fmt.Sprintf(`
variable "adopt_id" {
  type = string
}
import {
  to = analytics_website.adopted
  id = var.adopt_id
}
resource "analytics_website" "adopted" {
  domain = %q
}
`, env.domain("safe-b")),
			PlanOnly:    true,
			ExpectError: expectError(importWant),
		},
	}
}

// account is key's user, as GET /account describes it; the test skips on
// an installation without that endpoint (an older build).
func (env *accEnv) account(t *testing.T, key string) websiteOwner {
	t.Helper()
	a, err := env.api(key).Account(t.Context())
	if errors.Is(err, client.ErrAccountUnsupported) {
		t.Skip("the installation has no GET /api/v1/account (an older build): the messages differ (see the emulated case)")
	}
	if err != nil {
		t.Fatalf("GET /account: %v", err)
	}
	return *ownerOf(a)
}

// keptState is keptState for an accEnv: the server, read through the API,
// still holds both websites.
func (env *accEnv) keptState() resource.TestStep {
	return keptStateStep(env.configAt(env.URL, env.Key), func() (int, error) {
		ws, err := env.testWebsites(env.Key)
		return len(ws), err
	})
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

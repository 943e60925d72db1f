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

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The fixtures of the data-safety tests (data_safety_test.go): two
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
	return []resource.TestStep{
		{Config: cfg, PlanOnly: true, ExpectError: expectError(want)},
		{Config: cfg, Destroy: true, ExpectError: expectError(want)},
		{ // an import block adopting the first website under another address
			PreConfig: func() {
				t.Setenv("TF_VAR_adopt_id", fmt.Sprint(env.MustWebsite(t, env.Domain("safe-a")).ID))
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
`, env.Domain("safe-b")),
			PlanOnly:    true,
			ExpectError: expectError(importWant),
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

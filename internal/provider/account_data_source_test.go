package provider

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Keys of users with the plans of a real installation's users
// (emulator.PlanNamed).
const (
	keyUnlimitedPlan = "plan-unlimited-00000000000000000000000000000000000000000000000000"
	keyThreePlan     = "plan-three-websites-000000000000000000000000000000000000000000000"
	keyNoEmailPlan   = "plan-no-email-reports-0000000000000000000000000000000000000000000"
	keyNoAPIPlan     = "plan-no-api-000000000000000000000000000000000000000000000000000000"
	keyDefaultPlan   = "plan-default-00000000000000000000000000000000000000000000000000000"
)

// planUsers is an installation whose users have each kind of plan; the
// first, the Env's key, is first (keys[0]).
func planUsers(t *testing.T, first string) emulator.Options {
	t.Helper()
	plan := func(name string) *emulator.Plan {
		p, ok := emulator.PlanNamed(name)
		if !ok {
			t.Fatalf("no plan %q", name)
		}
		return &p
	}
	users := []emulator.User{
		{Key: keyUnlimitedPlan, Plan: plan("unlimited")},
		{Key: keyThreePlan, Plan: plan("three-websites")},
		{Key: keyNoEmailPlan, Plan: plan("no-email-reports")},
		{Key: keyNoAPIPlan, Plan: plan("no-api")},
		{Key: keyDefaultPlan, Name: "Dora", Email: "dora@example.test"},
	}
	for i, u := range users {
		if u.Key == first {
			users[0], users[i] = users[i], users[0]
		}
	}
	return emulator.Options{Users: users}
}

const accountHCL = "data \"analytics_account\" \"this\" {}\n"

// The data source on each kind of plan: the user, the plan's typed
// features (-1 and the _unlimited booleans), and the websites held.
func TestAccAccountDataSource_plans(t *testing.T) {
	acctest.NeedsEmulator(t, "needs users with each kind of plan, which the emulator sets up")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	env.Seed(keyUnlimitedPlan, emulator.Website{Domain: "u.example.com"})
	env.Seed(keyThreePlan, emulator.Website{Domain: "t1.example.com"})
	env.Seed(keyThreePlan, emulator.Website{Domain: "t2.example.com"})
	type want struct {
		planID, planName               string
		websites, pageviews, count     int64
		api, email, export             bool
		websitesUnlimited, pvUnlimited bool
	}
	at := func(name string, keys ...string) tfjsonpath.Path {
		path := tfjsonpath.New(name)
		for _, k := range keys {
			path = path.AtMapKey(k)
		}
		return path
	}
	step := func(key string, w want) resource.TestStep {
		check := func(v knownvalue.Check, name string, keys ...string) statecheck.StateCheck {
			return statecheck.ExpectKnownValue("data.analytics_account.this", at(name, keys...), v)
		}
		return resource.TestStep{
			Config: env.ProviderBlockAt(env.URL, key) + accountHCL,
			ConfigStateChecks: []statecheck.StateCheck{
				check(knownvalue.StringExact(fmt.Sprint(env.UserID(key))), "id"),
				check(knownvalue.StringExact("en"), "locale"),
				check(knownvalue.StringExact("UTC"), "timezone"),
				check(knownvalue.StringExact("2024-01-01T00:00:00.000000Z"), "created_at"),
				check(knownvalue.StringExact(w.planID), "plan", "id"),
				check(knownvalue.StringExact(w.planName), "plan", "name"),
				check(knownvalue.Int64Exact(w.websites), "plan", "websites"),
				check(knownvalue.Bool(w.websitesUnlimited), "plan", "websites_unlimited"),
				check(knownvalue.Int64Exact(w.pageviews), "plan", "pageviews"),
				check(knownvalue.Bool(w.pvUnlimited), "plan", "pageviews_unlimited"),
				check(knownvalue.Bool(w.api), "plan", "api"),
				check(knownvalue.Bool(w.email), "plan", "email_reports"),
				check(knownvalue.Bool(w.export), "plan", "data_export"),
				check(knownvalue.Int64Exact(w.count), "websites_count"),
			},
		}
	}
	dora := step(keyDefaultPlan, want{planID: "1", planName: "Default", websites: -1, pageviews: 1000,
		api: true, email: true, export: true, websitesUnlimited: true})
	dora.ConfigStateChecks = append(dora.ConfigStateChecks,
		statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("name"), knownvalue.StringExact("Dora")),
		statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("email"), knownvalue.StringExact("dora@example.test")))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			step(keyUnlimitedPlan, want{planID: "1", planName: "Unlimited", websites: -1, pageviews: -1, count: 1,
				api: true, email: true, export: true, websitesUnlimited: true, pvUnlimited: true}),
			step(keyThreePlan, want{planID: "3", planName: "Starter", websites: 3, pageviews: 10000, count: 2,
				api: true, email: true, export: true}),
			step(keyNoEmailPlan, want{planID: "4", planName: "Basic", websites: 10, pageviews: 100000,
				api: true, export: true}),
			dora,
			{
				Config:      env.ProviderBlockAt(env.URL, keyNoAPIPlan) + accountHCL,
				ExpectError: acctest.ExpectError(`API Access Denied.*Could not read the account of the API key's user.*HTTP 403.*You don't have access to this feature`),
			},
		},
	})
}

// A build without GET /account: the data source says so.
func TestAccAccountDataSource_olderBuild(t *testing.T) {
	acctest.NeedsEmulator(t, "emulates an older build without GET /api/v1/account")
	env := acctest.New(t, acctest.Emulator(emulator.Options{NoAccountEndpoint: true}))
	env.Test(t, resource.TestStep{
		Config:      env.Config(accountHCL),
		ExpectError: acctest.ExpectError(`Account Not Available on This Server.*has no GET /api/v1/account.*upgrade the installation`),
	})
}

// The installation's key (the live mode's, or the default emulator's
// first user): what the data source reads is what the API answers (on an
// older build without GET /account, the data source's error).
func TestAccAccountDataSource_installationKey(t *testing.T) {
	env := acctest.New(t)
	c := env.API(env.Key)
	a, err := c.Account(t.Context())
	if errors.Is(err, client.ErrAccountUnsupported) { // an older build: the data source says so
		env.Test(t, resource.TestStep{
			Config:      env.Config(accountHCL),
			ExpectError: acctest.ExpectError(`Account Not Available on This Server`),
		})
		return
	}
	if err != nil {
		t.Fatalf("GET /account: %v", err)
	}
	p, err := c.ListWebsites(t.Context(), client.ListOptions{PerPage: client.PerPageValues[0]})
	if err != nil {
		t.Fatal(err)
	}
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("id"), knownvalue.StringExact(fmt.Sprint(a.ID))),
		statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("email"), knownvalue.StringExact(a.Email)),
		statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("plan").AtMapKey("api"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("websites_count"), knownvalue.Int64Exact(int64(p.Total))),
	}
	if w := a.Plan.Features.Websites; w != nil {
		checks = append(checks,
			statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("plan").AtMapKey("websites"), knownvalue.Int64Exact(int64(*w))),
			statecheck.ExpectKnownValue("data.analytics_account.this", tfjsonpath.New("plan").AtMapKey("websites_unlimited"), knownvalue.Bool(*w == -1)))
	}
	t.Logf("the key's user: id %d, plan %q, %d websites", a.ID, a.Plan.Name, p.Total)
	env.Test(t, resource.TestStep{Config: env.Config(accountHCL), ConfigStateChecks: checks})
}

// preconditionExample is the documented precondition, as the data source's
// page shows it.
func preconditionExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "data-sources", "analytics_account", "precondition.tf"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fiveSites sets the example's websites to five.
const fiveSites = `-var=sites=["one.example.com","two.example.com","three.example.com","four.example.com","five.example.com"]`

// The documented precondition stops a plan of five websites on a plan of
// three at plan time, and nothing is written; the same configuration passes
// on an unlimited plan.
func TestAccAccount_preconditionStopsFiveOnThree(t *testing.T) {
	acctest.NeedsEmulator(t, "needs a user whose plan allows three websites, and counts the emulator's requests")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	w.Write("provider.tf", env.ProviderBlock())
	w.Write("main.tf", preconditionExample(t))
	env.ResetStats()
	out, code := w.Run("plan", fiveSites)
	t.Logf("terraform plan, five websites on a plan of three (exit code %d):\n%s", code, out)
	if code != 1 || !acctest.ExpectError(`Error: Resource precondition failed.*This configuration manages 5 websites, but the plan "Starter" allows 3\.`).MatchString(out) {
		t.Errorf("plan: exit code %d, want 1 and the precondition's message:\n%s", code, out)
	}
	st := env.Stats()
	t.Logf("requests of the plan: %v", st.ByRoute)
	if st.ByRoute["GET /api/v1/account"] != 1 || st.ByRoute["GET /api/v1/websites"] != 1 || st.Total != 2 {
		t.Errorf("requests: %v, want one GET /account and one list request, and no write", st.ByRoute)
	}
	if out, code := w.Run("apply", "-auto-approve", fiveSites); code != 1 || env.Writes() != 0 || len(env.Websites()) != 0 {
		t.Errorf("apply: exit code %d, %d writes, %d websites; want 1, none, none:\n%s", code, env.Writes(), len(env.Websites()), out)
	}
	// The example's three websites fit.
	if out := w.MustRun(0, "plan"); !strings.Contains(out, "3 to add") {
		t.Errorf("three websites on a plan of three:\n%s", out)
	}

	w.Write("provider.tf", env.ProviderBlockAt(env.URL, keyUnlimitedPlan))
	if out := w.MustRun(0, "plan", fiveSites); !strings.Contains(out, "5 to add") {
		t.Errorf("an unlimited plan:\n%s", out)
	}
	// E-mail reports on a plan without them stop the plan too.
	w.Write("provider.tf", env.ProviderBlockAt(env.URL, keyNoEmailPlan))
	if out, code := w.Run("plan"); code != 1 || !acctest.ExpectError(`The plan "Basic" sends no e-mail reports: set email_reports = false\.`).MatchString(out) {
		t.Errorf("e-mail reports on a plan without them: exit code %d:\n%s", code, out)
	}
	if out := w.MustRun(0, "plan", "-var=email_reports=false"); !strings.Contains(out, "3 to add") {
		t.Errorf("without e-mail reports:\n%s", out)
	}
}

// What the documentation says reading the account costs: one GET /account
// each time Terraform starts the provider, shared by the data source and
// the checks: once for a plan, twice for a terraform apply (plan, then
// apply).
func TestAccAccount_costPerProviderRun(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyNoEmailPlan)))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+accountHCL+`
resource "analytics_website" "a" {
  domain        = "a.example.com"
  email_reports = true
}
`)
	env.ResetStats()
	w.MustRun(0, "plan")
	if n := env.Stats().ByRoute["GET /api/v1/account"]; n != 1 {
		t.Errorf("terraform plan: %d GET /account, want 1", n)
	}
	env.ResetStats()
	w.MustRun(0, "apply", "-auto-approve")
	if n := env.Stats().ByRoute["GET /api/v1/account"]; n != 2 {
		t.Errorf("terraform apply: %d GET /account, want 2", n)
	}
}

package provider

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/hostiletest"
)

// The canary test: the real provider binary, run by the CLI at TF_LOG=trace
// against the emulator behind a hostile server (internal/hostiletest) that
// echoes what it receives in every place an answer can carry it, with canary
// secrets (an API key, a header value with a trailing space, a website
// password, a password inside a URL holding a "/"). Steps may fail (the
// answers are hostile); the test fails when a piece of a canary's random
// core is in the CLI's standard output or error, the trace log, the state
// (but the website's sensitive password attribute) or `terraform show
// -json` (but its configuration section, the CLI's own copy of the
// configuration's constants).

// canaries are the secrets of one canary test.
type canaries struct {
	key, header, password, urlPassword hostiletest.Canary
}

func newCanaries() canaries {
	return canaries{
		// api_key refuses white space (without repeating the key).
		key: hostiletest.NewCanary("the API key", func(core string) string {
			return strings.ReplaceAll(hostiletest.Wrap(core), " ", "")
		}),
		header:   hostiletest.NewCanary("the header value", func(core string) string { return hostiletest.Wrap(core) + " " }),
		password: hostiletest.NewCanary("the website password", nil),
		// After "1/" a URL parser that stops the host at the first "/"
		// sees host "user:1" or "127.0.0.1:1" and no user information. No
		// white space: URLs with it are refused before anything parses
		// them.
		urlPassword: hostiletest.NewCanary("the URL password", func(core string) string {
			return `1/+="\<&` + core + `&<\"=+?#`
		}),
	}
}

func (c canaries) all() []hostiletest.Canary {
	return []hostiletest.Canary{c.key, c.header, c.password, c.urlPassword}
}

// server is the emulator, with one user whose key is the canary, behind
// the hostile server.
func (c canaries) server(t *testing.T) *hostiletest.Server {
	t.Helper()
	return hostiletest.New(t, emulator.Options{
		Users:     []emulator.User{{Key: c.key.Value, Name: "Canary", Email: "canary@example.test"}},
		RateLimit: acctest.RateLimit, RateWindow: acctest.RateWindow,
	})
}

// canaryDomain is the website the canary test manages.
const canaryDomain = "tf-acc-canary.example.com"

// canaryVariables declares the configuration's secrets, given through TF_VAR_*.
// The source has no host: each CLI reads it as its own default registry's,
// under which the harness serves the in-process provider
// (TF_ACC_PROVIDER_HOST) and installs the built one (dev_overrides).
const canaryVariables = `
terraform {
  required_providers {
    analytics = { source = "analytics-tf/analytics" }
  }
}
variable "api_key" {
  type      = string
  sensitive = true
}
variable "header" {
  type      = string
  sensitive = true
}
variable "password" {
  type      = string
  sensitive = true
}
variable "import_id" {
  type = string
}
variable "url_password" {
  type      = string
  sensitive = true
}
`

// canaryProvider is the provider block at baseURL, with settings added.
func canaryProvider(baseURL string, settings ...string) string {
	return canaryVariables + fmt.Sprintf(`
provider "analytics" {
  base_url    = %q
  api_key     = var.api_key
  headers     = { "X-Canary-Token" = var.header }
  max_retries = 0
  timeout     = "10s"
%s}
`, baseURL, strings.Join(append(settings, ""), "\n"))
}

const canaryWebsite = `
resource "analytics_website" "canary" {
  domain   = "` + canaryDomain + `"
  privacy  = "password"
  password = var.password
}
`

// first schedules answer for the first request, whatever it is.
func first(answer hostiletest.Answer) []hostiletest.Rule {
	return []hostiletest.Rule{{Answers: []hostiletest.Answer{answer}}}
}

// on schedules answer for the first request of method to route.
func on(method, route string, answer hostiletest.Answer) []hostiletest.Rule {
	return []hostiletest.Rule{{Method: method, Route: route, Answers: []hostiletest.Answer{answer}}}
}

func TestAccSecrets_canaries(t *testing.T) {
	acctest.CLIDependent(t, "what each CLI prints and logs of a secret; failed on OpenTofu once while it passed on Terraform")
	acctest.NeedsEmulator(t, "the hostile server sits in front of the in-process emulator")
	w := acctest.NewWorkdir(t)
	c := newCanaries()
	hostile := c.server(t)
	r := &canaryRun{t: t, w: w, hostile: hostile, c: c, traceLog: filepath.Join(t.TempDir(), "trace.log")}
	defer r.report() // also when a step stops the test
	importID := "https://admin:" + c.urlPassword.Value + "@" + canaryDomain
	w.Env = []string{"TF_LOG=trace", "TF_LOG_PATH=" + r.traceLog,
		"TF_VAR_api_key=" + c.key.Value, "TF_VAR_header=" + c.header.Value, "TF_VAR_password=" + c.password.Value,
		"TF_VAR_import_id=" + importID, "TF_VAR_url_password=" + c.urlPassword.Value}
	provider := canaryProvider(hostile.URL)
	w.Write("main.tf", provider+canaryWebsite)

	// Plan: the first request of the run (the provider's check of the
	// installation) gets each answer in turn.
	for _, a := range hostiletest.Answers {
		r.step("plan, first request answered "+string(a), answered, first(a), "plan")
	}
	// Apply: the create gets hostile answers, then goes through.
	for _, a := range []hostiletest.Answer{hostiletest.FieldErrors, hostiletest.PasswordJSON, hostiletest.PHPBody} {
		r.step("apply, create answered "+string(a), answered, on("POST", "/websites", a), "apply", "-auto-approve")
	}
	r.step("apply", succeeds, nil, "apply", "-auto-approve")
	r.show("after apply")
	// Refresh: the website's read gets hostile answers.
	for _, a := range []hostiletest.Answer{hostiletest.Redirect, hostiletest.HTMLPage, hostiletest.PHPBody} {
		r.step("refresh, read answered "+string(a), answered, on("GET", "", a), "refresh")
	}
	r.step("refresh", succeeds, nil, "refresh")
	r.show("after refresh")

	// Import by a URL with user:password@ (an import block, so that the ID
	// is not on the command line, which the CLI logs): refused, without
	// repeating the ID; once with the first request answered 422, in case
	// the provider asks the API before it parses the ID.
	w.Write("main.tf", provider+canaryWebsite+`
import {
  to = analytics_website.imported
  id = var.import_id
}
resource "analytics_website" "imported" {
  domain = "`+canaryDomain+`"
}
`)
	r.importID = importID
	r.step("import by URL, first request answered 422", anyExit, first(hostiletest.FieldErrors), "plan", "-refresh=false")
	r.step("import by URL", anyExit, nil, "plan", "-refresh=false")
	r.importID = ""

	// The export action (Terraform 1.14 and later).
	if !w.IsOpenTofu() && acctest.CLIAtLeast(t, w.CLI, tfversion.Version1_14_0.String()) {
		w.Write("main.tf", provider+canaryWebsite+exportAction("x", fmt.Sprintf(
			"    website_id = analytics_website.canary.id\n    directory  = %q\n", filepath.Join(t.TempDir(), "exports"))))
		for _, a := range []hostiletest.Answer{hostiletest.FieldErrors, hostiletest.PHPBody, hostiletest.PasswordJSON} {
			r.step("export action, statistics answered "+string(a), answered, on("GET", "/stats/{id}", a),
				"apply", "-auto-approve", "-invoke=action.analytics_website_statistics_export.x")
		}
		r.step("export action", succeeds, nil, "apply", "-auto-approve", "-invoke=action.analytics_website_statistics_export.x")
	} else {
		r.steps = append(r.steps, "export action: skipped (actions need Terraform 1.14 or later)")
	}

	// Destroy: the delete gets hostile answers, then goes through.
	w.Write("main.tf", provider+canaryWebsite)
	for _, a := range []hostiletest.Answer{hostiletest.FieldErrors, hostiletest.HTMLPage} {
		r.step("destroy, delete answered "+string(a), answered, on("DELETE", "/websites/{id}", a), "destroy", "-auto-approve")
	}
	r.step("destroy", succeeds, nil, "destroy", "-auto-approve")
	if sites := hostile.Emulator.Websites(); len(sites) != 0 {
		t.Errorf("the destroy left %d websites", len(sites))
	}

	// URLs with the password: the tracking code's address, and the
	// installation's (whose host a lax parser reads as 127.0.0.1:1).
	// (Through a sensitive variable: the CLI quotes a constant's line of the
	// configuration in a diagnostic about it.)
	w.Write("main.tf", canaryProvider(hostile.URL,
		`  tracking_url = "https://admin:${var.url_password}@analytics.example.com"`)+canaryWebsite)
	r.step("plan, tracking_url with a password", anyExit, nil, "plan")
	w.Write("main.tf", canaryProvider("http://127.0.0.1:${var.url_password}@analytics.example.com")+canaryWebsite)
	r.step("plan, base_url with a password", anyExit, nil, "plan")
}

// TestAccSecrets_canariesInProcess: the same hostile answers to the provider
// served in-process (terraform-plugin-testing), where what the test sees is
// the diagnostics of each step: none may hold a piece of a canary.
func TestAccSecrets_canariesInProcess(t *testing.T) {
	acctest.CLIDependent(t, "what each CLI prints and logs of a secret; failed on OpenTofu once while it passed on Terraform")
	acctest.NeedsEmulator(t, "the hostile server sits in front of the in-process emulator")
	acctest.Parent(t) // beside the other tests: its hostile server is its own
	acctest.PreCheck(t)
	c := newCanaries()
	hostile := c.server(t)
	importID := "https://admin:" + c.urlPassword.Value + "@" + canaryDomain
	// The secrets reach the CLI as each step's variables (a variables file
	// in the step's working directory), not the process's environment, so
	// that the test runs beside others.
	vars := config.Variables{}
	for name, value := range map[string]string{"api_key": c.key.Value, "header": c.header.Value,
		"password": c.password.Value, "import_id": importID, "url_password": c.urlPassword.Value} {
		vars[name] = config.StringVariable(value)
	}
	cfg := canaryProvider(hostile.URL) + canaryWebsite
	var (
		current string
		leaks   []hostiletest.Leak
		ran     []string
	)
	// step is a step whose requests get the answers of rules, the previous
	// step's schedule checked as spent.
	step := func(name string, rules []hostiletest.Rule, s resource.TestStep) resource.TestStep {
		s.PreConfig = func() {
			if unspent := hostile.Unspent(); len(unspent) > 0 {
				t.Errorf("%s: scheduled answers never served: %v", current, unspent)
			}
			current = name
			ran = append(ran, name)
			hostile.Set(rules...)
		}
		if s.Config == "" && !s.RefreshState {
			s.Config = cfg
		}
		s.ConfigVariables = vars
		return s
	}
	// The create first: a failed check of the installation (the first
	// request) does not stop an apply.
	var steps []resource.TestStep
	for _, a := range []hostiletest.Answer{hostiletest.FieldErrors, hostiletest.PasswordJSON} {
		steps = append(steps, step("apply, create answered "+string(a), on("POST", "/websites", a), resource.TestStep{}))
	}
	steps = append(steps, step("apply", nil, resource.TestStep{}))
	for _, a := range hostiletest.Answers {
		steps = append(steps, step("apply, first request answered "+string(a), first(a), resource.TestStep{}))
	}
	for _, a := range []hostiletest.Answer{hostiletest.Redirect, hostiletest.PHPBody} {
		steps = append(steps, step("refresh, read answered "+string(a), on("GET", "", a), resource.TestStep{RefreshState: true}))
	}
	steps = append(steps,
		step("import by URL", nil, resource.TestStep{ResourceName: "analytics_website.canary",
			ImportState: true, ImportStateId: importID, ImportStateVerify: true}),
		step("destroy, delete answered "+string(hostiletest.HTMLPage), on("DELETE", "/websites/{id}", hostiletest.HTMLPage),
			resource.TestStep{Destroy: true}))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		ErrorCheck: func(err error) error {
			leaks = append(leaks, hostiletest.Find(current+": diagnostics", err.Error(), c.all())...)
			return nil // the hostile answers make steps fail; the test is about leaks
		},
		Steps: steps,
	})
	if unspent := hostile.Unspent(); len(unspent) > 0 {
		t.Errorf("%s: scheduled answers never served: %v", current, unspent)
	}
	t.Logf("steps: %s", strings.Join(ran, "; "))
	for _, l := range leaks {
		t.Error(l)
	}
}

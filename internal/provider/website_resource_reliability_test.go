package provider

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// The reliability ("chaos") acceptance tests: the provider against an
// emulator that throttles and injects faults. Backoffs are shortened with
// fastRetries; waits the server asks for (Retry-After, whole
// seconds) are not, so 429s are kept rare. A request's time limit is
// shortened to chaosSettings' timeout, since a create whose answer was lost
// waits twice that long for the store to land before it is sent again (the
// emulator answers at once; a real server may not).
const chaosSettings = "max_retries = 10\n  timeout = \"3s\""

// reliableConfig is a provider block with retry settings, followed by hcl.
func reliableConfig(env *acctest.Env, settings string, hcl ...string) string {
	return env.ProviderBlock(settings) + strings.Join(hcl, "\n")
}

// websitesHCL is n websites analytics_website.w[i] whose settings vary with
// the index and with version (0 for the first apply, 1 to update them all).
func websitesHCL(n, version int) string {
	return fmt.Sprintf(`
resource "analytics_website" "w" {
  count          = %[1]d
  domain         = "site-${count.index}.example.com"
  privacy        = (count.index + %[2]d) %% 3 == 0 ? "private" : "public"
  email_reports  = (count.index + %[2]d) %% 2 == 0
  exclude_bots   = %[2]d == 0
  exclude_params = ["utm_source"]
  exclude_ips    = ["10.${count.index}.0.0/16", "203.0.113.%[2]d"]
}
`, n, version)
}

// checkServerMatchesState checks that the emulator holds exactly the n
// websites of websitesHCL (no duplicate, none missing, none foreign) and
// that the state agrees with it field by field.
func checkServerMatchesState(env *acctest.Env, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error { return checkServerMatchesStateOf(env, s, "w", "site-", n) }
}

// checkServerMatchesStateOf is checkServerMatchesState for the n websites
// analytics_website.<name>[i] of s whose domains start with prefix.
func checkServerMatchesStateOf(env *acctest.Env, s *terraform.State, name, prefix string, n int) error {
	ws := env.Websites()
	if len(ws) != n {
		return fmt.Errorf("the server holds %d websites, want exactly %d", len(ws), n)
	}
	byDomain := map[string]emulator.Website{}
	for _, w := range ws {
		byDomain[w.Domain] = w
	}
	for i := range n {
		if _, ok := byDomain[fmt.Sprintf("%s%d.example.com", prefix, i)]; !ok {
			return fmt.Errorf("the server has no website %s%d.example.com", prefix, i)
		}
	}
	seen := 0
	for addr, rs := range s.RootModule().Resources {
		if rs.Type != "analytics_website" || !strings.HasPrefix(addr, "analytics_website."+name+".") {
			continue
		}
		seen++
		a := rs.Primary.Attributes
		id, err := strconv.ParseInt(a["id"], 10, 64)
		if err != nil {
			return fmt.Errorf("%s: id %q", addr, a["id"])
		}
		w, ok := env.Website(id)
		if !ok {
			return fmt.Errorf("%s: id %d is not on the server", addr, id)
		}
		privacy := map[string]int{"public": 0, "private": 1, "password": 2}[a["privacy"]]
		var ips []string
		for k, v := range a {
			if strings.HasPrefix(k, "exclude_ips.") && k != "exclude_ips.#" {
				ips = append(ips, v)
			}
		}
		sort.Strings(ips)
		for _, c := range []struct {
			name   string
			state  string
			server string
		}{
			{"domain", a["domain"], w.Domain},
			{"privacy", strconv.Itoa(privacy), intString(w.Privacy)},
			{"email_reports", map[string]string{"true": "1", "false": "0"}[a["email_reports"]], intString(w.Email)},
			{"exclude_bots", map[string]string{"true": "1", "false": "0"}[a["exclude_bots"]], intString(w.ExcludeBots)},
			{"exclude_ips", strings.Join(ips, ","), sortedLines(w.ExcludeIPs)},
			{"exclude_params", a["exclude_params.0"], w.ExcludeParams},
			{"created_at", a["created_at"], w.CreatedAt.UTC().Format(time.RFC3339)},
			{"updated_at", a["updated_at"], w.UpdatedAt.UTC().Format(time.RFC3339)},
		} {
			if c.state != c.server {
				return fmt.Errorf("%s: %s is %q in the state but %q on the server", addr, c.name, c.state, c.server)
			}
		}
	}
	if seen != n {
		return fmt.Errorf("the state holds %d websites, want %d", seen, n)
	}
	return nil
}

func intString(p *int) string {
	if p == nil {
		return "NULL"
	}
	return strconv.Itoa(*p)
}

// chaosSteps creates n websites, updates them all, and (through
// CheckDestroy) destroys them, checking the server against the state each
// time and that a second plan is empty.
func chaosSteps(t *testing.T, env *acctest.Env, settings string, n int) resource.TestCase {
	t.Helper()
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	return resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:           reliableConfig(env, settings, websitesHCL(n, 0)),
				Check:            checkServerMatchesState(env, n),
				ConfigPlanChecks: empty,
			},
			{
				Config: reliableConfig(env, settings, websitesHCL(n, 1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("analytics_website.w[0]", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkServerMatchesState(env, n),
			},
		},
	}
}

// TestAccWebsite_chaos applies, updates and destroys 50 websites while the
// server injects every kind of fault.
func TestAccWebsite_chaos(t *testing.T) {
	acctest.NeedsEmulator(t, "injects every kind of fault into the server (fault injection)")
	env := acctest.New(t, acctest.Emulator(emulator.Options{Faults: &emulator.Faults{
		Seed:    20240601,
		Latency: time.Millisecond, LatencyJitter: 3 * time.Millisecond,
		ErrorRate:            0.06,
		ThrottleRate:         0.003,
		ThrottleFor:          300 * time.Millisecond,
		ResetBeforeRate:      0.04,
		ResetAfterRate:       0.05,
		ErrorAfterCommitRate: 0.05,
		TruncateRate:         0.04,
		MalformedRate:        0.04,
		SlowBodyRate:         0.04, SlowBodyDelay: 5 * time.Millisecond,
	}}))
	fastRetries(t, env)
	start := time.Now()
	env.TestCase(t, chaosSteps(t, env, chaosSettings, 50))
	t.Logf("50 websites under faults in %s; faults injected: %v; requests answered: %v",
		time.Since(start).Round(time.Millisecond), env.FaultCountsByMethod(), env.Stats().ByStatus)
	// With these rates some creates lose their answer after the commit
	// (and are adopted) in all but a negligible share of runs.
	c := env.FaultCountsByMethod()
	if c["reset-after POST"]+c["error-after-commit POST"]+c["truncate POST"]+c["malformed POST"] == 0 {
		t.Error("no create lost its answer after the commit: the adoption was not exercised")
	}
}

// TestAccWebsite_chaosEachFault runs the same lifecycle on a few websites
// with one kind of fault at a time, at a high rate: each kind has an
// emulator of its own, reached through a provider alias of its own, so
// that one configuration (one run of the CLI's commands) takes them all.
func TestAccWebsite_chaosEachFault(t *testing.T) {
	acctest.NeedsEmulator(t, "injects one kind of fault at a time into the server (fault injection)")
	kinds := []struct {
		name   string
		faults emulator.Faults
	}{
		{"latency", emulator.Faults{Latency: 20 * time.Millisecond, LatencyJitter: 20 * time.Millisecond}},
		{"errors", emulator.Faults{ErrorRate: 0.3}},
		{"throttle bursts", emulator.Faults{ThrottleRate: 0.05, ThrottleFor: 200 * time.Millisecond}},
		{"reset before commit", emulator.Faults{ResetBeforeRate: 0.3}},
		{"reset after commit", emulator.Faults{ResetAfterRate: 0.3}},
		{"error after commit", emulator.Faults{ErrorAfterCommitRate: 0.3}},
		{"truncated bodies", emulator.Faults{TruncateRate: 0.3}},
		{"malformed JSON", emulator.Faults{MalformedRate: 0.3}},
		{"slow bodies", emulator.Faults{SlowBodyRate: 0.5, SlowBodyDelay: 10 * time.Millisecond}},
	}
	const n = 6
	envs := make([]*acctest.Env, len(kinds))
	for i, k := range kinds {
		f := k.faults
		f.Seed = 7
		envs[i] = acctest.New(t, acctest.Emulator(emulator.Options{Faults: &f}))
		fastRetries(t, envs[i])
	}
	// config is every kind's provider and websites: the provider analytics-tf/
	// analyticsf<i> (the provider under test, served in-process under a
	// name of its own, so that each has a server of its own) and the
	// websites analytics_website.f<i> (n each, as websitesHCL's).
	config := func(version int) string {
		var b strings.Builder
		b.WriteString("terraform {\n  required_providers {\n")
		for i := range envs {
			fmt.Fprintf(&b, "    analyticsf%d = { source = \"analytics-tf/analyticsf%d\" }\n", i, i)
		}
		b.WriteString("  }\n}\n")
		for i, env := range envs {
			block := strings.Replace(env.ProviderBlock(chaosSettings), `provider "analytics" {`, fmt.Sprintf("provider \"analyticsf%d\" {", i), 1)
			if i > 0 { // the emulators share the default key: declare its variable once
				_, decl := env.APIKeyRef(env.Key)
				block = strings.Replace(block, decl, "", 1)
			}
			b.WriteString(block)
			b.WriteString(strings.Replace(strings.Replace(websitesHCL(n, version),
				`"analytics_website" "w" {`, fmt.Sprintf("\"analytics_website\" \"f%d\" {\n  provider = analyticsf%d", i, i), 1),
				"site-${", fmt.Sprintf("f%d-site-${", i), 1))
		}
		return b.String()
	}
	factories := map[string]func() (tfprotov6.ProviderServer, error){}
	for i := range envs {
		factories[fmt.Sprintf("analyticsf%d", i)] = acctest.Factories["analytics"]
	}
	check := func(s *terraform.State) error {
		for i, env := range envs {
			if err := checkServerMatchesStateOf(env, s, fmt.Sprintf("f%d", i), fmt.Sprintf("f%d-site-", i), n); err != nil {
				return fmt.Errorf("%s: %w", kinds[i].name, err)
			}
		}
		return nil
	}
	checkDestroy := func(s *terraform.State) error {
		for i, env := range envs {
			if err := env.CheckDestroy(s); err != nil {
				return fmt.Errorf("%s: %w", kinds[i].name, err)
			}
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             checkDestroy,
		Steps: []resource.TestStep{
			{
				Config:           config(0),
				Check:            check,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: config(1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("analytics_website.f0[0]", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: check,
			},
		},
	})
	for i, env := range envs {
		t.Logf("%s: faults injected: %v", kinds[i].name, env.FaultCountsByMethod())
		injected := 0
		for k, c := range env.FaultCounts() {
			if k != emulator.FaultLatency || kinds[i].name == "latency" {
				injected += c
			}
		}
		if injected == 0 {
			t.Errorf("%s: no fault was injected", kinds[i].name)
		}
	}
}

// TestAccWebsite_throttle applies 60 websites against the server's
// throttle (20 requests per 2s window, a shortened minute) with Terraform's
// default parallelism of 10: the pacer keeps below it, without errors. The
// creates and the deletes each span three windows at least; more websites
// would cross more windows the same way.
func TestAccWebsite_throttle(t *testing.T) {
	acctest.NeedsEmulator(t, "shortens the throttle window to 2s and applies 60 websites at once, which against a real 60 requests/minute would take minutes and starve everyone else of the address")
	const n = 60
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 20, RateWindow: 2 * time.Second}))
	start := time.Now()
	env.TestCase(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:           env.Config(websitesHCL(n, 0)),
			Check:            checkServerMatchesState(env, n),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
	st := env.Stats()
	t.Logf("%d websites in %s: %d requests, %d answered 429", n, time.Since(start).Round(time.Millisecond), st.Total, st.Throttled)
	// Each provider process (plan, apply, refresh, destroy) learns the
	// window's end once, from a single refused probe.
	if st.Throttled > 10 {
		t.Errorf("%d requests answered 429; the pacer should avoid nearly all (by status %v)", st.Throttled, st.ByStatus)
	}
}

// TestAccWebsite_requestsPerMinute caps the request rate client-side.
func TestAccWebsite_requestsPerMinute(t *testing.T) {
	acctest.NeedsEmulator(t, "measures the client-side cap with the emulator's request counts")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	var applied time.Duration
	env.TestCase(t, resource.TestCase{
		Steps: []resource.TestStep{{
			PreConfig: func() { env.ResetStats(); applied = -time.Duration(time.Now().UnixNano()) },
			Config:    reliableConfig(env, "requests_per_minute = 600", websitesHCL(6, 0)),
			Check: func(s *terraform.State) error {
				applied += time.Duration(time.Now().UnixNano())
				// 6 creates at 10 per second take at least half a second.
				if applied < 500*time.Millisecond {
					return fmt.Errorf("6 creates took %s at 600 requests per minute", applied)
				}
				return checkServerMatchesState(env, 6)(s)
			},
		}},
	})
}

// TestAccWebsite_lostCreateOfExistingDomain: a create whose first answer is
// lost meets a domain that existed before the apply: it is not adopted, and
// the error says to import it.
func TestAccWebsite_lostCreateOfExistingDomain(t *testing.T) {
	acctest.NeedsEmulator(t, "loses the first answer of a create (fault injection)")
	env := acctest.New(t, acctest.Emulator(emulator.Options{Faults: &emulator.Faults{ResetBeforeRate: 1, MaxFaults: 1, Methods: []string{"POST"}}}))
	fastRetries(t, env)
	env.Seed(env.Key, emulator.Website{Domain: "taken.example.com", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)},
		CreatedAt: time.Now().Add(-time.Hour)})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      reliableConfig(env, "", websiteHCL(`domain = "taken.example.com"`)),
			ExpectError: acctest.ExpectError(`Domain Already Exists .*already been taken.*import it`),
		}},
	})
	if n := len(env.Websites()); n != 1 {
		t.Errorf("the server holds %d websites", n)
	}
}

// TestAccWebsite_malformedAnswer: a server that keeps answering reads with
// malformed JSON fails the refresh with an error that says what was
// expected.
func TestAccWebsite_malformedAnswer(t *testing.T) {
	acctest.NeedsEmulator(t, "makes the server answer with malformed JSON (fault injection)")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	fastRetries(t, env)
	cfg := reliableConfig(env, "max_retries = 1", websiteHCL(`domain = "example.com"`))
	env.TestCase(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					if err := env.SetFaults(&emulator.Faults{MalformedRate: 1, Methods: []string{"GET"}}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				// Whichever GET fails first (the website's or, where the
				// state has no owner, the key's account), the error says
				// what was expected and that it was retried.
				ExpectError: acctest.ExpectError(`Unexpected Response From the Analytics API .*could not decode the response \(expected a JSON object.*\(after 2 attempts\)`),
			},
			{
				PreConfig: func() {
					if err := env.SetFaults(nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
			},
		},
	})
}

// TestAccWebsite_retryPastDeadline: a server that asks for a wait longer
// than the operation's time limit makes the create fail at once, saying so.
func TestAccWebsite_retryPastDeadline(t *testing.T) {
	acctest.NeedsEmulator(t, "makes the server throttle every create for a minute (fault injection)")
	env := acctest.New(t, acctest.Emulator(emulator.Options{Faults: &emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Minute, Methods: []string{"POST"}}}))
	start := time.Now()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: reliableConfig(env, "", websiteHCL(`
  domain = "example.com"
  timeouts {
    create = "20s"
  }
`)),
			ExpectError: acctest.ExpectError(`Timed Out Talking to the Analytics API .*the server asked to retry after 1m0s \(HTTP 429\), but waiting .* would end past the operation's deadline`),
		}},
	})
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the failure took %s; it should come at once, not at the deadline", d)
	}
	if n := len(env.Websites()); n != 0 {
		t.Errorf("the server holds %d websites", n)
	}
}

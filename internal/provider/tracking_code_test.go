package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// wantTrackingCode is the application's tracking code for an installation
// at publicURL, written out as its web interface shows it (not built with
// the provider's own function, which the tests check against it).
func wantTrackingCode(publicURL string, dnt bool) string {
	return wantTrackingCodeFrom(publicURL, publicURL+"/js/script.js", dnt)
}

// wantTrackingCodeFrom is wantTrackingCode with the script served from
// scriptURL (the installation's CDN setting).
func wantTrackingCodeFrom(publicURL, scriptURL string, dnt bool) string {
	return fmt.Sprintf(`<script data-host="%s" data-dnt="%t" src="%s" id="ZwSg9rf6GA" async defer></script>`,
		publicURL, dnt, scriptURL)
}

func TestTrackingCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, script string
		dnt         bool
		want        string
	}{
		{"https://analytics.example.com", "", false,
			`<script data-host="https://analytics.example.com" data-dnt="false" src="https://analytics.example.com/js/script.js" id="ZwSg9rf6GA" async defer></script>`},
		{"https://example.org/analytics", "", true,
			`<script data-host="https://example.org/analytics" data-dnt="true" src="https://example.org/analytics/js/script.js" id="ZwSg9rf6GA" async defer></script>`},
		// Escaped as the web interface's template escapes it.
		{`https://example.org/a"b<c>&'`, "", false,
			`<script data-host="https://example.org/a&#34;b&lt;c&gt;&amp;&#39;" data-dnt="false" src="https://example.org/a&#34;b&lt;c&gt;&amp;&#39;/js/script.js" id="ZwSg9rf6GA" async defer></script>`},
		// The script from a CDN: src is its address, data-host stays.
		{"https://analytics.example.com", "https://cdn.example.net/pa/script.js?v=2&x=1", false,
			`<script data-host="https://analytics.example.com" data-dnt="false" src="https://cdn.example.net/pa/script.js?v=2&amp;x=1" id="ZwSg9rf6GA" async defer></script>`},
	} {
		if got := trackingCode(tc.url, tc.script, tc.dnt); got != tc.want {
			t.Errorf("trackingCode(%q, %q, %v) =\n%s\nwant\n%s", tc.url, tc.script, tc.dnt, got, tc.want)
		}
	}
}

// TestResolveTrackingCode: tracking_url, else ANALYTICS_TRACKING_URL, else
// base_url without /api/v1; tracking_respect_dnt, else its variable. A bad
// value from the environment is an error naming the variable.
func TestResolveTrackingCode(t *testing.T) {
	t.Parallel()
	const api = "https://internal.example:8443/analytics/api/v1"
	for _, tc := range []struct {
		name                      string
		url, script               types.String
		dnt                       types.Bool
		envURL, envScript, envDNT string
		want, wantErr             string
	}{
		{name: "defaults", url: types.StringNull(), dnt: types.BoolNull(),
			want: wantTrackingCode("https://internal.example:8443/analytics", false)},
		{name: "attributes", url: types.StringValue("https://stats.example.com/"), dnt: types.BoolValue(true),
			envURL: "https://ignored.example", envDNT: "false", want: wantTrackingCode("https://stats.example.com", true)},
		{name: "environment", url: types.StringNull(), dnt: types.BoolNull(),
			envURL: "https://env.example.com/x", envDNT: "true", want: wantTrackingCode("https://env.example.com/x", true)},
		{name: "dnt attribute false beats environment", url: types.StringNull(), dnt: types.BoolValue(false),
			envDNT: "true", want: wantTrackingCode("https://internal.example:8443/analytics", false)},
		{name: "bad environment URL", url: types.StringNull(), dnt: types.BoolNull(), envURL: "stats.example.com",
			wantErr: `The ANALYTICS_TRACKING_URL environment variable "stats.example.com" is not an absolute http`},
		{name: "bad environment DNT", url: types.StringNull(), dnt: types.BoolNull(), envDNT: "yes please",
			wantErr: `The ANALYTICS_TRACKING_RESPECT_DNT environment variable is "yes please"; set it to true or false`},
		{name: "script attribute", url: types.StringValue("https://stats.example.com"),
			script: types.StringValue(" https://cdn.example.net/s.js "), envScript: "https://ignored.example/s.js",
			want: wantTrackingCodeFrom("https://stats.example.com", "https://cdn.example.net/s.js", false)},
		{name: "script environment", envScript: "https://cdn.example.net/env.js",
			want: wantTrackingCodeFrom("https://internal.example:8443/analytics", "https://cdn.example.net/env.js", false)},
		{name: "bad environment script", envScript: "cdn.example.net/s.js",
			wantErr: `The ANALYTICS_TRACKING_SCRIPT_URL environment variable "cdn.example.net/s.js" is not an absolute http`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := envOf(map[string]string{EnvTrackingURL: tc.envURL, EnvTrackingScriptURL: tc.envScript,
				EnvTrackingRespectDNT: tc.envDNT})
			var diags diag.Diagnostics
			got := resolveTrackingCode(providerModel{TrackingURL: tc.url, TrackingScriptURL: tc.script, // zero values are null
				TrackingRespectDNT: tc.dnt}, api, nil, getenv, &diags)
			if tc.wantErr != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), tc.wantErr) {
					t.Fatalf("want an error containing %q, got %v", tc.wantErr, diags)
				}
				return
			}
			if diags.HasError() || got != tc.want {
				t.Errorf("got %q (%v), want %q", got, diags, tc.want)
			}
		})
	}
}

func TestTrackingScriptURLProblem(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://cdn.example.com/js/script.js":      "",
		"http://127.0.0.1:8080/script.js?v=3":       "",
		"https://cdn.example.com/script.js#x":       "",
		"":                                          "is empty",
		"cdn.example.com/js/script.js":              "is not an absolute http:// or https:// URL",
		"//cdn.example.com/js/script.js":            "is not an absolute http:// or https:// URL",
		"/js/script.js":                             "is not an absolute http:// or https:// URL",
		"ftp://cdn.example.com/script.js":           "is not an absolute http:// or https:// URL",
		"https://":                                  "is not an absolute http:// or https:// URL",
		"https://user:pw@cdn.example.com/script.js": "contains user credentials",
		"https://cdn.example.com/a b.js":            "white space or a line break",
	} {
		got, _ := trackingScriptURLRule.check("tracking_script_url", raw)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("trackingScriptURLRule.check(%q) = %q, want it to contain %q", raw, got, want)
		} else if want != "" && !strings.HasPrefix(got, "tracking_script_url") {
			t.Errorf("trackingScriptURLRule.check(%q) = %q: does not name the setting", raw, got)
		}
	}
}

func TestTrackingURLProblem(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://analytics.example.com":       "",
		"http://127.0.0.1:8080/analytics/":    "",
		"":                                    "is empty",
		"analytics.example.com":               "is not an absolute http:// or https:// URL",
		"/analytics":                          "is not an absolute http:// or https:// URL",
		"ftp://analytics.example.com":         "is not an absolute http:// or https:// URL",
		"https://":                            "is not an absolute http:// or https:// URL",
		"https://user:pw@analytics.example":   "contains user credentials",
		"https://analytics.example/?x=1":      "must not contain a query string or fragment",
		"https://analytics.example/#top":      "must not contain a query string or fragment",
		"https://analytics.example/\nx":       "white space or a line break",
		"https://analytics.example.com/a b/c": "white space or a line break",
	} {
		got, _ := trackingURLRule.check("tracking_url", raw)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("trackingURLRule.check(%q) = %q, want it to contain %q", raw, got, want)
		} else if want != "" && !strings.HasPrefix(got, "tracking_url") {
			t.Errorf("trackingURLRule.check(%q) = %q: does not name the setting", raw, got)
		}
	}
}

// trackingSurfaces reads tracking_code from every surface but the list
// resource (website_list_resource_query_test.go checks that one): the resource, both data
// sources, and an output, as a pipeline would hand it on.
const trackingSurfaces = `
resource "analytics_website" "shop" {
  domain = %q
}

data "analytics_website" "shop" {
  id = analytics_website.shop.id
}

data "analytics_websites" "shop" {
  search = analytics_website.shop.domain
}

output "tracking_code" {
  value = analytics_website.shop.tracking_code
}
`

// expectTrackingCode checks tracking_code on every surface of
// trackingSurfaces.
func expectTrackingCode(want string) []statecheck.StateCheck {
	v := knownvalue.StringExact(want)
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue("analytics_website.shop", tfjsonpath.New("tracking_code"), v),
		statecheck.ExpectKnownValue("data.analytics_website.shop", tfjsonpath.New("tracking_code"), v),
		statecheck.ExpectKnownValue("data.analytics_websites.shop", tfjsonpath.New("websites").AtSliceIndex(0).AtMapKey("tracking_code"), v),
		statecheck.ExpectKnownOutputValue("tracking_code", v),
	}
}

// onlyAttributeChanges checks that the plan updates resource in place and
// changes nothing but attr.
type onlyAttributeChanges struct{ resource, attr string }

func (c onlyAttributeChanges) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.resource {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		for k := range after {
			if k != c.attr && fmt.Sprint(before[k]) != fmt.Sprint(after[k]) {
				resp.Error = fmt.Errorf("%s: %s changes from %v to %v; only %s should", c.resource, k, before[k], after[k], c.attr)
				return
			}
		}
		if fmt.Sprint(before[c.attr]) == fmt.Sprint(after[c.attr]) {
			resp.Error = fmt.Errorf("%s: %s does not change (%v)", c.resource, c.attr, after[c.attr])
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the plan", c.resource)
}

// TestAccTrackingCode_everySurface: tracking_code is the installation's
// snippet on the resource, both data sources and an output; changing
// tracking_url or tracking_respect_dnt (in the provider block or through
// their environment variables) changes only tracking_code in the plan, and
// the apply sends no request that changes anything on the server. On the
// other CLIs (acctest.RepeatPassSteps) it runs the create and the import,
// which depends on the CLI; the tracking settings' steps ran on Terraform
// 1.8.5.
func TestAccTrackingCode_everySurface(t *testing.T) {
	acctest.CLIDependent(t, "the import command: Terraform 1.12 and later send and expect a resource identity")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := "tf-acc-tracking.example.com"
	config := func(extra string) string {
		return env.ProviderBlock(extra) + fmt.Sprintf(trackingSurfaces, domain)
	}
	const public = "https://stats.example.org/analytics"
	var before int
	noWrites := func(*terraform.State) error {
		if n := env.Writes() - before; n != 0 {
			return fmt.Errorf("the apply of a tracking setting sent %d write requests: %v", n, env.Stats().ByRoute)
		}
		return nil
	}
	onlyTrackingCode := []plancheck.PlanCheck{
		plancheck.ExpectResourceAction("analytics_website.shop", plancheck.ResourceActionUpdate),
		onlyAttributeChanges{"analytics_website.shop", "tracking_code"},
	}
	env.Test(t, acctest.RepeatPassSteps([]resource.TestStep{
		{
			Config:            config(""),
			ConfigStateChecks: expectTrackingCode(wantTrackingCode(env.URL, false)),
		},
		{
			PreConfig: func() { before = env.Writes() },
			Config:    config(fmt.Sprintf("  tracking_url = %q\n  tracking_respect_dnt = true", public+"/")),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(onlyTrackingCode,
				plancheck.ExpectKnownValue("analytics_website.shop", tfjsonpath.New("tracking_code"),
					knownvalue.StringExact(wantTrackingCode(public, true))))},
			ConfigStateChecks: expectTrackingCode(wantTrackingCode(public, true)),
			Check:             noWrites,
		},
		{
			// Through the environment: the variables apply where the block
			// sets nothing.
			PreConfig: func() {
				before = env.Writes()
				env.SetProviderEnv(EnvTrackingURL, "https://env.example.net")
				env.SetProviderEnv(EnvTrackingRespectDNT, "false")
			},
			Config:            config(""),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: onlyTrackingCode},
			ConfigStateChecks: expectTrackingCode(wantTrackingCode("https://env.example.net", false)),
			Check:             noWrites,
		},
		{
			PreConfig: func() {
				before = env.Writes()
				env.SetProviderEnv(EnvTrackingURL, "")
				env.SetProviderEnv(EnvTrackingRespectDNT, "")
			},
			Config:            config(""),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: onlyTrackingCode},
			ConfigStateChecks: expectTrackingCode(wantTrackingCode(env.URL, false)),
			Check:             noWrites,
		},
		{
			// A change of a server setting keeps tracking_code known in the
			// plan.
			Config: strings.Replace(config(""), "domain = ", "email_reports = true\n  domain = ", 1),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue("analytics_website.shop", tfjsonpath.New("tracking_code"),
					knownvalue.StringExact(wantTrackingCode(env.URL, false))),
			}},
		},
		{
			ResourceName:      "analytics_website.shop",
			ImportState:       true,
			ImportStateVerify: true,
		},
	}, 0, 5)...)
}

// TestAccTrackingCode_scriptURL: tracking_script_url (or its environment
// variable) moves the script's src to a CDN while data-host stays
// tracking_url, on every surface; setting, changing and removing it plans
// only tracking_code and sends no request that changes anything.
func TestAccTrackingCode_scriptURL(t *testing.T) {
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := "tf-acc-tracking-script.example.com"
	config := func(extra string) string {
		return env.ProviderBlock(extra) + fmt.Sprintf(trackingSurfaces, domain)
	}
	const (
		public = "https://stats.example.org"
		cdn    = "https://cdn.example.net/analytics/script.js?v=2"
	)
	var before int
	step := func(pre func(), settings, want string) resource.TestStep {
		return resource.TestStep{
			PreConfig: func() {
				before = env.Writes()
				if pre != nil {
					pre()
				}
			},
			Config: config(settings),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("analytics_website.shop", plancheck.ResourceActionUpdate),
				onlyAttributeChanges{"analytics_website.shop", "tracking_code"},
				plancheck.ExpectKnownValue("analytics_website.shop", tfjsonpath.New("tracking_code"), knownvalue.StringExact(want)),
			}},
			ConfigStateChecks: expectTrackingCode(want),
			Check: func(*terraform.State) error {
				if n := env.Writes() - before; n != 0 {
					return fmt.Errorf("the apply of tracking_script_url sent %d write requests: %v", n, env.Stats().ByRoute)
				}
				return nil
			},
		}
	}
	withURL := fmt.Sprintf("  tracking_url = %q\n", public)
	env.Test(t,
		resource.TestStep{
			Config:            config(withURL),
			ConfigStateChecks: expectTrackingCode(wantTrackingCode(public, false)),
		},
		step(nil, withURL+fmt.Sprintf("  tracking_script_url = %q\n", cdn),
			wantTrackingCodeFrom(public, strings.ReplaceAll(cdn, "&", "&amp;"), false)),
		step(nil, withURL+fmt.Sprintf("  tracking_script_url = %q\n", "https://cdn.example.net/other.js"),
			wantTrackingCodeFrom(public, "https://cdn.example.net/other.js", false)),
		step(func() { env.SetProviderEnv(EnvTrackingScriptURL, "https://env-cdn.example.net/script.js") }, withURL,
			wantTrackingCodeFrom(public, "https://env-cdn.example.net/script.js", false)),
		step(func() { env.SetProviderEnv(EnvTrackingScriptURL, "") }, withURL, wantTrackingCode(public, false)),
	)
}

// TestAccTrackingCode_invalidURL: a tracking_url or tracking_script_url that
// is not an absolute http(s) URL fails at plan time, naming the setting,
// before any request.
func TestAccTrackingCode_invalidURL(t *testing.T) {
	env := acctest.New(t)
	var steps []resource.TestStep
	for _, tc := range []struct{ attr, value, summary, want string }{
		{"tracking_url", "stats.example.com", "Invalid Tracking URL",
			`tracking_url "stats.example.com" is not an absolute http:// or https:// URL`},
		{"tracking_url", "https://stats.example.com/?site=1", "Invalid Tracking URL",
			`tracking_url must not contain a query string or fragment`},
		{"tracking_script_url", "cdn.example.com/js/script.js", "Invalid Tracking Script URL",
			`tracking_script_url "cdn.example.com/js/script.js" is not an absolute http:// or https:// URL`},
		{"tracking_script_url", "/js/script.js", "Invalid Tracking Script URL",
			`tracking_script_url "/js/script.js" is not an absolute http:// or https:// URL`},
	} {
		steps = append(steps, resource.TestStep{
			Config: env.ProviderBlock(fmt.Sprintf("  %s = %q", tc.attr, tc.value)) +
				fmt.Sprintf(trackingSurfaces, env.Domain("bad-tracking-url")),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(tc.summary + `[\s\S]*` + strings.ReplaceAll(regexp.QuoteMeta(tc.want), " ", `\s+`)),
		})
	}
	env.Test(t, steps...) // each step fails as it should, and the next runs
}

// TestAccTrackingCode_live: the tracking code on every surface against the
// installation of the live mode (or the local one), with a path prefix in
// tracking_url.
func TestAccTrackingCode_live(t *testing.T) {
	env := acctest.New(t)
	const public = "https://www.example.net/analytics"
	env.Test(t,
		resource.TestStep{
			Config:            env.ProviderBlock("") + fmt.Sprintf(trackingSurfaces, env.Domain("tracking")),
			ConfigStateChecks: expectTrackingCode(wantTrackingCode(strings.TrimSuffix(strings.TrimRight(env.URL, "/"), "/api/v1"), false)),
		},
		resource.TestStep{
			Config: env.ProviderBlock(fmt.Sprintf("  tracking_url = %q\n  tracking_respect_dnt = true", public)) +
				fmt.Sprintf(trackingSurfaces, env.Domain("tracking")),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				onlyAttributeChanges{"analytics_website.shop", "tracking_code"},
			}},
			ConfigStateChecks: expectTrackingCode(wantTrackingCode(public, true)),
		},
	)
}

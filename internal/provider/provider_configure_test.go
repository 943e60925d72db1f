package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// unknownValue marks an attribute whose value is unknown (only in these
// provider unit tests).
type unknownValue struct{}

// configureProvider calls the provider's Configure with the given provider
// block attributes (string, bool or map[string]string values, or
// unknownValue{}; others null).
func configureProvider(t *testing.T, attrs map[string]any, deferralAllowed bool) provider.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	p := New("test")()
	var schemaResp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &schemaResp)
	typ := schemaResp.Schema.Type().TerraformType(ctx)
	obj, ok := typ.(tftypes.Object)
	if !ok {
		t.Fatalf("provider schema type %s is not an object", typ)
	}
	vals := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		switch v := attrs[name].(type) {
		case nil:
			vals[name] = tftypes.NewValue(at, nil)
		case unknownValue:
			vals[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		case string:
			vals[name] = tftypes.NewValue(at, v)
		case bool:
			vals[name] = tftypes.NewValue(at, v)
		case map[string]string:
			m := map[string]tftypes.Value{}
			for k, e := range v {
				m[k] = tftypes.NewValue(tftypes.String, e)
			}
			vals[name] = tftypes.NewValue(at, m)
		default:
			t.Fatalf("unsupported value %T for %s", v, name)
		}
	}
	req := provider.ConfigureRequest{
		TerraformVersion:   "1.8.5",
		Config:             tfsdk.Config{Schema: schemaResp.Schema, Raw: tftypes.NewValue(typ, vals)},
		ClientCapabilities: provider.ConfigureProviderClientCapabilities{DeferralAllowed: deferralAllowed},
	}
	var resp provider.ConfigureResponse
	p.Configure(ctx, req, &resp)
	return resp
}

func warningsOf(diags diag.Diagnostics) []string {
	var out []string
	for _, d := range diags.Warnings() {
		out = append(out, d.Summary()+": "+d.Detail())
	}
	return out
}

// Plain http:// to a host that is not loopback carries the key in clear
// text: a warning on base_url. Loopback hosts (the emulator, an SSH tunnel)
// and https:// get none.
func TestProviderConfigure_plainHTTPWarning(t *testing.T) {
	for _, c := range []struct {
		baseURL string
		warn    bool
	}{
		{"http://analytics.example.com", true},
		{"http://203.0.113.7:8080/analytics", true},
		{"http://10.0.0.5", true},
		{"http://[2001:db8::1]:8080", true},
		{"http://127.0.0.1:8080", false},
		{"http://127.1.2.3", false},
		{"http://localhost:8080", false},
		{"http://LOCALHOST", false},
		{"http://[::1]:8080", false},
		{"https://analytics.example.com", false},
		{"HTTPS://analytics.example.com", false},
	} {
		t.Run(c.baseURL, func(t *testing.T) {
			t.Setenv(EnvBaseURL, "")
			t.Setenv(EnvAPIKey, "")
			resp := configureProvider(t, map[string]any{"base_url": c.baseURL, "api_key": "test-key"}, false)
			if resp.Diagnostics.HasError() {
				t.Fatalf("Configure failed: %v", resp.Diagnostics)
			}
			warnings := warningsOf(resp.Diagnostics)
			switch {
			case c.warn && (len(warnings) != 1 || !strings.Contains(warnings[0], "API Key Sent Unencrypted") ||
				!strings.Contains(warnings[0], "Use https://")):
				t.Errorf("want one \"API Key Sent Unencrypted\" warning, got %q", warnings)
			case !c.warn && len(warnings) > 0:
				t.Errorf("want no warning, got %q", warnings)
			}
			if resp.ResourceData == nil || resp.DataSourceData == nil {
				t.Error("the provider was not configured")
			}
		})
	}
}

// The warning also applies to a base URL from the environment, and never
// shows credentials (which validation refuses anyway).
func TestProviderConfigure_plainHTTPWarningFromEnvironment(t *testing.T) {
	t.Setenv(EnvBaseURL, "http://analytics.example.com/stats")
	t.Setenv(EnvAPIKey, "env-key")
	resp := configureProvider(t, nil, false)
	if resp.Diagnostics.HasError() {
		t.Fatalf("Configure failed: %v", resp.Diagnostics)
	}
	if w := warningsOf(resp.Diagnostics); len(w) != 1 || !strings.Contains(w[0], "http://analytics.example.com/stats") {
		t.Errorf("want the unencrypted warning naming the URL, got %q", w)
	}
}

// Unknown provider settings (values computed by other resources) are
// handled the framework's way: with deferral support, Configure defers
// (reason ProviderConfigUnknown) without error; without it, Configure
// leaves the provider unconfigured without error, and only resources and
// data sources that must reach the API report it. Nothing is validated
// before the values are known, so unknown values never produce the
// "missing" errors.
func TestProviderConfigure_unknownValues(t *testing.T) {
	for name, attrs := range map[string]map[string]any{
		"base_url":       {"base_url": unknownValue{}, "api_key": "k"},
		"api_key":        {"base_url": "https://analytics.example.com", "api_key": unknownValue{}},
		"timeout":        {"base_url": "https://analytics.example.com", "api_key": "k", "timeout": unknownValue{}},
		"all":            {"base_url": unknownValue{}, "api_key": unknownValue{}, "timeout": unknownValue{}},
		"url with unset": {"base_url": unknownValue{}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(EnvBaseURL, "")
			t.Setenv(EnvAPIKey, "")
			deferred := configureProvider(t, attrs, true)
			if deferred.Diagnostics.HasError() {
				t.Errorf("with deferral: unexpected errors %v", deferred.Diagnostics)
			}
			if deferred.Deferred == nil || deferred.Deferred.Reason != provider.DeferredReasonProviderConfigUnknown {
				t.Errorf("with deferral: Deferred = %+v, want reason ProviderConfigUnknown", deferred.Deferred)
			}
			if deferred.ResourceData != nil || deferred.DataSourceData != nil {
				t.Error("with deferral: provider data set although the configuration is unknown")
			}

			plain := configureProvider(t, attrs, false)
			if len(plain.Diagnostics) > 0 {
				t.Errorf("without deferral: unexpected diagnostics %v", plain.Diagnostics)
			}
			if plain.Deferred != nil {
				t.Errorf("without deferral: Deferred = %+v, want nil (not allowed)", plain.Deferred)
			}
			if plain.ResourceData != nil || plain.DataSourceData != nil {
				t.Error("without deferral: provider data set although the configuration is unknown")
			}
		})
	}
}

// A resource or data source of an unconfigured provider says why it cannot
// reach the API.
func TestProviderNotConfigured(t *testing.T) {
	var diags diag.Diagnostics
	if c := dataClient((&websiteResource{}).data, &diags); c != nil || !diags.HasError() {
		t.Fatalf("dataClient() = %v, %v; want nil and an error", c, diags)
	}
	if got := diags.Errors()[0]; got.Summary() != "Provider Not Configured" || !strings.Contains(got.Detail(), "base_url or api_key is not known yet") {
		t.Errorf("unexpected error %q: %q", got.Summary(), got.Detail())
	}
}

// End to end with the CLI: a base_url only known after apply (here from
// terraform_data) does not stop the plan of a resource, which is created
// once the provider is configured at apply; a data source, which must be
// read during the plan, gets the "Provider Not Configured" error.
func TestAccProvider_unknownConfiguration(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("unknown-provider")
	key, decl := env.APIKeyRef(env.Key)
	cfg := func(extra string) string {
		return decl + `
resource "terraform_data" "url" {
  input = "` + env.URL + `"
}

provider "analytics" {
  base_url = terraform_data.url.output
  api_key  = ` + key + `
}
` + extra
	}
	env.Test(t, []resource.TestStep{
		{
			Config:      cfg(fmt.Sprintf(`data "analytics_website" "x" { domain = %q }`, env.Domain("seen-late"))),
			ExpectError: expectError(`Provider Not Configured.*base_url or api_key is not known yet.*apply those first`),
		},
		{
			Config: cfg(websiteHCL(fmt.Sprintf(`domain = %q`, domain))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate)},
			},
			Check: env.CheckWebsite(domain, func(client.Website) error { return nil }),
		},
	}...)
}

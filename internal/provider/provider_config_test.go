package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/tlstest"
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
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
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
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
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
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
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
			ExpectError: acctest.ExpectError(`Provider Not Configured.*base_url or api_key is not known yet.*apply those first`),
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

// networkEnv lists every environment variable of the network settings.
var networkEnv = []string{EnvCAFile, EnvCAPEM, EnvCertFile, EnvCertPEM, EnvKeyFile, EnvKeyPEM, EnvSkipVerify, EnvHeaders}

func clearNetworkEnv(t *testing.T) {
	t.Helper()
	for _, k := range append([]string{EnvBaseURL, EnvAPIKey}, networkEnv...) {
		t.Setenv(k, "")
	}
}

// listThrough lists the websites through the client Configure made.
func listThrough(t *testing.T, resp provider.ConfigureResponse) error {
	t.Helper()
	data, ok := resp.ResourceData.(*providerData)
	if !ok || data == nil {
		t.Fatalf("the provider was not configured: %v", resp.Diagnostics)
	}
	_, err := data.client.ListWebsites(context.Background(), client.ListOptions{})
	return err
}

// Every TLS setting and its environment variable reaches a server that
// needs it: a private CA, a client certificate, skip_verify for a
// certificate of another host. Not parallel: it sets the environment.
func TestProviderConfigure_tlsSettings(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	p := newTestPKI(t)
	private := newTLSTestEnv(t, serverTLS(p.server, nil))
	mtls := newTLSTestEnv(t, serverTLS(p.server, p.ca))
	wrongHost := newTLSTestEnv(t, serverTLS(p.wrongHost, nil))
	caFile := tlstest.WriteFile(t, "ca.pem", p.ca.PEM)
	certFile := tlstest.WriteFile(t, "client.pem", p.clientCert.CertPEM)
	keyFile := tlstest.WriteFile(t, "client-key.pem", p.clientCert.KeyPEM)
	ca, cert, key := string(p.ca.PEM), string(p.clientCert.CertPEM), string(p.clientCert.KeyPEM)

	for _, tc := range []struct {
		name  string
		env   *acctest.Env
		attrs map[string]any
		vars  map[string]string
		warn  string
	}{
		{name: "ca_file", env: private, attrs: map[string]any{"ca_file": caFile}},
		{name: "ca_pem", env: private, attrs: map[string]any{"ca_pem": ca}},
		{name: EnvCAFile, env: private, vars: map[string]string{EnvCAFile: caFile}},
		{name: EnvCAPEM, env: private, vars: map[string]string{EnvCAPEM: ca}},
		{name: "ca_pem over " + EnvCAFile, env: private, attrs: map[string]any{"ca_pem": ca},
			vars: map[string]string{EnvCAFile: "/nonexistent/ca.pem"}},
		{name: "cert_file and key_file", env: mtls, attrs: map[string]any{"ca_pem": ca, "cert_file": certFile, "key_file": keyFile}},
		{name: "cert_pem and key_pem", env: mtls, attrs: map[string]any{"ca_pem": ca, "cert_pem": cert, "key_pem": key}},
		{name: "cert_file and key_pem", env: mtls, attrs: map[string]any{"ca_pem": ca, "cert_file": certFile, "key_pem": key}},
		{name: EnvCertFile + " and " + EnvKeyFile, env: mtls,
			vars: map[string]string{EnvCAPEM: ca, EnvCertFile: certFile, EnvKeyFile: keyFile}},
		{name: EnvCertPEM + " and " + EnvKeyPEM, env: mtls,
			vars: map[string]string{EnvCAPEM: ca, EnvCertPEM: cert, EnvKeyPEM: key}},
		{name: "skip_verify", env: wrongHost, attrs: map[string]any{"skip_verify": true}, warn: "skip_verify (or ANALYTICS_SKIP_VERIFY) is true"},
		{name: EnvSkipVerify, env: wrongHost, vars: map[string]string{EnvSkipVerify: "true"}, warn: "anyone on the network path"},
		{name: "headers", env: private, attrs: map[string]any{"ca_pem": ca, "headers": map[string]string{"X-Access-Token": "tok-123456"}}},
		{name: EnvHeaders, env: private, vars: map[string]string{EnvCAPEM: ca, EnvHeaders: `{"X-Access-Token": "tok-123456"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearNetworkEnv(t)
			for k, v := range tc.vars {
				t.Setenv(k, v)
			}
			attrs := map[string]any{"base_url": tc.env.URL, "api_key": tc.env.Key}
			for k, v := range tc.attrs {
				attrs[k] = v
			}
			resp := configureProvider(t, attrs, false)
			if resp.Diagnostics.HasError() {
				t.Fatalf("Configure: %v", resp.Diagnostics)
			}
			w := warningsOf(resp.Diagnostics)
			switch {
			case tc.warn == "" && len(w) > 0:
				t.Errorf("unexpected warnings %q", w)
			case tc.warn != "" && (len(w) != 1 || !strings.Contains(w[0], tc.warn)):
				t.Errorf("warnings %q, want one with %q", w, tc.warn)
			}
			if err := listThrough(t, resp); err != nil {
				t.Fatalf("list: %v", err)
			}
		})
	}

	// Without the setting, each server is refused, for the reason it
	// stands for (the diagnostics are tested with the acceptance tests).
	for _, tc := range []struct {
		env   *acctest.Env
		attrs map[string]any
		want  client.TLSProblem
	}{
		{private, nil, client.TLSUnknownAuthority},
		{mtls, map[string]any{"ca_pem": ca}, client.TLSClientCertRequired},
		{wrongHost, map[string]any{"ca_pem": ca}, client.TLSHostnameMismatch},
		{mtls, map[string]any{"ca_pem": ca, "cert_pem": string(p.foreignClient.CertPEM), "key_pem": string(p.foreignClient.KeyPEM)},
			client.TLSClientCertRejected},
	} {
		clearNetworkEnv(t)
		attrs := map[string]any{"base_url": tc.env.URL, "api_key": tc.env.Key}
		for k, v := range tc.attrs {
			attrs[k] = v
		}
		err := listThrough(t, configureProvider(t, attrs, false))
		if te, ok := client.AsTLSError(err); !ok || te.Problem != tc.want {
			t.Errorf("%s %v: got %v, want TLS problem %d", tc.env.URL, tc.attrs, err, tc.want)
		}
	}
}

// Bad settings fail in Configure (at plan time), naming the attribute or
// environment variable and how to fix it, and never quoting a key or a
// header's value.
func TestProviderConfigure_tlsSettingErrors(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	p := newTestPKI(t)
	other := p.ca.Issue(t, tlstest.LeafOptions{Client: true})
	caFile := tlstest.WriteFile(t, "ca.pem", p.ca.PEM)
	certFile := tlstest.WriteFile(t, "client.pem", p.clientCert.CertPEM)
	keyFile := tlstest.WriteFile(t, "client-key.pem", p.clientCert.KeyPEM)
	missing := filepath.Join(t.TempDir(), "missing.pem")
	key, otherKey := string(p.clientCert.KeyPEM), string(other.KeyPEM)
	const secretHeader = "secret-header-value-8d2f"

	for _, tc := range []struct {
		name  string
		attrs map[string]any
		vars  map[string]string
		want  []string
	}{
		{name: "ca_file missing", attrs: map[string]any{"ca_file": missing},
			want: []string{"Unreadable CA Bundle File", `ca_file "` + missing + `"`, "no such file", "ca_pem (or ANALYTICS_CA_PEM)"}},
		{name: EnvCAFile + " missing", vars: map[string]string{EnvCAFile: missing},
			want: []string{"Unreadable CA Bundle File", "the ANALYTICS_CA_FILE environment variable", "no such file"}},
		{name: EnvCAPEM + " not PEM", vars: map[string]string{EnvCAPEM: "not pem"},
			want: []string{"Invalid CA Certificate", "the ANALYTICS_CA_PEM environment variable is not usable", "no PEM certificate found"}},
		{name: "ca_pem not PEM", attrs: map[string]any{"ca_pem": "not a certificate"},
			want: []string{"Invalid CA Certificate", "ca_pem is not usable", "no PEM certificate found"}},
		{name: "ca_file not PEM", attrs: map[string]any{"ca_file": keyFile},
			want: []string{"Invalid CA Certificate", "contains a private key"}},
		{name: "both CA variables", vars: map[string]string{EnvCAFile: caFile, EnvCAPEM: string(p.ca.PEM)},
			want: []string{"Conflicting CA Bundle Settings", "ANALYTICS_CA_FILE and the ANALYTICS_CA_PEM"}},
		{name: "cert_file without key", attrs: map[string]any{"cert_file": certFile},
			want: []string{"Client Certificate Without Key", "key_file or key_pem (or the ANALYTICS_KEY_FILE or ANALYTICS_KEY_PEM environment variable)"}},
		{name: EnvCertPEM + " without key", vars: map[string]string{EnvCertPEM: string(p.clientCert.CertPEM)},
			want: []string{"Client Certificate Without Key", "ANALYTICS_CERT_PEM environment variable"}},
		{name: "key_pem without cert", attrs: map[string]any{"key_pem": key},
			want: []string{"Client Key Without Certificate", "cert_file or cert_pem"}},
		{name: EnvKeyFile + " without cert", vars: map[string]string{EnvKeyFile: keyFile},
			want: []string{"Client Key Without Certificate", "ANALYTICS_KEY_FILE environment variable"}},
		{name: "pair mismatch", attrs: map[string]any{"cert_file": certFile, "key_pem": otherKey},
			want: []string{"Client Certificate and Key Do Not Match", "key_pem", `cert_file "` + certFile + `"`}},
		{name: "key is not a key", attrs: map[string]any{"cert_file": certFile, "key_file": certFile},
			want: []string{"Invalid Client Key", "no PEM private key"}},
		{name: "cert is not a cert", vars: map[string]string{EnvCertFile: keyFile, EnvKeyFile: keyFile},
			want: []string{"Invalid Client Certificate", "the ANALYTICS_CERT_FILE environment variable"}},
		{name: EnvSkipVerify + " not a bool", vars: map[string]string{EnvSkipVerify: "maybe"},
			want: []string{"Invalid ANALYTICS_SKIP_VERIFY", `"maybe"`}},
		{name: EnvHeaders + " not JSON", vars: map[string]string{EnvHeaders: "X-Token: " + secretHeader},
			want: []string{"Invalid ANALYTICS_HEADERS", "not a JSON object", "at byte"}},
		{name: EnvHeaders + " with Authorization", vars: map[string]string{EnvHeaders: `{"Authorization": "Bearer ` + secretHeader + `"}`},
			want: []string{"Invalid Header", "the ANALYTICS_HEADERS environment variable", `"Authorization" cannot be set`}},
		{name: EnvHeaders + " with authorization", vars: map[string]string{EnvHeaders: `{"authorization": "Bearer ` + secretHeader + `"}`},
			want: []string{"Invalid Header", "the ANALYTICS_HEADERS environment variable", `"Authorization" cannot be set`}},
		{name: "headers with Host", attrs: map[string]any{"headers": map[string]string{"host": secretHeader}},
			want: []string{"Invalid Header", `"Host" cannot be set`, "base_url"}},
		{name: "headers with Authorization", attrs: map[string]any{"headers": map[string]string{"Authorization": "Bearer " + secretHeader}},
			want: []string{"Invalid Header", `"Authorization" cannot be set: the provider sends the API key in it`}},
		{name: "headers twice", attrs: map[string]any{"headers": map[string]string{"X-A": secretHeader, "x-a": secretHeader}},
			want: []string{"Invalid Header", "same header"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearNetworkEnv(t)
			for k, v := range tc.vars {
				t.Setenv(k, v)
			}
			attrs := map[string]any{"base_url": "https://analytics.example.com", "api_key": "test-key"}
			for k, v := range tc.attrs {
				attrs[k] = v
			}
			resp := configureProvider(t, attrs, false)
			if !resp.Diagnostics.HasError() {
				t.Fatal("Configure accepted the settings")
			}
			var all strings.Builder
			for _, d := range resp.Diagnostics.Errors() {
				all.WriteString(d.Summary() + ": " + d.Detail() + "\n")
			}
			for _, w := range tc.want {
				if !strings.Contains(all.String(), w) {
					t.Errorf("the errors do not contain %q:\n%s", w, all.String())
				}
			}
			for _, secret := range []string{key, otherKey, secretHeader, strings.Split(key, "\n")[1]} {
				if strings.Contains(all.String(), secret) {
					t.Errorf("the errors quote a secret:\n%s", all.String())
				}
			}
			if resp.ResourceData != nil {
				t.Error("the provider was configured despite the errors")
			}
		})
	}
}

// Unknown network settings defer the provider's configuration like the
// others.
func TestProviderConfigure_tlsUnknownValues(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	for _, name := range []string{"ca_file", "ca_pem", "cert_pem", "key_file", "skip_verify", "headers"} {
		t.Run(name, func(t *testing.T) {
			clearNetworkEnv(t)
			resp := configureProvider(t, map[string]any{"base_url": "https://analytics.example.com", "api_key": "k", name: unknownValue{}}, true)
			if resp.Diagnostics.HasError() || resp.Deferred == nil {
				t.Errorf("want a deferral without errors, got %v, %+v", resp.Diagnostics, resp.Deferred)
			}
		})
	}
}

// TLS settings with an http:// base URL do nothing, and say so.
func TestProviderConfigure_tlsSettingsUnusedOverHTTP(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	clearNetworkEnv(t)
	p := newTestPKI(t)
	t.Setenv(EnvCAPEM, string(p.ca.PEM))
	resp := configureProvider(t, map[string]any{"base_url": "http://127.0.0.1:8080", "api_key": "k"}, false)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if w := warningsOf(resp.Diagnostics); len(w) != 1 || !strings.Contains(w[0], "TLS Settings Unused") {
		t.Errorf("warnings %q, want the unused TLS settings warning", w)
	}
}

// The configuration pass's own checks of values that reach it without the
// schema's validators (a direct call, the tests' environment variable), and
// of what is left unknown inside a map.
func TestResolveProviderData_errors(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	clearNetworkEnv(t)
	emptyFile := filepath.Join(t.TempDir(), "empty.pem")
	if err := os.WriteFile(emptyFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	base := func() providerModel {
		return providerModel{BaseURL: types.StringValue("http://127.0.0.1:1"), APIKey: types.StringValue("k")}
	}
	for _, tc := range []struct {
		name string
		edit func(*providerModel)
		env  map[string]string
		want string
	}{
		{name: "timeout", edit: func(m *providerModel) { m.Timeout = types.StringValue("abc") }, want: "Invalid Timeout"},
		// A timeout unknown at plan time skips the validator: zero or
		// negative, it would turn the client's limit off.
		{name: "negative timeout", edit: func(m *providerModel) { m.Timeout = types.StringValue("-1s") }, want: `timeout = "-1s" is not a positive duration`},
		{name: "zero timeout", edit: func(m *providerModel) { m.Timeout = types.StringValue("0s") }, want: `timeout = "0s" is not a positive duration`},
		{name: "max_retries", edit: func(m *providerModel) { m.MaxRetries = types.Int64Value(-1) }, want: "max_retries must be 0 or more"},
		{name: "empty CA file", edit: func(m *providerModel) { m.CAFile = types.StringValue(emptyFile) }, want: "is empty. Point it at the PEM file"},
		{name: "header without value", edit: func(m *providerModel) {
			m.Headers = types.MapValueMust(types.StringType, map[string]attr.Value{"X-Tenant": types.StringNull()})
		}, want: `The header "X-Tenant" has no value`},
		// The tracking code is published in every page: a secret the
		// provider knows in the script's query string is refused.
		{name: "tracking_script_url holds the API key", edit: func(m *providerModel) {
			m.APIKey = types.StringValue("Kx9TrackSecret42")
			m.TrackingScriptURL = types.StringValue("https://cdn.example.net/s.js?k=Kx9TrackSecret42")
		}, want: `tracking_script_url holds a secret the provider knows`},
		{name: "environment script holds a header value", edit: func(m *providerModel) {
			m.Headers = types.MapValueMust(types.StringType, map[string]attr.Value{"X-Token": types.StringValue("HdrSecretValue77")})
		}, env: map[string]string{EnvTrackingScriptURL: "https://cdn.example.net/s.js?t=HdrSecretValue77"},
			want: `The ANALYTICS_TRACKING_SCRIPT_URL environment variable holds a secret the provider knows`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			m := base()
			if tc.edit != nil {
				tc.edit(&m)
			}
			var diags diag.Diagnostics
			if d := resolveProviderData(context.Background(), m, "test", "1.8.5", nil, os.Getenv, &diags); d != nil || !diags.HasError() {
				t.Fatalf("want an error, got data %v and %v", d, diags)
			}
			if got := fmt.Sprint(diags); !strings.Contains(got, tc.want) {
				t.Errorf("want %q in %s", tc.want, got)
			}
		})
	}

	m := base()
	m.Headers = types.MapValueMust(types.StringType, map[string]attr.Value{"X-Tenant": types.StringUnknown()})
	if !m.unknown() {
		t.Error("a header whose value is unknown must leave the configuration unknown")
	}
	var none *providerData
	if got := none.trackingCodeOr(types.StringUnknown()); !got.IsUnknown() {
		t.Errorf("tracking code before Configure: want unknown, got %v", got)
	}
}

// TestRetryOptions: the release's backoff unless the tests' constructor
// shortened it (newTestProvider, fastRetries), the maximum then sixteen
// times the first at most the default.
func TestRetryOptions(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	cfg := providerModel{MaxRetries: types.Int64Null(), RequestsPerMinute: types.Int64Null()}
	if o := retryOptions(cfg, 0, &diags); o.WaitMin != 0 || o.WaitMax != 0 || o.MaxRetries != client.DefaultMaxRetries {
		t.Errorf("default: %+v", o)
	}
	if o := retryOptions(cfg, 5*time.Millisecond, &diags); o.WaitMin != 5*time.Millisecond || o.WaitMax != 80*time.Millisecond {
		t.Errorf("5ms: %+v", o)
	}
	if o := retryOptions(cfg, 10*time.Second, &diags); o.WaitMax != client.DefaultRetryWaitMax {
		t.Errorf("10s: %+v", o)
	}
	if diags.HasError() {
		t.Error(diags)
	}
}

// TestHarness_clearsEveryEnvironmentSetting: every environment variable the
// provider's schema names as a fallback is one the harness clears before
// the tests run (acctest.ClearProviderSettings), so that no test inherits it
// from the caller's shell.
func TestHarness_clearsEveryEnvironmentSetting(t *testing.T) {
	t.Parallel()
	var resp provider.SchemaResponse
	newTestProvider(os.Getenv).Schema(context.Background(), provider.SchemaRequest{}, &resp)
	named := map[string]bool{}
	for name, a := range resp.Schema.Attributes {
		for _, v := range regexp.MustCompile(`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`).FindAllString(a.GetMarkdownDescription(), -1) {
			named[v] = true
			if !acctest.ProviderSetting(v) {
				t.Errorf("%s falls back to %s, which the harness does not clear", name, v)
			}
		}
	}
	for _, v := range []string{EnvBaseURL, EnvAPIKey, EnvTrackingURL, EnvTrackingScriptURL, EnvTrackingRespectDNT, EnvCAFile, EnvCAPEM,
		EnvCertFile, EnvCertPEM, EnvKeyFile, EnvKeyPEM, EnvSkipVerify, EnvHeaders} {
		if !named[v] {
			t.Errorf("no attribute's description names %s", v)
		}
	}
}

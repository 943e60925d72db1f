// Package provider implements the Terraform provider "analytics" for the
// tracked websites of a phpAnalytics installation.
package provider

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Environment variables read when the matching attribute is not configured.
const (
	EnvBaseURL = "ANALYTICS_BASE_URL"
	EnvAPIKey  = "ANALYTICS_API_KEY"
)

var (
	_ provider.Provider                  = (*analyticsProvider)(nil)
	_ provider.ProviderWithFunctions     = (*analyticsProvider)(nil)
	_ provider.ProviderWithListResources = (*analyticsProvider)(nil)
	_ provider.ProviderWithActions       = (*analyticsProvider)(nil)
)

// New returns a constructor of the provider for providerserver.Serve.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &analyticsProvider{version: version} }
}

type analyticsProvider struct {
	version string
}

type providerModel struct {
	BaseURL           types.String `tfsdk:"base_url"`
	APIKey            types.String `tfsdk:"api_key"`
	Timeout           types.String `tfsdk:"timeout"`
	MaxRetries        types.Int64  `tfsdk:"max_retries"`
	RequestsPerMinute types.Int64  `tfsdk:"requests_per_minute"`
	// The network path (provider_settings.go).
	CAFile     types.String `tfsdk:"ca_file"`
	CAPEM      types.String `tfsdk:"ca_pem"`
	CertFile   types.String `tfsdk:"cert_file"`
	CertPEM    types.String `tfsdk:"cert_pem"`
	KeyFile    types.String `tfsdk:"key_file"`
	KeyPEM     types.String `tfsdk:"key_pem"`
	SkipVerify types.Bool   `tfsdk:"skip_verify"`
	Headers    types.Map    `tfsdk:"headers"`
	// The tracking code's settings (tracking_code.go).
	TrackingURL        types.String `tfsdk:"tracking_url"`
	TrackingRespectDNT types.Bool   `tfsdk:"tracking_respect_dnt"`
}

func (p *analyticsProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "analytics"
	resp.Version = p.version
}

func (p *analyticsProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages the tracked websites of a self-hosted phpAnalytics installation " +
			"(or one of its white-label brands) through its Website API (`/api/v1/websites`).",
		Attributes: map[string]schema.Attribute{
			"base_url": schema.StringAttribute{
				MarkdownDescription: "URL of the installation, e.g. `https://analytics.example.com` or, for an installation " +
					"under a path prefix, `https://example.com/analytics`; `/api/v1` is appended once. " +
					"Defaults to the `" + EnvBaseURL + "` environment variable. One of the two is required.",
				Optional:   true,
				Validators: []validator.String{baseURLValidator()},
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "Personal API key of the user that owns the websites (sent only as " +
					"`Authorization: Bearer`, never logged). Defaults to the `" + EnvAPIKey + "` environment variable. " +
					"One of the two is required.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{apiKeyValidator()},
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "Time limit of one HTTP request, as a Go duration such as `30s` or `2m`; every retry " +
					"gets its own, and the resource's `timeouts` bound an operation with all its retries. Defaults to `30s`.",
				Optional:   true,
				Validators: []validator.String{durationValidator()},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How many times a failed request is retried, with exponential backoff and jitter " +
					"(from 1s, at most 30s apart) or after the wait the server asks for (`Retry-After`, `X-RateLimit-Reset`). " +
					"Network errors, 429, 502, 503 and 504 are retried; 500 for reads and deletes; a create is only repeated " +
					"in ways that cannot store the website twice. No wait goes past the operation's deadline (the resource's " +
					"`timeouts`). `0` turns retries off. Defaults to `4`.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"requests_per_minute": schema.Int64Attribute{
				MarkdownDescription: "Caps the requests this provider sends per minute, shared by all operations Terraform " +
					"runs at once, e.g. to leave part of the server's throttle (60 requests per minute per client IP on a " +
					"default installation) to other clients. Independently of it, the provider reads the server's " +
					"`X-RateLimit-Limit` and `X-RateLimit-Remaining` headers and pauses before the throttle refuses " +
					"requests. Defaults to no cap.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
		},
	}
	for name, a := range networkAttributes() {
		resp.Schema.Attributes[name] = a
	}
	for name, a := range trackingAttributes() {
		resp.Schema.Attributes[name] = a
	}
}

// providerConfigValue resolves one setting from configuration, then the
// environment. It reports unknown when the configured value is unknown.
func providerConfigValue(v types.String, env string) (value string, unknown bool) {
	if v.IsUnknown() {
		return "", true
	}
	if !v.IsNull() {
		return v.ValueString(), false
	}
	return os.Getenv(env), false
}

func (p *analyticsProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	baseURL, baseUnknown := providerConfigValue(cfg.BaseURL, EnvBaseURL)
	apiKey, keyUnknown := providerConfigValue(cfg.APIKey, EnvAPIKey)
	if baseUnknown || keyUnknown || cfg.Timeout.IsUnknown() || cfg.MaxRetries.IsUnknown() || cfg.RequestsPerMinute.IsUnknown() ||
		networkSettingsUnknown(cfg) || cfg.TrackingURL.IsUnknown() || cfg.TrackingRespectDNT.IsUnknown() {
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
			return
		}
		// Without deferral support, leave the provider unconfigured: data
		// sources and resources report that the configuration is unknown if
		// Terraform asks them to talk to the API before it is known.
		tflog.Debug(ctx, "provider configuration depends on values unknown until apply")
		return
	}

	if strings.TrimSpace(baseURL) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Missing Analytics Base URL",
			"The provider needs the URL of the analytics installation. Set the \"base_url\" attribute in the provider "+
				"block or the "+EnvBaseURL+" environment variable, e.g. https://analytics.example.com.")
	}
	if strings.TrimSpace(apiKey) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing Analytics API Key",
			"The provider needs an API key (Account > API in the analytics web interface). Set the \"api_key\" "+
				"attribute in the provider block or the "+EnvAPIKey+" environment variable.")
	}
	if resp.Diagnostics.HasError() {
		return
	}
	// The attribute validators have checked configured values; values from
	// the environment are checked here, with the same messages.
	if p := baseURLProblem(settingName(cfg.BaseURL, "base_url", EnvBaseURL), baseURL); p != "" {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid Analytics Base URL", p)
	}
	if p := apiKeyProblem(settingName(cfg.APIKey, "api_key", EnvAPIKey), apiKey); p != "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Invalid Analytics API Key", p)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	timeout := client.DefaultTimeout
	if !cfg.Timeout.IsNull() {
		d, err := time.ParseDuration(cfg.Timeout.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid Timeout", err.Error())
			return
		}
		timeout = d
	}

	u, err := client.ParseBaseURL(baseURL)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid Analytics Base URL",
			fmt.Sprintf("%s. Set \"base_url\" (or %s) to the installation's URL, e.g. https://analytics.example.com.", err, EnvBaseURL))
		return
	}
	if u.Scheme == "http" && !isLoopback(u) {
		resp.Diagnostics.AddAttributeWarning(path.Root("base_url"), "API Key Sent Unencrypted",
			fmt.Sprintf("The base URL %q uses plain http:// to a host that is not loopback, so the API key travels "+
				"in clear text over the network. Use https:// unless the connection is otherwise protected.", u.Redacted()))
	}

	retry := retryOptions(cfg, &resp.Diagnostics)
	network := resolveNetwork(cfg, &resp.Diagnostics)
	tracking := resolveTrackingCode(cfg, u.String(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if u.Scheme == "http" && network.tls != nil {
		resp.Diagnostics.AddAttributeWarning(path.Root("base_url"), "TLS Settings Unused",
			fmt.Sprintf("The base URL %q uses plain http://, so the TLS settings (ca_*, cert_*, key_*, skip_verify, or "+
				"their ANALYTICS_* environment variables) have no effect. Use https:// if the installation serves it.", u.Redacted()))
	}
	logger := &tflogLogger{}
	c, err := client.New(baseURL, apiKey, client.Options{
		Timeout:        timeout,
		Version:        p.version,
		UserAgentExtra: "Terraform/" + req.TerraformVersion,
		Retry:          retry,
		Logger:         logger,
		TLS:            network.tls,
		Headers:        network.headers,
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Analytics API Client", err.Error())
		return
	}
	logger.mask = c.Secrets()
	tflog.Debug(logger.masked(ctx), "configured analytics API client", network.logFields(map[string]any{"base_url": c.BaseURL(),
		"timeout": timeout.String(), "max_retries": retry.MaxRetries, "requests_per_minute": retry.RequestsPerMinute}))

	data := newProviderData(c)
	data.trackingCode = tracking
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
}

// settingName names where a provider setting came from, for messages: the
// attribute, or the environment variable when the attribute is not set.
func settingName(v types.String, attr, env string) string {
	if v.IsNull() {
		return "The " + env + " environment variable"
	}
	return attr
}

func isLoopback(u *url.URL) bool {
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (p *analyticsProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewWebsiteResource}
}

// Functions are the provider's functions (Terraform 1.8 or later, OpenTofu
// 1.7 or later).
func (p *analyticsProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{newCanonicalDomainFunction}
}

// ListResources are the provider's list resources, for `terraform query`
// (Terraform 1.14 or later).
func (p *analyticsProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{NewWebsiteListResource}
}

// Actions are the provider's actions (Terraform 1.14 or later; Terraform
// below 1.14 and OpenTofu never ask for them).
func (p *analyticsProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{NewWebsiteStatisticsExportAction}
}

func (p *analyticsProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{NewWebsiteDataSource, NewWebsitesDataSource, NewWebsiteStatisticsDataSource}
}

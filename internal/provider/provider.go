// Package provider implements the Terraform provider "analytics" for the
// tracked websites of a phpAnalytics installation.
package provider

import (
	"context"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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
	// retryWaitMin, when set, gives for the configured base_url a first
	// backoff that, when not zero, replaces the client's (1s; the maximum
	// backoff becomes 16 times that, at most the default 30s), so that
	// tests against a faulty emulator run quickly. Only the tests'
	// constructor sets it (newTestProvider, provider_test.go), which
	// shortens the backoff for the emulators of the tests that ask: it is
	// no provider setting, since no real pipeline should retry faster than
	// the default. Waits the server asks for (Retry-After) are unchanged.
	retryWaitMin func(baseURL string) time.Duration
	// getenv, when set, reads the provider's environment instead of
	// os.Getenv: the tests' constructor gives each test's provider the
	// variables of its own test, so that tests that set them run in
	// parallel.
	getenv func(string) string
}

func (p *analyticsProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "analytics"
	resp.Version = p.version
}

func (p *analyticsProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	// The file and PEM forms of one input conflict; "a certificate needs its
	// key" is checked by resolveNetwork, as either may come from the
	// environment.
	fileAttr := func(s pemSetting, desc string) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: desc + " Conflicts with `" + s.pemAttr + "`. Defaults to the `" + s.fileEnv + "` environment " +
				"variable (used only when neither `" + s.fileAttr + "` nor `" + s.pemAttr + "` is set). Not sent to the API.",
			Optional: true,
			Validators: []validator.String{
				stringvalidator.LengthAtLeast(1),
				stringvalidator.ConflictsWith(path.MatchRoot(s.pemAttr)),
			},
		}
	}
	pemAttr := func(s pemSetting, desc, summary string, check func(string) error, sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: desc + " Conflicts with `" + s.fileAttr + "`. Defaults to the `" + s.pemEnv + "` environment " +
				"variable (used only when neither `" + s.fileAttr + "` nor `" + s.pemAttr + "` is set). Not sent to the API.",
			Optional:   true,
			Sensitive:  sensitive,
			Validators: []validator.String{pemValidator(s.pemAttr, summary, check)},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages the tracked websites of a self-hosted phpAnalytics installation " +
			"(or one of its white-label brands) through its Website API (`/api/v1/websites`).",
		Attributes: map[string]schema.Attribute{
			"base_url": schema.StringAttribute{
				MarkdownDescription: "URL of the installation, e.g. `https://analytics.example.com` or, for an installation " +
					"under a path prefix, `https://example.com/analytics`; `/api/v1` is appended once. " +
					"Defaults to the `" + EnvBaseURL + "` environment variable. One of the two is required.",
				Optional:   true,
				Validators: []validator.String{baseURLRule.validator()},
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "Personal API key of the user that owns the websites (sent only as " +
					"`Authorization: Bearer`, never logged). Defaults to the `" + EnvAPIKey + "` environment variable. " +
					"One of the two is required.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{apiKeyRule.validator()},
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
			"ca_file": fileAttr(caSetting, "Path of a PEM file of one or more CA certificates that sign the installation's "+
				"certificate (a private or corporate CA). They are trusted in addition to the system's roots."),
			"ca_pem": pemAttr(caSetting, "PEM text of one or more CA certificates, as `ca_file` holds them (e.g. "+
				"`file(\"ca.pem\")`).", "Invalid CA Certificate", func(s string) error { _, err := client.ParseCABundle([]byte(s)); return err }, false),
			"cert_file": fileAttr(certSetting, "Path of a PEM client certificate (optionally followed by its intermediates), "+
				"for an installation or proxy that requires mutual TLS. Needs `key_file` or `key_pem`."),
			"cert_pem": pemAttr(certSetting, "PEM text of the client certificate, as `cert_file` holds it. Needs `key_file` "+
				"or `key_pem`.", "Invalid Client Certificate", client.CheckCertificatePEM, false),
			"key_file": fileAttr(keySetting, "Path of the PEM private key of the client certificate (unencrypted: PKCS #8, "+
				"PKCS #1 or SEC 1). Needs `cert_file` or `cert_pem`."),
			"key_pem": pemAttr(keySetting, "PEM text of the client certificate's private key, as `key_file` holds it. "+
				"Sensitive, never logged. Needs `cert_file` or `cert_pem`.", "Invalid Client Key", client.CheckKeyPEM, true),
			"skip_verify": schema.BoolAttribute{
				MarkdownDescription: "Accept any server certificate, without checking who signed it, its host name or its dates. " +
					"Anyone on the network path can then read the API key, so every run warns; give the CA in `ca_file` or " +
					"`ca_pem` instead. Defaults to the `" + EnvSkipVerify + "` environment variable (`true` or `false`), else `false`.",
				Optional: true,
			},
			"headers": schema.MapAttribute{
				MarkdownDescription: "Extra HTTP headers sent with every request, e.g. the service token of an access proxy in " +
					"front of the installation (`CF-Access-Client-Id`, `CF-Access-Client-Secret`). Sensitive: values are " +
					"never logged. Headers the provider sets itself (`Authorization`, `Accept`, `Content-Type`, `User-Agent`), " +
					"`Host`, `Proxy-Authorization` and those Go's HTTP transport manages are refused. Defaults to the `" +
					EnvHeaders + "` environment variable, a JSON object of names to values such as " +
					"`{\"CF-Access-Client-Id\":\"...\"}`, used only when `headers` is not set.",
				Optional:    true,
				Sensitive:   true,
				ElementType: types.StringType,
				Validators:  []validator.Map{headersValidator()},
			},
			"tracking_url": schema.StringAttribute{
				MarkdownDescription: "The installation's address as visitors' browsers reach it, used in `tracking_code` " +
					"(the script's `data-host`, and its `src` unless `tracking_script_url` is set), e.g. `https://analytics.example.com` or, under a path prefix, " +
					"`https://example.com/analytics`. Set it when the API is reached through another address (an internal " +
					"host name, a proxy, a tunnel) than the public one. Defaults to the `" + EnvTrackingURL + "` environment " +
					"variable, else `base_url` (without `/api/v1`). Not sent to the API.",
				Optional:   true,
				Validators: []validator.String{trackingURLRule.validator()},
			},
			"tracking_script_url": schema.StringAttribute{
				MarkdownDescription: "Where visitors' browsers load the tracking script from, when the installation serves it " +
					"from a CDN (an administrator's setting of the installation): the `src` of `tracking_code`, e.g. " +
					"`https://cdn.example.com/js/script.js`, while its `data-host` stays `tracking_url`, where the script " +
					"sends the pageviews. Defaults to the `" + EnvTrackingScriptURL + "` environment variable, else " +
					"`tracking_url` followed by `/js/script.js`. Not sent to the API.",
				Optional:   true,
				Validators: []validator.String{trackingScriptURLRule.validator()},
			},
			"tracking_respect_dnt": schema.BoolAttribute{
				MarkdownDescription: "Whether the tracking script sends nothing for visitors whose browser reports a Do " +
					"Not Track setting (`navigator.doNotTrack`): `data-dnt=\"true\"` in `tracking_code`. The application's " +
					"script then skips every visitor whose browser reports any value at all, not only `\"1\"` (asks not to " +
					"be tracked) but also `\"0\"` and `\"unspecified\"`, which some browsers report when the visitor chose " +
					"nothing: with `true`, such visitors are never counted. Browsers that report nothing (`null`) are " +
					"counted. Defaults to the `" + EnvTrackingRespectDNT + "` environment variable (`true` or `false`), " +
					"else `false`, the application's default, which counts everyone. Not sent to the API.",
				Optional: true,
			},
		},
	}
}

// Configure resolves the provider block into the providerData that
// resources and data sources share (provider_config.go).
func (p *analyticsProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.unknown() {
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
	getenv := p.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	data := resolveProviderData(ctx, cfg, p.version, req.TerraformVersion, p.retryWaitMin, getenv, &resp.Diagnostics)
	if data == nil {
		return
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
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
	return []func() datasource.DataSource{NewAccountDataSource, NewWebsiteDataSource, NewWebsitesDataSource, NewWebsiteStatisticsDataSource}
}

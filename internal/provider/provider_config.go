package provider

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// Environment variables read when the matching attribute is not set. Those
// of the network path are named as in HashiCorp's own providers of
// self-hosted servers (nomad, consul): ANALYTICS_<ATTRIBUTE>.
const (
	EnvBaseURL            = "ANALYTICS_BASE_URL"
	EnvAPIKey             = "ANALYTICS_API_KEY"
	EnvTrackingURL        = "ANALYTICS_TRACKING_URL"
	EnvTrackingScriptURL  = "ANALYTICS_TRACKING_SCRIPT_URL"
	EnvTrackingRespectDNT = "ANALYTICS_TRACKING_RESPECT_DNT"
	EnvCAFile             = "ANALYTICS_CA_FILE"
	EnvCAPEM              = "ANALYTICS_CA_PEM"
	EnvCertFile           = "ANALYTICS_CERT_FILE"
	EnvCertPEM            = "ANALYTICS_CERT_PEM"
	EnvKeyFile            = "ANALYTICS_KEY_FILE"
	EnvKeyPEM             = "ANALYTICS_KEY_PEM"
	EnvSkipVerify         = "ANALYTICS_SKIP_VERIFY"
	EnvHeaders            = "ANALYTICS_HEADERS"
)

// providerModel is the provider block (its schema is in provider.go).
type providerModel struct {
	BaseURL            types.String `tfsdk:"base_url"`
	APIKey             types.String `tfsdk:"api_key"`
	Timeout            types.String `tfsdk:"timeout"`
	MaxRetries         types.Int64  `tfsdk:"max_retries"`
	RequestsPerMinute  types.Int64  `tfsdk:"requests_per_minute"`
	CAFile             types.String `tfsdk:"ca_file"`
	CAPEM              types.String `tfsdk:"ca_pem"`
	CertFile           types.String `tfsdk:"cert_file"`
	CertPEM            types.String `tfsdk:"cert_pem"`
	KeyFile            types.String `tfsdk:"key_file"`
	KeyPEM             types.String `tfsdk:"key_pem"`
	SkipVerify         types.Bool   `tfsdk:"skip_verify"`
	Headers            types.Map    `tfsdk:"headers"`
	TrackingURL        types.String `tfsdk:"tracking_url"`
	TrackingScriptURL  types.String `tfsdk:"tracking_script_url"`
	TrackingRespectDNT types.Bool   `tfsdk:"tracking_respect_dnt"`
}

// unknown reports whether a setting is unknown at plan time (computed by
// another resource): nothing is resolved then.
func (cfg providerModel) unknown() bool {
	for _, v := range []types.String{cfg.BaseURL, cfg.APIKey, cfg.Timeout, cfg.CAFile, cfg.CAPEM, cfg.CertFile,
		cfg.CertPEM, cfg.KeyFile, cfg.KeyPEM, cfg.TrackingURL, cfg.TrackingScriptURL} {
		if v.IsUnknown() {
			return true
		}
	}
	if cfg.MaxRetries.IsUnknown() || cfg.RequestsPerMinute.IsUnknown() || cfg.SkipVerify.IsUnknown() ||
		cfg.TrackingRespectDNT.IsUnknown() || cfg.Headers.IsUnknown() {
		return true
	}
	for _, e := range cfg.Headers.Elements() {
		if e.IsUnknown() {
			return true
		}
	}
	return false
}

// settingRule is a string setting that may come from the provider block or
// from the environment, and the rule its value must meet: the attribute's
// validator applies it to a configured value at plan time, the
// configuration pass to a value from the environment, with the same
// messages. The rules are in validators_provider.go.
type settingRule struct {
	attr, env   string
	summary     string // of the diagnostic, e.g. "Invalid Analytics API Key"
	description string // of the validator
	ifEmpty     string // how to fix an empty value
	// problem says why a value that is not empty is refused, as a sentence
	// naming the setting (name) and the fix, or "" when it is accepted.
	problem func(name, v string) string
}

// check returns why v cannot be the setting, naming it (name), and whether
// v is empty, the one place where a setting's emptiness is checked.
func (r settingRule) check(name, v string) (problem string, empty bool) {
	if strings.TrimSpace(v) == "" {
		return name + " is empty. " + r.ifEmpty, true
	}
	return r.problem(name, v), false
}

func (r settingRule) validator() validator.String {
	return stringCheck{description: r.description, summary: r.summary, problem: func(attr path.Path, v string) string {
		p, _ := r.check(attr.String(), v)
		return p
	}}
}

// value is the configured value, else the environment variable's.
func (r settingRule) value(getenv func(string) string, v types.String) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return getenv(r.env)
}

// source names where the value came from, for messages: the attribute, or
// the environment variable when the attribute is not set.
func (r settingRule) source(v types.String) string {
	if v.IsNull() {
		return "The " + r.env + " environment variable"
	}
	return r.attr
}

// resolveProviderData is the provider's configuration, in one pass: the
// provider block, each attribute falling back to its environment variable
// and checked on the way, becomes what resources and data sources share:
// the client (its Options from the timeout, retry, TLS and header
// settings), the log mask (the client's Secrets) and the tracking code. It
// returns nil after an error.
func resolveProviderData(ctx context.Context, cfg providerModel, version, terraformVersion string,
	retryWaitMin func(baseURL string) time.Duration, getenv func(string) string, diags *diag.Diagnostics,
) *providerData {
	baseURL, apiKey := resolveCredentials(cfg, getenv, diags)
	if diags.HasError() {
		return nil
	}
	timeout := client.DefaultTimeout
	if !cfg.Timeout.IsNull() {
		// Checked here too: a timeout unknown at plan time skipped the
		// validator.
		d, p := positiveDuration(path.Root("timeout"), cfg.Timeout.ValueString())
		if p != "" {
			diags.AddAttributeError(path.Root("timeout"), "Invalid Timeout", p)
			return nil
		}
		timeout = d
	}
	u, err := client.ParseBaseURL(baseURL)
	if err != nil {
		diags.AddAttributeError(path.Root("base_url"), "Invalid Analytics Base URL",
			fmt.Sprintf("%s. Set \"base_url\" (or %s) to the installation's URL, e.g. https://analytics.example.com.", err, EnvBaseURL))
		return nil
	}
	if u.Scheme == "http" && !isLoopback(u) {
		diags.AddAttributeWarning(path.Root("base_url"), "API Key Sent Unencrypted",
			fmt.Sprintf("The base URL %q uses plain http:// to a host that is not loopback, so the API key travels "+
				"in clear text over the network. Use https:// unless the connection is otherwise protected.", u.Redacted()))
	}
	var waitMin time.Duration
	if retryWaitMin != nil {
		waitMin = retryWaitMin(baseURL)
	}
	retry := retryOptions(cfg, waitMin, diags)
	network := resolveNetwork(cfg, getenv, diags)
	known := []string{apiKey}
	for _, v := range network.headers {
		known = append(known, v)
	}
	tracking := resolveTrackingCode(cfg, u.String(), known, getenv, diags)
	if diags.HasError() {
		return nil
	}
	if u.Scheme == "http" && network.tls != nil {
		diags.AddAttributeWarning(path.Root("base_url"), "TLS Settings Unused",
			fmt.Sprintf("The base URL %q uses plain http://, so the TLS settings (ca_*, cert_*, key_*, skip_verify, or "+
				"their ANALYTICS_* environment variables) have no effect. Use https:// if the installation serves it.", u.Redacted()))
	}
	c, err := client.New(baseURL, apiKey, client.Options{Timeout: timeout, Version: version,
		UserAgentExtra: "Terraform/" + terraformVersion, Retry: retry, Logger: tflogLogger{}, TLS: network.tls, Headers: network.headers})
	if err != nil {
		diags.AddError("Unable to Create Analytics API Client", err.Error())
		return nil
	}
	network.log["base_url"], network.log["timeout"] = c.BaseURL(), timeout.String()
	network.log["max_retries"], network.log["requests_per_minute"] = retry.MaxRetries, retry.RequestsPerMinute
	tflog.Debug(ctx, "configured analytics API client", redactFields(network.log))
	data := newProviderData(c)
	data.trackingCode = tracking
	return data
}

// resolveCredentials returns base_url and api_key, both required: first
// every missing one, then every one the rules refuse.
func resolveCredentials(cfg providerModel, getenv func(string) string, diags *diag.Diagnostics) (baseURL, apiKey string) {
	required := []struct {
		v               types.String
		rule            settingRule
		missing, detail string
	}{
		{cfg.BaseURL, baseURLRule, "Missing Analytics Base URL", "The provider needs the URL of the analytics " +
			"installation. Set the \"base_url\" attribute in the provider block or the " + EnvBaseURL + " environment " +
			"variable, e.g. https://analytics.example.com."},
		{cfg.APIKey, apiKeyRule, "Missing Analytics API Key", "The provider needs an API key (Account > API in the " +
			"analytics web interface). Set the \"api_key\" attribute in the provider block or the " + EnvAPIKey +
			" environment variable."},
	}
	values, problems := make([]string, len(required)), make([]string, len(required))
	for i, s := range required {
		values[i] = s.rule.value(getenv, s.v)
		p, empty := s.rule.check(s.rule.source(s.v), values[i])
		if empty {
			diags.AddAttributeError(path.Root(s.rule.attr), s.missing, s.detail)
		}
		problems[i] = p
	}
	if diags.HasError() {
		return "", ""
	}
	for i, p := range problems {
		if p != "" {
			diags.AddAttributeError(path.Root(required[i].rule.attr), required[i].rule.summary, p)
		}
	}
	return values[0], values[1]
}

func isLoopback(u *url.URL) bool {
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// retryOptions builds the client's retry and pacing options; waitMin, when
// not zero, is the first backoff (see analyticsProvider.retryWaitMin).
func retryOptions(cfg providerModel, waitMin time.Duration, diags *diag.Diagnostics) *client.RetryOptions {
	opts := &client.RetryOptions{MaxRetries: client.DefaultMaxRetries}
	if !cfg.MaxRetries.IsNull() {
		opts.MaxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	if !cfg.RequestsPerMinute.IsNull() {
		opts.RequestsPerMinute = int(cfg.RequestsPerMinute.ValueInt64())
	}
	if waitMin > 0 {
		opts.WaitMin = waitMin
		opts.WaitMax = min(16*waitMin, client.DefaultRetryWaitMax)
	}
	if opts.MaxRetries < 0 {
		diags.AddAttributeError(path.Root("max_retries"), "Invalid Max Retries", "max_retries must be 0 or more.")
	}
	return opts
}

// resolveTrackingCode returns the tracking code of the provider's settings:
// tracking_url (else ANALYTICS_TRACKING_URL, else the public part of
// baseAPI, the client's API root), tracking_script_url (else
// ANALYTICS_TRACKING_SCRIPT_URL, else the script below the public address)
// and tracking_respect_dnt (else ANALYTICS_TRACKING_RESPECT_DNT). The
// tracking code is published in every page of the website, so a setting
// that holds a secret the provider knows (known, the API key and the
// header values, or any the gate registered) is refused.
func resolveTrackingCode(cfg providerModel, baseAPI string, known []string, getenv func(string) string, diags *diag.Diagnostics) string {
	public := strings.TrimSuffix(baseAPI, "/api/v1")
	if raw, ok := resolveSetting(trackingURLRule, cfg.TrackingURL, getenv, diags); !ok || holdsSecret(trackingURLRule, cfg.TrackingURL, raw, known, diags) {
		return ""
	} else if raw != "" {
		public = strings.TrimRight(raw, "/")
	}
	script, ok := resolveSetting(trackingScriptURLRule, cfg.TrackingScriptURL, getenv, diags)
	if !ok || holdsSecret(trackingScriptURLRule, cfg.TrackingScriptURL, script, known, diags) {
		return ""
	}
	return trackingCode(public, script, resolveBool(cfg.TrackingRespectDNT, EnvTrackingRespectDNT, "tracking_respect_dnt", getenv, diags))
}

// holdsSecret adds an error on rule's attribute and reports true when the
// query string, fragment or user information of v (its value, from setting
// or its environment variable) holds, in any form the redactor knows, one of
// known or a secret the gate registered. The scheme, host and path are not
// searched: a header value is often a host name (X-Forwarded-Host) or a
// word of one, and the tracking URL's host is public anyway. The message
// repeats nothing of v.
func holdsSecret(rule settingRule, setting types.String, v string, known []string, diags *diag.Diagnostics) bool {
	if v == "" {
		return false
	}
	hidden := v
	if u, err := url.Parse(v); err == nil {
		hidden = u.User.String() + "?" + u.RawQuery + "#" + u.Fragment
		if u.Fragment != u.EscapedFragment() {
			hidden += "#" + u.EscapedFragment()
		}
	}
	set := redact.New()
	set.Add(known...)
	if set.String(hidden) == hidden && redact.String(hidden) == hidden {
		return false
	}
	diags.AddAttributeError(path.Root(rule.attr), rule.summary,
		fmt.Sprintf("%s holds a secret the provider knows (the API key, a header value or another credential), in "+
			"its query string or elsewhere: the tracking code would publish it in every page of the website. Remove "+
			"it (the value is not repeated here), and treat the secret as exposed if the configuration was shared.",
			rule.source(setting)))
	return true
}

// resolveSetting returns an optional setting of rule, from the block or
// the environment, without white space at its ends ("" when neither sets
// it), and false after adding an error on its attribute when the rule
// refuses it.
func resolveSetting(rule settingRule, v types.String, getenv func(string) string, diags *diag.Diagnostics) (string, bool) {
	raw := rule.value(getenv, v)
	if raw == "" {
		return "", true
	}
	if p, _ := rule.check(rule.source(v), raw); p != "" {
		diags.AddAttributeError(path.Root(rule.attr), rule.summary, p)
		return "", false
	}
	return strings.TrimSpace(raw), true
}

// resolveBool reads a boolean attribute, else its environment variable
// (unset or empty: false), adding an error on attr when the variable is
// neither true nor false.
func resolveBool(v types.Bool, env, attr string, getenv func(string) string, diags *diag.Diagnostics) bool {
	if !v.IsNull() {
		return v.ValueBool()
	}
	raw := strings.TrimSpace(getenv(env))
	if raw == "" {
		return false
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		diags.AddAttributeError(path.Root(attr), "Invalid "+env,
			fmt.Sprintf("The %s environment variable is %q; set it to true or false, or unset it (or set %s in the "+
				"provider block, which takes precedence).", env, raw, attr))
	}
	return b
}

package provider

import (
	"fmt"
	"html"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The tracking code: the script element a website owner puts on every page
// of the site, as the application's web interface shows it. It is the same
// for every website of an installation (the script finds the website by the
// page's host name), so it depends only on the provider's settings: the
// address browsers reach the installation at, and whether the script
// honours Do Not Track. Nothing about it is sent to or read from the API.

// Environment variables of the tracking settings.
const (
	EnvTrackingURL        = "ANALYTICS_TRACKING_URL"
	EnvTrackingRespectDNT = "ANALYTICS_TRACKING_RESPECT_DNT"
)

// trackingScriptID is the fixed id by which the application's script finds
// its own element.
const trackingScriptID = "ZwSg9rf6GA"

// trackingCode is the application's snippet for an installation whose
// public address is publicURL (without a trailing slash).
func trackingCode(publicURL string, respectDNT bool) string {
	u := html.EscapeString(publicURL)
	return `<script data-host="` + u + `" data-dnt="` + strconv.FormatBool(respectDNT) + `" src="` + u +
		`/js/script.js" id="` + trackingScriptID + `" async defer></script>`
}

// trackingCodeDescription documents the tracking_code attribute of every
// surface that has it.
const trackingCodeDescription = "The tracking code to put on every page of the website, exactly as the analytics " +
	"web interface shows it: `<script data-host=\"…\" data-dnt=\"…\" src=\"…/js/script.js\" id=\"" + trackingScriptID +
	"\" async defer></script>`. It is the same for every website of an installation (the script finds the website " +
	"by the page's host name) and is built from the provider's `tracking_url` (default: `base_url`) and " +
	"`tracking_respect_dnt`; changing those changes it in the plan without any request to the API. Not an API field."

// trackingAttributes are the provider's tracking settings.
func trackingAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"tracking_url": schema.StringAttribute{
			MarkdownDescription: "The installation's address as visitors' browsers reach it, used in `tracking_code` " +
				"(the script's `src` and `data-host`), e.g. `https://analytics.example.com` or, under a path prefix, " +
				"`https://example.com/analytics`. Set it when the API is reached through another address (an internal " +
				"host name, a proxy, a tunnel) than the public one. Defaults to the `" + EnvTrackingURL + "` environment " +
				"variable, else `base_url` (without `/api/v1`). Not sent to the API.",
			Optional:   true,
			Validators: []validator.String{trackingURLValidator()},
		},
		"tracking_respect_dnt": schema.BoolAttribute{
			MarkdownDescription: "Whether the tracking script sends nothing for visitors whose browser asks not to be " +
				"tracked (`navigator.doNotTrack`): `data-dnt=\"true\"` in `tracking_code`. Defaults to the `" +
				EnvTrackingRespectDNT + "` environment variable (`true` or `false`), else `false`, the application's " +
				"default. Not sent to the API.",
			Optional: true,
		},
	}
}

// resolveTrackingCode returns the tracking code of the provider's settings:
// tracking_url (else ANALYTICS_TRACKING_URL, else the public part of
// baseAPI, the client's API root) and tracking_respect_dnt (else
// ANALYTICS_TRACKING_RESPECT_DNT). Values from the environment are checked
// here, with the attribute validators' messages.
func resolveTrackingCode(cfg providerModel, baseAPI string, diags *diag.Diagnostics) string {
	raw, _ := providerConfigValue(cfg.TrackingURL, EnvTrackingURL)
	public := strings.TrimSuffix(baseAPI, "/api/v1")
	if raw != "" {
		if p := trackingURLProblem(settingName(cfg.TrackingURL, "tracking_url", EnvTrackingURL), raw); p != "" {
			diags.AddAttributeError(path.Root("tracking_url"), "Invalid Tracking URL", p)
			return ""
		}
		public = strings.TrimRight(strings.TrimSpace(raw), "/")
	}
	dnt := cfg.TrackingRespectDNT.ValueBool()
	if cfg.TrackingRespectDNT.IsNull() {
		dnt = envBool(EnvTrackingRespectDNT, "tracking_respect_dnt", diags)
	}
	return trackingCode(public, dnt)
}

// envBool reads a boolean environment variable (unset or empty: false),
// adding an error on attr when it is neither true nor false.
func envBool(env, attr string, diags *diag.Diagnostics) bool {
	raw := strings.TrimSpace(os.Getenv(env))
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

// trackingCodeValue is the tracking code as an attribute value; unknown when
// the provider is not configured yet.
func (d *providerData) trackingCodeValue() types.String {
	if d == nil {
		return types.StringUnknown()
	}
	return types.StringValue(d.trackingCode)
}

// trackingCodeOr returns planned, or the tracking code when planned is
// unknown (the provider was not configured at plan time). A known planned
// value is kept as it is: the apply must produce what the plan showed.
func (d *providerData) trackingCodeOr(planned types.String) types.String {
	if planned.IsUnknown() {
		return d.trackingCodeValue()
	}
	return planned
}

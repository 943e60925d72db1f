package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Default operation time limits, used when the timeouts block leaves one out.
const (
	defaultCreateTimeout = 10 * time.Minute
	defaultReadTimeout   = 5 * time.Minute
	defaultUpdateTimeout = 10 * time.Minute
	defaultDeleteTimeout = 10 * time.Minute
)

// websiteSchemaVersion is the version of the resource's state. Version 0
// (provider 0.1.0) stored an unset exclude_params as an empty set, which the
// provider then sent on every update, erasing exclusions set in the web
// interface; version 1 keeps it null (not managed); version 2 adds
// skip_destroy (false in every upgraded state); version 3 adds
// tracking_code (filled in by the upgrade when the provider is configured,
// else by the next refresh).
const websiteSchemaVersion = 3

func (r *websiteResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = websiteResourceSchema(ctx)
}

func (r *websiteResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       "The website's numeric id on the server (API field `id`), e.g. \"12\".",
				RequiredForImport: true,
			},
		},
	}
}

// UpgradeState upgrades states written by provider 0.1.0 (version 0) and by
// earlier builds of this version (1 and 2). Their prior schemas are the
// current one (with version 0's exclude_params): the attributes they lack
// read as null; skip_destroy becomes false, as for a new website, and
// tracking_code the provider's tracking code, so that the upgrade plans no
// change even without a refresh.
func (r *websiteResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	v0 := websiteResourceSchemaV0(ctx)
	v1 := websiteResourceSchema(ctx)
	v1.Version = 1
	v2 := websiteResourceSchema(ctx)
	v2.Version = 2
	upgrade := func(fixExcludeParams bool) func(context.Context, resource.UpgradeStateRequest, *resource.UpgradeStateResponse) {
		return func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			var m websiteResourceModel
			resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
			if resp.Diagnostics.HasError() {
				return
			}
			if fixExcludeParams {
				m.ExcludeParams = upgradeExcludeParamsV0(m.ExcludeParams)
			}
			if m.SkipDestroy.IsNull() || m.SkipDestroy.IsUnknown() {
				m.SkipDestroy = types.BoolValue(false)
			}
			if r.data != nil && (m.TrackingCode.IsNull() || m.TrackingCode.IsUnknown()) {
				m.TrackingCode = r.data.trackingCodeValue()
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		}
	}
	return map[int64]resource.StateUpgrader{
		0: {PriorSchema: &v0, StateUpgrader: upgrade(true)},
		1: {PriorSchema: &v1, StateUpgrader: upgrade(false)},
		2: {PriorSchema: &v2, StateUpgrader: upgrade(false)},
	}
}

// upgradeExcludeParamsV0: version 0 wrote an empty set both for
// `exclude_params = []` and for no exclude_params at all, and could not
// read the server's value. Only a non-empty set is known to have been set
// by Terraform; an empty one becomes null (not managed), so that upgrading
// plans no change and never erases exclusions made in the web interface.
func upgradeExcludeParamsV0(v types.Set) types.Set {
	if v.IsNull() || v.IsUnknown() || len(v.Elements()) == 0 {
		return types.SetNull(types.StringType)
	}
	return v
}

// websiteResourceSchemaV0 is the schema of provider 0.1.0, for the upgrade.
func websiteResourceSchemaV0(ctx context.Context) schema.Schema {
	s := websiteResourceSchema(ctx)
	s.Version = 0
	params := s.Attributes["exclude_params"].(schema.SetAttribute) //nolint:forcetypeassert // built just above
	params.Computed = true
	params.Default = setdefault.StaticValue(stringSetValue(nil))
	s.Attributes["exclude_params"] = params
	return s
}

// readTimeoutDescription documents timeouts.read, which also bounds the
// statistics check of a plan that destroys the website (website_destroy.go).
const readTimeoutDescription = "A string that can be [parsed as a duration](https://pkg.go.dev/time#ParseDuration) " +
	"consisting of numbers and unit suffixes, such as \"30s\" or \"2h45m\". Valid time units are \"s\" (seconds), " +
	"\"m\" (minutes), \"h\" (hours). Defaults to 5 minutes. It bounds each refresh of the website, and, in a plan " +
	"that destroys or replaces it, the check of the statistics the destroy deletes: both wait for the API's throttle " +
	"(60 requests a minute per client address; when other clients spent the minute, up to about a minute, as the " +
	"server asks with `Retry-After`) and retry failed answers within this bound. The statistics checks of one plan " +
	"are also bounded together: 5 minutes from the first one's start."

func websiteResourceSchema(ctx context.Context) schema.Schema {
	return schema.Schema{
		Version: websiteSchemaVersion,
		MarkdownDescription: "A website tracked by the analytics installation (API: `/api/v1/websites`). " +
			"Create, update and delete map to the API's store, update and delete; `domain` cannot change in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The website's numeric id on the server (API field `id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"domain": schema.StringAttribute{
				MarkdownDescription: "Host name (or IPv4 address) of the website (API field `domain`), unique across the " +
					"whole installation. Must be in the form the server stores: lower case, without scheme, " +
					"leading `www.`, path or port; anything else fails at plan time naming the form to use. " +
					"Internationalised names must be given in punycode (`xn--...`). Changing it replaces the website.",
				Required:      true,
				Validators:    []validator.String{domainValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"privacy": schema.StringAttribute{
				MarkdownDescription: "Who can see the statistics page: `public`, `private` or `password` " +
					"(API field `privacy`: 0, 1, 2). Defaults to `public`.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(privacyPublic),
				Validators: []validator.String{stringvalidator.OneOf(privacyNames...)},
			},
			"password": schema.StringAttribute{
				MarkdownDescription: "Password of the statistics page (API field `password`, 1 to 128 characters, not " +
					"`\"0\"`, which the server treats as no password). Only allowed with `privacy = \"password\"`; a " +
					"new website with that privacy needs `password` or `password_wo`, and so does a website switched " +
					"to it. Left unset on a website whose privacy already is `password` (e.g. after an import), the " +
					"password is not managed: the server keeps the one it has. It is stored in the Terraform state " +
					"(as a sensitive value); use `password_wo` to keep it out. The API never returns it: Terraform " +
					"notices when it was removed outside Terraform and sets it again, but not when it was changed. " +
					"Leaving `password` privacy clears a password that Terraform set.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{passwordValidator()},
			},
			"password_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only form of `password` (Terraform 1.11 or OpenTofu 1.11 and later): the " +
					"password of the statistics page (API field `password`, same rules as `password`), which is sent to " +
					"the API but never stored in the plan or the state, and may come from an ephemeral value. Requires " +
					"`password_wo_version`; conflicts with `password`. As Terraform cannot see a change of a " +
					"write-only value, the password is sent on create and again only when `password_wo_version` " +
					"changes or the website is found without a password: change the version to rotate the password.",
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				Validators: []validator.String{
					passwordValidator(),
					stringvalidator.ConflictsWith(path.MatchRoot("password")),
					stringvalidator.AlsoRequires(path.MatchRoot("password_wo_version")),
				},
			},
			"password_wo_version": schema.Int64Attribute{
				MarkdownDescription: "Version of `password_wo`, stored in the state: any number, to be changed (e.g. " +
					"incremented) whenever `password_wo` changes, which makes the next apply send the new password. " +
					"Required with `password_wo`. If the password is found removed on the server, the next plan " +
					"shows this version as changed and the apply sets the password again; an update that finds it " +
					"removed although the plan did not show it (`-refresh=false`, or a removal after the refresh) " +
					"sends `password_wo` again.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("password_wo"))},
			},
			"email_reports": schema.BoolAttribute{
				MarkdownDescription: "Whether periodic e-mail reports are sent (API field `email`). Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"exclude_bots": schema.BoolAttribute{
				MarkdownDescription: "Whether hits from common bots are excluded from tracking (API field `exclude_bots`). Defaults to `true`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(true),
			},
			"exclude_params": schema.SetAttribute{
				MarkdownDescription: "URL query parameter names removed from tracked page URLs, or the single entry `&` " +
					"for every parameter (API field `exclude_params`, sent one per line). The API never returns this " +
					"field, so Terraform cannot see its value on the server: **unset, it is not managed** and never " +
					"sent, so the server keeps whatever it holds (set in the web interface, say); this is how it is " +
					"after an import. Set it (`[]` for none) to manage it: it is then sent on every create and update, " +
					"and changes made outside Terraform are not detected. Removing it from the configuration after " +
					"Terraform set it clears it on the server once, then leaves it unmanaged.",
				ElementType: types.StringType,
				Optional:    true,
				Validators:  []validator.Set{excludeParamsValidator},
			},
			"exclude_ips": schema.SetAttribute{
				MarkdownDescription: "IPv4/IPv6 addresses and CIDR ranges whose hits are not tracked (API field " +
					"`exclude_ips`, sent one per line and read back split on line breaks, so a list edited in the " +
					"web interface shows no spurious difference; an entry stored with stray spaces, which the server " +
					"never matches, shows as a difference that the next apply repairs). Defaults to none.",
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     setdefault.StaticValue(stringSetValue(nil)),
				Validators:  []validator.Set{excludeIPsValidator},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the website was created (RFC 3339, API field `created_at`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the website was last changed (RFC 3339, API field `updated_at`).",
				Computed:            true,
			},
			"skip_destroy": schema.BoolAttribute{
				MarkdownDescription: "Keep the website on the server when Terraform destroys it (not an API field; " +
					"like `skip_destroy` of `aws_cloudwatch_log_group`). Defaults to `false`: destroying the website, or " +
					"replacing it because `domain` changed, deletes it on the server **with all its statistics** (the " +
					"application keeps no archive). When `true`, a destroy, and the destroy half of a replacement, only " +
					"removes the website from the Terraform state: it stays on the server with its statistics, keeps " +
					"recording pageviews and counts against the plan's website limit, and with a new `domain` a new " +
					"website is created beside it. It protects a website once applied: apply `skip_destroy = true` on " +
					"its own before the destroy or the change of domain. Set to `false` on import.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"tracking_code": schema.StringAttribute{
				MarkdownDescription: trackingCodeDescription,
				Computed:            true,
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true,
				ReadDescription: readTimeoutDescription}),
		},
	}
}

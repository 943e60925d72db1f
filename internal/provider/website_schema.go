package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
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
		Attributes: websiteResourceAttributes(), // website_attributes.go
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true,
				ReadDescription: readTimeoutDescription}),
		},
	}
}

package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The attributes of a website, each described once: its name, its schema in
// the resource and in the data sources, its API field, how it is sent and how
// it is read back. Everything else is derived from websiteAttributes: the
// resource's schema (websiteResourceSchema), the data sources' attributes and
// values (websiteOutputAttributes, websiteDataValues), the request's fields
// (websiteResourceModel.input), the state from an answer (applyWebsite), the
// update decision (onlyLocalChange: a change to any attribute the API holds
// is sent), the attribute a 422 names (apiFieldAttributes) and the model of
// an imported website (importedWebsiteModel). The resource's model
// (websiteResourceModel, website_model.go) has one field per attribute with a
// resource schema, tagged with its name.

// websiteAttribute describes one attribute of a website.
type websiteAttribute struct {
	name string
	// apiField is the API's field in forms, records and 422 answers ("" for an
	// attribute only Terraform holds). An attribute with one that the
	// configuration can set is held by the API: a change to it is sent.
	apiField string
	// resource is the attribute in analytics_website (nil: only in the data
	// sources); its model field is the one tagged with name.
	resource schema.Attribute
	// data is the attribute's description in the data sources, which show
	// every attribute the API returns ("": the resource's); dataType its type
	// there when it has no resource schema.
	data     string
	dataType attr.Type
	// send sets the attribute's field of a create or update from the plan;
	// prior is the state before the change (nil on create).
	send func(ctx context.Context, m websiteResourceModel, prior *websiteResourceModel, in *client.WebsiteInput, diags *diag.Diagnostics)
	// read is the attribute's value in a record the API returned (nil: the
	// API does not return it, and the state keeps its value).
	read func(w websiteRecord) (attr.Value, error)
}

// websiteRecord is a website as the API returned it, with the provider's
// tracking code.
type websiteRecord struct {
	*client.Website
	trackingCode types.String
}

// websiteAttributes describes the attributes of a website, in the order the
// schema documents them.
var websiteAttributes = []websiteAttribute{
	{
		name: "id", apiField: "id",
		resource: schema.StringAttribute{
			MarkdownDescription: "The website's numeric id on the server (API field `id`).",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		read: func(w websiteRecord) (attr.Value, error) { return types.StringValue(strconv.FormatInt(w.ID, 10)), nil },
	},
	{
		name: "domain", apiField: "domain",
		resource: schema.StringAttribute{
			MarkdownDescription: "Host name (or IPv4 address) of the website (API field `domain`), unique across the " +
				"whole installation. Must be in the form the server stores: lower case, without scheme, " +
				"leading `www.`, path or port; anything else fails at plan time naming the form to use. " +
				"A new website's internationalised name is given in punycode (`xn--...`), without a trailing dot: " +
				"a browser sends the host so, and the server matches it literally. A website already stored in " +
				"Unicode or with a trailing dot is managed with its stored domain, with a warning that it records " +
				"no browser pageview. Changing it replaces the website.",
			Required:      true,
			Validators:    []validator.String{websiteDomainValidator()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		send: func(_ context.Context, m websiteResourceModel, _ *websiteResourceModel, in *client.WebsiteInput, _ *diag.Diagnostics) {
			in.Domain = m.Domain.ValueString()
		},
		read: func(w websiteRecord) (attr.Value, error) { return types.StringValue(w.Domain), nil },
	},
	{
		name: "privacy", apiField: "privacy",
		resource: schema.StringAttribute{
			MarkdownDescription: "Who can see the statistics page: `public`, `private` or `password` " +
				"(API field `privacy`: 0, 1, 2). Defaults to `public`.",
			Optional:   true,
			Computed:   true,
			Default:    stringdefault.StaticString(privacyPublic),
			Validators: []validator.String{stringvalidator.OneOf(privacyNames...)},
		},
		data: "Who can see the statistics page: `public`, `private` or `password` (API field `privacy`).",
		send: func(_ context.Context, m websiteResourceModel, _ *websiteResourceModel, in *client.WebsiteInput, _ *diag.Diagnostics) {
			in.Privacy = privacyToAPI(m.Privacy.ValueString())
		},
		read: func(w websiteRecord) (attr.Value, error) {
			privacy, err := privacyFromAPI(w.PrivacyValue())
			return types.StringValue(privacy), err
		},
	},
	{
		name: "password", apiField: "password",
		resource: schema.StringAttribute{
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
		send: sendPassword, // website_password.go; read back by applyWebsite
	},
	{
		name: "password_wo", apiField: "password",
		resource: schema.StringAttribute{
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
		// Sent by Create and Update from the configuration (writeOnlyPassword).
	},
	{
		name: "password_wo_version", apiField: "password",
		resource: schema.Int64Attribute{
			MarkdownDescription: "Version of `password_wo`, stored in the state: any number, to be changed (e.g. " +
				"incremented) whenever `password_wo` changes, which makes the next apply send the new password. " +
				"Required with `password_wo`. If the password is found removed on the server, the next plan " +
				"shows this version as changed and the apply sets the password again; an update that finds it " +
				"removed although the plan did not show it (`-refresh=false`, or a removal after the refresh) " +
				"sends `password_wo` again.",
			Optional:   true,
			Validators: []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("password_wo"))},
		},
	},
	{
		name: "password_set", apiField: "password", dataType: types.BoolType,
		data: "Whether a statistics page password is stored (API field `password`; the password itself is never returned).",
		read: func(w websiteRecord) (attr.Value, error) { return types.BoolValue(w.PasswordSet), nil },
	},
	{
		name: "email_reports", apiField: "email",
		resource: schema.BoolAttribute{
			MarkdownDescription: "Whether periodic e-mail reports are sent (API field `email`). Defaults to `false`.",
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(false),
		},
		data: "Whether periodic e-mail reports are sent (API field `email`).",
		send: func(_ context.Context, m websiteResourceModel, _ *websiteResourceModel, in *client.WebsiteInput, _ *diag.Diagnostics) {
			in.Email = m.EmailReports.ValueBool()
		},
		read: func(w websiteRecord) (attr.Value, error) { return types.BoolValue(w.EmailValue()), nil },
	},
	{
		name: "exclude_bots", apiField: "exclude_bots",
		resource: schema.BoolAttribute{
			MarkdownDescription: "Whether hits from common bots are excluded from tracking (API field `exclude_bots`). Defaults to `true`.",
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(true),
		},
		data: "Whether hits from common bots are excluded (API field `exclude_bots`).",
		send: func(_ context.Context, m websiteResourceModel, _ *websiteResourceModel, in *client.WebsiteInput, _ *diag.Diagnostics) {
			in.ExcludeBots = m.ExcludeBots.ValueBool()
		},
		read: func(w websiteRecord) (attr.Value, error) { return types.BoolValue(w.ExcludeBotsValue()), nil },
	},
	{
		name: "exclude_params", apiField: "exclude_params",
		resource: schema.SetAttribute{
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
		send: sendExcludeParams, // website_model.go; the API never returns it
	},
	{
		name: "exclude_ips", apiField: "exclude_ips",
		resource: schema.SetAttribute{
			MarkdownDescription: "IPv4/IPv6 addresses and CIDR ranges whose hits are not tracked (API field " +
				"`exclude_ips`, sent one per line and read back split on line breaks, so a list edited in the " +
				"web interface shows no spurious difference, and an address or range stored twice there, in any spelling, is read once and, when the configuration manages the list, written back once each by the next apply; an entry stored with stray spaces or that is no address, which the " +
				"server never matches, is kept with a warning when the configuration copies it, and refused when the " +
				"configuration adds it). Defaults to none.",
			ElementType: types.StringType,
			Optional:    true,
			Computed:    true,
			Default:     setdefault.StaticValue(stringSetValue(nil)),
			Validators:  []validator.Set{excludeIPsValidator},
		},
		data: "Excluded IP addresses and CIDR ranges (API field `exclude_ips`, split on line breaks).",
		send: func(ctx context.Context, m websiteResourceModel, _ *websiteResourceModel, in *client.WebsiteInput, diags *diag.Diagnostics) {
			in.ExcludeIPs = []string{}
			if !m.ExcludeIPs.IsNull() && !m.ExcludeIPs.IsUnknown() {
				diags.Append(m.ExcludeIPs.ElementsAs(ctx, &in.ExcludeIPs, false)...)
			}
		},
		read: func(w websiteRecord) (attr.Value, error) { return stringSetValue(foldIPEntries(w.ExcludeIPs)), nil },
	},
	{
		name: "favorite", apiField: "favorite", dataType: types.BoolType,
		data: "Whether the website is marked as a favorite (API field `favorite`; null on server builds without favorites).",
		read: func(w websiteRecord) (attr.Value, error) { return types.BoolPointerValue(w.Favorite), nil },
	},
	{
		name: "created_at", apiField: "created_at",
		resource: schema.StringAttribute{
			MarkdownDescription: "When the website was created (RFC 3339, API field `created_at`).",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		read: func(w websiteRecord) (attr.Value, error) { return timeValue(w.CreatedAt), nil },
	},
	{
		name: "updated_at", apiField: "updated_at",
		resource: schema.StringAttribute{
			MarkdownDescription: "When the website was last changed (RFC 3339, API field `updated_at`).",
			Computed:            true,
		},
		read: func(w websiteRecord) (attr.Value, error) { return timeValue(w.UpdatedAt), nil },
	},
	{
		name: "skip_destroy",
		resource: schema.BoolAttribute{
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
	},
	{
		name: "tracking_code", // built by the provider (tracking_code.go), not an API field
		resource: schema.StringAttribute{
			MarkdownDescription: trackingCodeDescription,
			Computed:            true,
		},
		read: func(w websiteRecord) (attr.Value, error) { return w.trackingCode, nil },
	},
}

// storedString is a string column's value as read: null for NULL ("", which
// the server never stores).
func storedString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// configurable reports whether the configuration can set the attribute (it
// is not only computed).
func (a websiteAttribute) configurable() bool {
	return a.resource != nil && (a.resource.IsRequired() || a.resource.IsOptional())
}

// held reports whether the API holds the attribute and the configuration
// sets it: a change to it is sent.
func (a websiteAttribute) held() bool { return a.apiField != "" && a.configurable() }

// websiteResourceAttributes are the attributes of the resource's schema.
func websiteResourceAttributes() map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{}
	for _, a := range websiteAttributes {
		if a.resource != nil {
			attrs[a.name] = a.resource
		}
	}
	return attrs
}

// websiteAPIFieldAttributes maps the API fields the provider sends to the
// resource's attributes (the first attribute of a field: password, not
// password_wo).
func websiteAPIFieldAttributes() map[string]string {
	m := map[string]string{}
	for _, a := range websiteAttributes {
		if _, seen := m[a.apiField]; a.held() && !seen {
			m[a.apiField] = a.name
		}
	}
	return m
}

// onlyLocalChange reports whether an update changes nothing the server
// holds (only skip_destroy, tracking_code or timeouts), so that no request
// is needed: every attribute the API holds is equal in plan and state, or
// unknown in the plan (unset, it keeps the server's value: see
// appliedLocally).
func onlyLocalChange(plan, state websiteResourceModel) bool {
	for _, a := range websiteAttributes {
		if !a.held() {
			continue
		}
		if v := plan.attribute(a.name); !v.IsUnknown() && !v.Equal(state.attribute(a.name)) {
			return false
		}
	}
	return true
}

// keptByUpdate are the attributes an update leaves out, so that the server
// keeps them as it holds them now: those the plan does not change, of the
// ones the API returns and stores as one field (domain cannot change;
// exclude_ips and the password have rules of their own). A change made in
// the web interface after the plan is then not undone by an update that
// did not show it.
func keptByUpdate(plan, state websiteResourceModel) []websiteAttribute {
	var kept []websiteAttribute
	for _, a := range websiteAttributes {
		switch {
		case !a.held() || a.read == nil || a.send == nil,
			a.apiField == "domain" || a.apiField == "password" || a.apiField == "exclude_ips":
			continue
		}
		if v := plan.attribute(a.name); !v.IsUnknown() && v.Equal(state.attribute(a.name)) {
			kept = append(kept, a)
		}
	}
	return kept
}

// websiteOutputAttributes are the read-only attributes of a website in data
// sources; id and domain are added by the caller.
func websiteOutputAttributes() map[string]dsschema.Attribute {
	attrs := map[string]dsschema.Attribute{}
	for _, a := range websiteAttributes {
		if a.read == nil || a.name == "id" || a.name == "domain" {
			continue
		}
		desc := a.data
		if desc == "" {
			desc = a.resource.GetMarkdownDescription()
		}
		t := a.dataType
		if t == nil {
			t = a.resource.GetType()
		}
		attrs[a.name] = dataSourceAttribute(desc, t)
	}
	return attrs
}

// dataSourceAttribute is a read-only attribute of the data sources, of
// type t.
func dataSourceAttribute(desc string, t attr.Type) dsschema.Attribute {
	switch t := t.(type) {
	case types.SetType:
		return dsschema.SetAttribute{MarkdownDescription: desc, ElementType: t.ElemType, Computed: true}
	case types.ListType:
		return dsschema.ListAttribute{MarkdownDescription: desc, ElementType: t.ElemType, Computed: true}
	case basetypes.BoolType:
		return dsschema.BoolAttribute{MarkdownDescription: desc, Computed: true}
	case basetypes.Int64Type:
		return dsschema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	default:
		return dsschema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
}

// websiteDataValues are the values of a website in the data sources: every
// attribute the API returns.
func websiteDataValues(w websiteRecord) (map[string]attr.Value, error) {
	values := map[string]attr.Value{}
	for _, a := range websiteAttributes {
		if a.read == nil {
			continue
		}
		v, err := a.read(w)
		if err != nil {
			return nil, err
		}
		values[a.name] = v
	}
	return values, nil
}

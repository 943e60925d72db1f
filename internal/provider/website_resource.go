package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var (
	_ resource.ResourceWithConfigure      = (*websiteResource)(nil)
	_ resource.ResourceWithImportState    = (*websiteResource)(nil)
	_ resource.ResourceWithValidateConfig = (*websiteResource)(nil)
)

// NewWebsiteResource returns the analytics_website resource.
func NewWebsiteResource() resource.Resource { return &websiteResource{} }

type websiteResource struct {
	data *providerData
}

type websiteResourceModel struct {
	ID            types.String   `tfsdk:"id"`
	Domain        types.String   `tfsdk:"domain"`
	Privacy       types.String   `tfsdk:"privacy"`
	Password      types.String   `tfsdk:"password"`
	PasswordWO    types.String   `tfsdk:"password_wo"`
	PasswordWOVer types.Int64    `tfsdk:"password_wo_version"`
	EmailReports  types.Bool     `tfsdk:"email_reports"`
	ExcludeBots   types.Bool     `tfsdk:"exclude_bots"`
	ExcludeParams types.Set      `tfsdk:"exclude_params"`
	ExcludeIPs    types.Set      `tfsdk:"exclude_ips"`
	CreatedAt     types.String   `tfsdk:"created_at"`
	UpdatedAt     types.String   `tfsdk:"updated_at"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

// Privacy names in configuration and their API values.
const (
	privacyPublic   = "public"
	privacyPrivate  = "private"
	privacyPassword = "password"
)

var privacyNames = []string{privacyPublic, privacyPrivate, privacyPassword}

func privacyToAPI(name string) int {
	switch name {
	case privacyPrivate:
		return client.PrivacyPrivate
	case privacyPassword:
		return client.PrivacyPassword
	default:
		return client.PrivacyPublic
	}
}

func privacyFromAPI(v int) (string, error) {
	if v >= 0 && v < len(privacyNames) {
		return privacyNames[v], nil
	}
	return "", fmt.Errorf("the server returned privacy %d, which is none of 0 (public), 1 (private), 2 (password)", v)
}

// Default operation time limits, used when the timeouts block leaves one out.
const (
	defaultCreateTimeout = 10 * time.Minute
	defaultReadTimeout   = 5 * time.Minute
	defaultUpdateTimeout = 10 * time.Minute
	defaultDeleteTimeout = 10 * time.Minute
)

func (r *websiteResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_website"
}

func (r *websiteResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = websiteResourceSchema(ctx)
}

func websiteResourceSchema(ctx context.Context) schema.Schema {
	return schema.Schema{
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
				MarkdownDescription: "Password of the statistics page (API field `password`, 1 to 128 characters). " +
					"When `privacy` is `password`, exactly one of `password` and `password_wo` is required; neither is " +
					"allowed otherwise. It is stored in the Terraform state (as a sensitive value); use `password_wo` " +
					"to keep it out. The API never returns it: Terraform notices when it was removed outside Terraform " +
					"and sets it again, but not when it was changed. Leaving `password` privacy clears it on the server.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{passwordValidator()},
			},
			"password_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only form of `password` (Terraform 1.11 or OpenTofu 1.11 and later): the " +
					"password of the statistics page (API field `password`, 1 to 128 characters), which is sent to the " +
					"API but never stored in the plan or the state, and may come from an ephemeral value. Requires " +
					"`password_wo_version`; conflicts with `password`. As Terraform cannot see a change of a " +
					"write-only value, the password is sent on create and again only when `password_wo_version` " +
					"changes: change the version to rotate the password.",
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
					"shows this version as changed and the apply sets the password again.",
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
					"for every parameter (API field `exclude_params`, sent one per line). Defaults to none. The API " +
					"never returns this field, so changes made outside Terraform cannot be detected: Terraform keeps " +
					"the configured value and sends it on every create and update.",
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     setdefault.StaticValue(stringSetValue(nil)),
				Validators:  []validator.Set{excludeParamsValidator{}},
			},
			"exclude_ips": schema.SetAttribute{
				MarkdownDescription: "IPv4/IPv6 addresses and CIDR ranges whose hits are not tracked (API field " +
					"`exclude_ips`, sent one per line and read back split on line breaks, so a list edited in the " +
					"web interface shows no spurious difference). Defaults to none.",
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     setdefault.StaticValue(stringSetValue(nil)),
				Validators:  []validator.Set{excludeIPsValidator{}},
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
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}),
		},
	}
}

func (r *websiteResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	data, ok := req.ProviderData.(*providerData)
	if !ok {
		resp.Diagnostics.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", req.ProviderData))
		return
	}
	r.data = data
}

// ValidateConfig checks the rules that span attributes, at plan time.
func (r *websiteResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg websiteResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Privacy.IsUnknown() {
		return
	}
	privacy := cfg.Privacy.ValueString()
	if cfg.Privacy.IsNull() {
		privacy = privacyPublic
	}
	// An unknown (or ephemeral) password counts as set: it is known by apply.
	// Both set at once is refused by password_wo's ConflictsWith.
	hasPassword, hasWriteOnly := !cfg.Password.IsNull(), !cfg.PasswordWO.IsNull()
	switch {
	case privacy == privacyPassword && !hasPassword && !hasWriteOnly:
		resp.Diagnostics.AddAttributeError(path.Root("password"), "Missing Password",
			"privacy = \"password\" protects the statistics page with a password, so \"password\" or \"password_wo\" "+
				"must be set. Set password (e.g. from a variable marked sensitive), or password_wo with "+
				"password_wo_version to keep the password out of the state (Terraform 1.11 or later), or choose "+
				"privacy \"public\" or \"private\".")
	case privacy != privacyPassword:
		for _, a := range []struct {
			name string
			set  bool
		}{{"password", hasPassword}, {"password_wo", hasWriteOnly}} {
			if a.set {
				resp.Diagnostics.AddAttributeError(path.Root(a.name), "Password Without Password Privacy",
					fmt.Sprintf("A password only takes effect when privacy = \"password\", but privacy is %q. "+
						"Set privacy = \"password\", or remove %s.", privacy, a.name))
			}
		}
	}
}

// client returns the API client, or adds an error when the provider could
// not be configured (its configuration was unknown at plan time).
func (r *websiteResource) client(diags *diag.Diagnostics) *client.Client {
	return dataClient(r.data, diags)
}

// websites returns the reader of websites by id (see client.BulkReader), or
// adds an error like client.
func (r *websiteResource) websites(diags *diag.Diagnostics) *client.BulkReader {
	if r.client(diags) == nil {
		return nil
	}
	return r.data.websites
}

// input builds the API fields from a plan: every managed field is sent.
func (m websiteResourceModel) input(ctx context.Context, diags *diag.Diagnostics) client.WebsiteInput {
	in := client.WebsiteInput{
		Domain:      m.Domain.ValueString(),
		Privacy:     privacyToAPI(m.Privacy.ValueString()),
		Email:       m.EmailReports.ValueBool(),
		ExcludeBots: m.ExcludeBots.ValueBool(),
	}
	for _, s := range []struct {
		set types.Set
		dst *[]string
	}{{m.ExcludeParams, &in.ExcludeParams}, {m.ExcludeIPs, &in.ExcludeIPs}} {
		if !s.set.IsNull() && !s.set.IsUnknown() {
			diags.Append(s.set.ElementsAs(ctx, s.dst, false)...)
		}
	}
	switch {
	case in.Privacy != client.PrivacyPassword:
		// Leaving password privacy clears any stored password (the server
		// keeps it otherwise).
		empty := ""
		in.Password = &empty
	case !m.Password.IsNull():
		pw := m.Password.ValueString()
		in.Password = &pw
	default:
		// password_wo is not in the plan: Create and Update read it from the
		// configuration when it is to be sent (writeOnlyPassword), and
		// otherwise leave it out, so that the server keeps the stored one.
	}
	return in
}

// writeOnlyPassword returns password_wo from the configuration, for
// in.Password. Write-only values are only in the configuration, never in the
// plan or state.
func writeOnlyPassword(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) *string {
	var wo types.String
	diags.Append(config.GetAttribute(ctx, path.Root("password_wo"), &wo)...)
	if diags.HasError() {
		return nil
	}
	if wo.IsNull() || wo.IsUnknown() {
		diags.AddAttributeError(path.Root("password_wo"), "Missing Password",
			"privacy = \"password\" needs a password, but neither password nor password_wo has a value at apply "+
				"time. Set one of them.")
		return nil
	}
	pw := wo.ValueString()
	return &pw
}

// applyWebsite copies the server's view of a website into the model. The
// password and exclude_params are not returned by the API: the password is
// kept unless the server says none is set; exclude_params is kept as is.
func (m *websiteResourceModel) applyWebsite(w *client.Website) error {
	privacy, err := privacyFromAPI(w.PrivacyValue())
	if err != nil {
		return err
	}
	m.ID = types.StringValue(strconv.FormatInt(w.ID, 10))
	m.Domain = types.StringValue(w.Domain)
	m.Privacy = types.StringValue(privacy)
	m.EmailReports = types.BoolValue(w.EmailValue())
	m.ExcludeBots = types.BoolValue(w.ExcludeBotsValue())
	m.ExcludeIPs = stringSetValue(w.ExcludeIPs)
	if !w.PasswordSet || privacy != privacyPassword {
		m.Password = types.StringNull()
		// Likewise for password_wo: its version then differs from the
		// configuration's, and the next apply sends the password again.
		m.PasswordWOVer = types.Int64Null()
	}
	if m.ExcludeParams.IsNull() || m.ExcludeParams.IsUnknown() {
		m.ExcludeParams = stringSetValue(nil)
	}
	m.CreatedAt = timeValue(w.CreatedAt)
	m.UpdatedAt = timeValue(w.UpdatedAt)
	return nil
}

func timeValue(t time.Time) types.String {
	if t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.Format(time.RFC3339))
}

func (m websiteResourceModel) id(diags *diag.Diagnostics) int64 {
	id, err := strconv.ParseInt(m.ID.ValueString(), 10, 64)
	if err != nil {
		diags.AddAttributeError(path.Root("id"), "Invalid Website ID",
			fmt.Sprintf("The id %q in the state is not a number. Remove the resource from the state and import it again.", m.ID.ValueString()))
	}
	return id
}

func (r *websiteResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan websiteResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	c := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	in := plan.input(ctx, &resp.Diagnostics)
	if in.Password == nil {
		in.Password = writeOnlyPassword(ctx, req.Config, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// A create whose answer is lost is repeated or settled by a lookup of
	// the domain, never blindly sent twice (see client.CreateWebsiteOnce).
	res, err := c.CreateWebsiteOnce(ctx, in)
	if err != nil {
		addCreateError(&resp.Diagnostics, in.Domain, err)
		return
	}
	w := res.Website
	if err := plan.applyWebsite(w); err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	tflog.Info(ctx, "created website", map[string]any{"id": w.ID, "domain": w.Domain, "adopted": res.Adopted, "attempts": res.Attempts})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *websiteResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state websiteResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	websites := r.websites(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := state.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(d...)
	id := state.id(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// When Terraform refreshes many websites, this is served from a list
	// sweep (100 per request); a website missing from it is confirmed by
	// GET /websites/{id} before it is reported gone.
	w, err := websites.Read(ctx, id)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "website not found on the server; removing it from the state so that it is planned for creation",
			map[string]any{"id": id, "domain": state.Domain.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "read", state.Domain.ValueString(), err)
		return
	}
	if err := state.applyWebsite(w); err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *websiteResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state websiteResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	id := state.id(&resp.Diagnostics)
	in := plan.input(ctx, &resp.Diagnostics)
	// password_wo is sent again only when its version changes, or when the
	// server may hold no password (privacy was not "password" before);
	// otherwise the update leaves the stored password alone.
	if in.Password == nil && (!plan.PasswordWOVer.Equal(state.PasswordWOVer) || state.Privacy.ValueString() != privacyPassword) {
		in.Password = writeOnlyPassword(ctx, req.Config, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// A 500 is checked with a read: the website is gone, or the update is
	// retried (see client.UpdateWebsiteChecked).
	w, err := c.UpdateWebsiteChecked(ctx, id, in)
	r.data.websites.Forget(id)
	if errors.Is(err, client.ErrNotFound) {
		// UpdateWebsiteChecked has confirmed with a read that the website is
		// gone (the real server answers the update itself with a 500).
		resp.Diagnostics.AddError("Website Deleted Outside Terraform",
			fmt.Sprintf("The website %q (id %d) no longer exists on the server: it was deleted outside Terraform "+
				"after the last refresh. Nothing was changed. Run terraform apply again: the refresh will notice the "+
				"deletion and the website will be created anew.", in.Domain, id))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", in.Domain, err)
		return
	}
	plan.ID = state.ID
	if err := plan.applyWebsite(w); err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	tflog.Info(ctx, "updated website", map[string]any{"id": id, "domain": w.Domain})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *websiteResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state websiteResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	id := state.id(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	err := c.DeleteWebsite(ctx, id)
	r.data.websites.Forget(id)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "website already deleted", map[string]any{"id": id})
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "delete", state.Domain.ValueString(), err)
		return
	}
	tflog.Info(ctx, "deleted website", map[string]any{"id": id, "domain": state.Domain.ValueString()})
}

// ImportState accepts a numeric id or an exact domain.
func (r *websiteResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	raw := strings.TrimSpace(req.ID)
	if id, err := strconv.ParseInt(raw, 10, 64); err == nil && id > 0 {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), strconv.FormatInt(id, 10))...)
		return
	}
	if p := domainProblem(raw); p != "" {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Import takes the website's numeric id or its exact domain. %s", p))
		return
	}
	c := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	w, err := c.FindWebsiteByDomain(ctx, raw)
	if errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddError("Website Not Found",
			fmt.Sprintf("No website with the domain %q belongs to this API key's user. Check the spelling, or import "+
				"by numeric id (shown in the web interface's URL of the website).", raw))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", raw, err)
		return
	}
	tflog.Info(ctx, "import: found website by domain", map[string]any{"id": w.ID, "domain": w.Domain})
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), strconv.FormatInt(w.ID, 10))...)
}

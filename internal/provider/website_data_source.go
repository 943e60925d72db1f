package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*websiteDataSource)(nil)

// NewWebsiteDataSource returns the analytics_website data source.
func NewWebsiteDataSource() datasource.DataSource { return &websiteDataSource{} }

type websiteDataSource struct {
	data *providerData
}

// websiteDataModel is one website as data sources expose it.
type websiteDataModel struct {
	ID           types.String `tfsdk:"id"`
	Domain       types.String `tfsdk:"domain"`
	Privacy      types.String `tfsdk:"privacy"`
	PasswordSet  types.Bool   `tfsdk:"password_set"`
	EmailReports types.Bool   `tfsdk:"email_reports"`
	ExcludeBots  types.Bool   `tfsdk:"exclude_bots"`
	ExcludeIPs   types.Set    `tfsdk:"exclude_ips"`
	Favorite     types.Bool   `tfsdk:"favorite"`
	CreatedAt    types.String `tfsdk:"created_at"`
	UpdatedAt    types.String `tfsdk:"updated_at"`
	TrackingCode types.String `tfsdk:"tracking_code"`
}

func websiteDataModelFrom(w *client.Website, trackingCode types.String) (websiteDataModel, error) {
	privacy, err := privacyFromAPI(w.PrivacyValue())
	if err != nil {
		return websiteDataModel{}, err
	}
	return websiteDataModel{
		ID:           types.StringValue(strconv.FormatInt(w.ID, 10)),
		Domain:       types.StringValue(w.Domain),
		Privacy:      types.StringValue(privacy),
		PasswordSet:  types.BoolValue(w.PasswordSet),
		EmailReports: types.BoolValue(w.EmailValue()),
		ExcludeBots:  types.BoolValue(w.ExcludeBotsValue()),
		ExcludeIPs:   stringSetValue(w.ExcludeIPs),
		Favorite:     types.BoolPointerValue(w.Favorite),
		CreatedAt:    timeValue(w.CreatedAt),
		UpdatedAt:    timeValue(w.UpdatedAt),
		TrackingCode: trackingCode,
	}, nil
}

// websiteOutputAttributes are the read-only attributes of a website in data
// sources; id and domain are added by the caller.
func websiteOutputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"privacy": schema.StringAttribute{
			MarkdownDescription: "Who can see the statistics page: `public`, `private` or `password` (API field `privacy`).",
			Computed:            true,
		},
		"password_set": schema.BoolAttribute{
			MarkdownDescription: "Whether a statistics page password is stored (API field `password`; the password itself is never returned).",
			Computed:            true,
		},
		"email_reports": schema.BoolAttribute{
			MarkdownDescription: "Whether periodic e-mail reports are sent (API field `email`).",
			Computed:            true,
		},
		"exclude_bots": schema.BoolAttribute{
			MarkdownDescription: "Whether hits from common bots are excluded (API field `exclude_bots`).",
			Computed:            true,
		},
		"exclude_ips": schema.SetAttribute{
			MarkdownDescription: "Excluded IP addresses and CIDR ranges (API field `exclude_ips`, split on line breaks).",
			ElementType:         types.StringType,
			Computed:            true,
		},
		"favorite": schema.BoolAttribute{
			MarkdownDescription: "Whether the website is marked as a favorite (API field `favorite`; null on server builds without favorites).",
			Computed:            true,
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: "When the website was created (RFC 3339, API field `created_at`).",
			Computed:            true,
		},
		"updated_at": schema.StringAttribute{
			MarkdownDescription: "When the website was last changed (RFC 3339, API field `updated_at`).",
			Computed:            true,
		},
		"tracking_code": schema.StringAttribute{
			MarkdownDescription: trackingCodeDescription,
			Computed:            true,
		},
	}
}

func (d *websiteDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_website"
}

func (d *websiteDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := websiteOutputAttributes()
	oneOf := stringvalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("domain"))
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Numeric id of the website (API field `id`). Exactly one of `id` and `domain` must be set.",
		Optional:            true,
		Computed:            true,
		Validators:          []validator.String{oneOf, websiteIDValidator()},
	}
	attrs["domain"] = schema.StringAttribute{
		MarkdownDescription: "Exact domain of the website (API field `domain`), in the form the server stores it " +
			"(lower case, no scheme or leading `www.`). Exactly one of `id` and `domain` must be set.",
		Optional:   true,
		Computed:   true,
		Validators: []validator.String{oneOf, domainValidator()},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one website of the API key's user, by id or by exact domain.",
		Attributes:          attrs,
	}
}

func (d *websiteDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *websiteDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg websiteDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if dataClient(d.data, &resp.Diagnostics) == nil || resp.Diagnostics.HasError() {
		return
	}
	var (
		w   *client.Website
		err error
	)
	if !cfg.ID.IsNull() {
		id, perr := strconv.ParseInt(cfg.ID.ValueString(), 10, 64)
		if perr != nil {
			resp.Diagnostics.AddAttributeError(path.Root("id"), "Invalid Website ID",
				fmt.Sprintf("%q is not a website id; ids are positive whole numbers.", cfg.ID.ValueString()))
			return
		}
		w, err = d.data.websites.Read(ctx, id) // shares the refresh's list sweep
		if errors.Is(err, client.ErrNotFound) {
			addWebsiteIDNotFound(&resp.Diagnostics, path.Root("id"), id)
			return
		}
	} else {
		domain := cfg.Domain.ValueString()
		w, err = d.data.websites.FindByDomain(ctx, domain) // shares the imports' and the refresh's list sweep
		if errors.Is(err, client.ErrNotFound) {
			addWebsiteDomainNotFound(&resp.Diagnostics, path.Root("domain"), domain)
			return
		}
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "read", cfg.Domain.ValueString(), err)
		return
	}
	out, err := websiteDataModelFrom(w, d.data.trackingCodeValue())
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

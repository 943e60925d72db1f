package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*websiteDataSource)(nil)

// NewWebsiteDataSource returns the analytics_website data source.
func NewWebsiteDataSource() datasource.DataSource { return &websiteDataSource{} }

type websiteDataSource struct {
	data *providerData
}

// websiteDataConfig is what the analytics_website data source's
// configuration sets; the rest of its schema comes from
// websiteOutputAttributes (website_attributes.go).
type websiteDataConfig struct {
	ID     types.String `tfsdk:"id"`
	Domain types.String `tfsdk:"domain"`
}

// websiteDataObject is w as the data sources show it: an object of every
// attribute of websiteDataType.
func websiteDataObject(w *client.Website, trackingCode types.String) (types.Object, error) {
	values, err := websiteDataValues(websiteRecord{Website: w, trackingCode: trackingCode})
	if err != nil {
		return types.ObjectNull(websiteDataType().AttrTypes), err
	}
	obj, diags := types.ObjectValue(websiteDataType().AttrTypes, values)
	if diags.HasError() {
		return obj, fmt.Errorf("the website's attributes do not fit the schema; this is a bug in the provider: %v", diags)
	}
	return obj, nil
}

// websiteDataType is the object type of a website in the data sources.
func websiteDataType() types.ObjectType {
	attrTypes := map[string]attr.Type{"id": basetypes.StringType{}, "domain": basetypes.StringType{}}
	for name, a := range websiteOutputAttributes() {
		attrTypes[name] = a.GetType()
	}
	return basetypes.ObjectType{AttrTypes: attrTypes}
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
	var cfg websiteDataConfig
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &cfg.ID)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("domain"), &cfg.Domain)...)
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
	out, err := websiteDataObject(w, d.data.trackingCodeValue())
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, out)...)
}

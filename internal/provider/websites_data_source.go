package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*websitesDataSource)(nil)

// NewWebsitesDataSource returns the analytics_websites data source.
func NewWebsitesDataSource() datasource.DataSource { return &websitesDataSource{} }

type websitesDataSource struct {
	data *providerData
}

type websitesDataModel struct {
	Search   types.String `tfsdk:"search"`
	SortBy   types.String `tfsdk:"sort_by"`
	Sort     types.String `tfsdk:"sort"`
	Websites types.List   `tfsdk:"websites"` // of websiteDataType
}

func (d *websitesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_websites"
}

func (d *websitesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	element := websiteOutputAttributes()
	element["id"] = schema.StringAttribute{MarkdownDescription: "Numeric id of the website (API field `id`).", Computed: true}
	element["domain"] = schema.StringAttribute{MarkdownDescription: "Domain of the website (API field `domain`).", Computed: true}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the websites of the API key's user, optionally filtered and sorted. " +
			"Every match is returned: the provider pages through the results 100 at a time. A list of several " +
			"pages is read twice, and the two reads must agree, so that it is the list at one moment: when " +
			"another client creates, deletes or renames websites meanwhile, it is read once more, then fails.",
		Attributes: map[string]schema.Attribute{
			"search": schema.StringAttribute{
				MarkdownDescription: searchDescription,
				Optional:            true,
				Validators:          searchValidators(),
			},
			"sort_by": schema.StringAttribute{
				MarkdownDescription: sortByDescription,
				Optional:            true,
				Validators:          sortByValidators(),
			},
			"sort": schema.StringAttribute{
				MarkdownDescription: sortDescription,
				Optional:            true,
				Validators:          sortValidators(),
			},
			"websites": schema.ListNestedAttribute{
				MarkdownDescription: "The matching websites, in the requested order.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: element},
			},
		},
	}
}

func (d *websitesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *websitesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg websitesDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if dataClient(d.data, &resp.Diagnostics) == nil || resp.Diagnostics.HasError() {
		return
	}
	opts := websiteListOptions(cfg.Search, cfg.SortBy, cfg.Sort)
	all, err := d.data.websites.ListAll(ctx, opts) // unfiltered, it serves the imports and reads that follow
	if err != nil {
		addAPIError(&resp.Diagnostics, "list", "", err)
		return
	}
	websites := make([]attr.Value, 0, len(all))
	for i := range all {
		m, err := websiteDataObject(&all[i], d.data.trackingCodeValue())
		if err != nil {
			resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
			return
		}
		websites = append(websites, m)
	}
	var diags diag.Diagnostics
	cfg.Websites, diags = types.ListValue(websiteDataType(), websites)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

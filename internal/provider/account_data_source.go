package provider

import (
	"context"
	"errors"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*accountDataSource)(nil)

// NewAccountDataSource returns the analytics_account data source.
func NewAccountDataSource() datasource.DataSource { return &accountDataSource{} }

type accountDataSource struct {
	data *providerData
}

type accountDataModel struct {
	ID            types.String      `tfsdk:"id"`
	Name          types.String      `tfsdk:"name"`
	Email         types.String      `tfsdk:"email"`
	Locale        types.String      `tfsdk:"locale"`
	Timezone      types.String      `tfsdk:"timezone"`
	CreatedAt     types.String      `tfsdk:"created_at"`
	Plan          *accountPlanModel `tfsdk:"plan"`
	WebsitesCount types.Int64       `tfsdk:"websites_count"`
}

type accountPlanModel struct {
	ID                 types.String `tfsdk:"id"`
	Name               types.String `tfsdk:"name"`
	Websites           types.Int64  `tfsdk:"websites"`
	WebsitesUnlimited  types.Bool   `tfsdk:"websites_unlimited"`
	Pageviews          types.Int64  `tfsdk:"pageviews"`
	PageviewsUnlimited types.Bool   `tfsdk:"pageviews_unlimited"`
	API                types.Bool   `tfsdk:"api"`
	EmailReports       types.Bool   `tfsdk:"email_reports"`
	DataExport         types.Bool   `tfsdk:"data_export"`
}

func (d *accountDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_account"
}

// featureNote ends the description of every plan feature.
const featureNote = " Null when the server does not state it (a customised build)."

func (d *accountDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The API key's user and what its plan allows (`GET /api/v1/account`, which builds " +
			"of the application from version 31 serve), with the number of websites the user holds now. Use it " +
			"in a `precondition` or a `check` to stop or flag a plan that the account cannot carry out, such as " +
			"more websites than the plan allows or e-mail reports on a plan without them. Reading it costs one " +
			"request for the account, shared with the provider's other checks (at most one each time Terraform " +
			"starts the provider: once to plan, once more to apply), and one request for the count.",
		Attributes: map[string]schema.Attribute{
			"id":         str("Numeric id of the API key's user (API field `id`)."),
			"name":       str("Name of the user (API field `name`)."),
			"email":      str("E-mail address of the user (API field `email`)."),
			"locale":     str("Language of the user's interface, such as `en` (API field `locale`)."),
			"timezone":   str("Time zone of the user, such as `UTC` (API field `timezone`)."),
			"created_at": str("When the user signed up, as the server writes it (API field `created_at`)."),
			"plan": schema.SingleNestedAttribute{
				MarkdownDescription: "The user's plan and its features (API field `plan`).",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"id":   str("Numeric id of the plan (API field `plan.id`)."),
					"name": str("Name of the plan (API field `plan.name`)."),
					"websites": schema.Int64Attribute{
						MarkdownDescription: "Number of websites the user may hold (API field `plan.features.websites`); " +
							"`-1` means unlimited (see `websites_unlimited`). The server refuses a website over it with " +
							"\"You created too many websites.\"." + featureNote,
						Computed: true,
					},
					"websites_unlimited": schema.BoolAttribute{
						MarkdownDescription: "Whether the plan allows any number of websites (`websites` is `-1`)." + featureNote,
						Computed:            true,
					},
					"pageviews": schema.Int64Attribute{
						MarkdownDescription: "Number of pageviews recorded per month (API field `plan.features.pageviews`); " +
							"`-1` means unlimited (see `pageviews_unlimited`). Past it, pageviews are not recorded until the " +
							"next month." + featureNote,
						Computed: true,
					},
					"pageviews_unlimited": schema.BoolAttribute{
						MarkdownDescription: "Whether the plan records any number of pageviews (`pageviews` is `-1`)." + featureNote,
						Computed:            true,
					},
					"api": schema.BoolAttribute{
						MarkdownDescription: "Whether the plan has API access (API field `plan.features.api`). Always `true` " +
							"when the server states it and this data source can be read: without it the server refuses every API " +
							"request with 403." + featureNote,
						Computed: true,
					},
					"email_reports": schema.BoolAttribute{
						MarkdownDescription: "Whether the plan sends e-mail reports (API field `plan.features.email_reports`). " +
							"Without it, a website's `email_reports = true` is stored but no report is sent." + featureNote,
						Computed: true,
					},
					"data_export": schema.BoolAttribute{
						MarkdownDescription: "Whether the plan has the data export feature (API field " +
							"`plan.features.data_export`)." + featureNote,
						Computed: true,
					},
				},
			},
			"websites_count": schema.Int64Attribute{
				MarkdownDescription: "Number of websites the user holds now (the `meta.total` of a one-page list " +
					"request), whether Terraform manages them or not.",
				Computed: true,
			},
		},
	}
}

func (d *accountDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *accountDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	c := dataClient(d.data, &resp.Diagnostics)
	if c == nil {
		return
	}
	a, err := c.Account(ctx)
	if errors.Is(err, client.ErrAccountUnsupported) {
		addAccountUnsupported(&resp.Diagnostics, c.BaseURL())
		return
	}
	if err != nil {
		addAPIErrorAbout(&resp.Diagnostics, "read", "the account of the API key's user", err)
		return
	}
	count, _, err := d.data.websitesCount(ctx)
	if err != nil {
		addAPIErrorAbout(&resp.Diagnostics, "count", "the websites of the API key's user", err)
		return
	}
	if count < 0 {
		addWebsitesNotCounted(&resp.Diagnostics)
		return
	}
	m := accountDataModel{
		ID:            types.StringValue(strconv.FormatInt(a.ID, 10)),
		Name:          types.StringValue(a.Name),
		Email:         types.StringValue(a.Email),
		Locale:        types.StringValue(a.Locale),
		Timezone:      types.StringValue(a.Timezone),
		CreatedAt:     types.StringValue(a.CreatedAt),
		Plan:          accountPlan(a.Plan),
		WebsitesCount: types.Int64Value(int64(count)),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// accountPlan is p as the data source shows it; a feature the server left
// out is null.
func accountPlan(p client.Plan) *accountPlanModel {
	m := &accountPlanModel{ID: types.StringNull(), Name: types.StringNull()}
	if p.ID != 0 {
		m.ID = types.StringValue(strconv.FormatInt(p.ID, 10))
	}
	if p.Name != "" {
		m.Name = types.StringValue(p.Name)
	}
	number := func(n *int) (types.Int64, types.Bool) {
		if n == nil {
			return types.Int64Null(), types.BoolNull()
		}
		return types.Int64Value(int64(*n)), types.BoolValue(*n == client.Unlimited)
	}
	flag := func(b *bool) types.Bool {
		if b == nil {
			return types.BoolNull()
		}
		return types.BoolValue(*b)
	}
	f := p.Features
	m.Websites, m.WebsitesUnlimited = number(f.Websites)
	m.Pageviews, m.PageviewsUnlimited = number(f.Pageviews)
	m.API, m.EmailReports, m.DataExport = flag(f.API), flag(f.EmailReports), flag(f.DataExport)
	return m
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var (
	_ datasource.DataSourceWithConfigure      = (*websiteStatisticsDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*websiteStatisticsDataSource)(nil)
)

// NewWebsiteStatisticsDataSource returns the analytics_website_statistics
// data source.
func NewWebsiteStatisticsDataSource() datasource.DataSource { return &websiteStatisticsDataSource{} }

type websiteStatisticsDataSource struct {
	data *providerData
}

type websiteStatisticsModel struct {
	WebsiteID types.String `tfsdk:"website_id"`
	Domain    types.String `tfsdk:"domain"`
	From      types.String `tfsdk:"from"`
	To        types.String `tfsdk:"to"`
	Days      types.Int64  `tfsdk:"days"`
	Dimension types.String `tfsdk:"dimension"`
	Limit     types.Int64  `tfsdk:"limit"`
	Pageviews types.Int64  `tfsdk:"pageviews"`
	Visitors  types.Int64  `tfsdk:"visitors"`
	Daily     types.List   `tfsdk:"daily"`
	Top       types.List   `tfsdk:"top"`
}

// The element types of daily and top.
var (
	statisticsDayType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"date": types.StringType, "pageviews": types.Int64Type, "visitors": types.Int64Type,
	}}
	statisticsTopType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"value": types.StringType, "count": types.Int64Type,
	}}
)

func (d *websiteStatisticsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_website_statistics"
}

func (d *websiteStatisticsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	oneOf := stringvalidator.ExactlyOneOf(path.MatchRoot("website_id"), path.MatchRoot("domain"))
	dims := statisticsDimensions()
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the statistics one website of the API key's user recorded over a range of days " +
			"(`GET /api/v1/stats/{id}`): total pageviews and visitors, a per-day list and, with `dimension`, the top " +
			"values of one statistic. Costs one request per 100 rows of each statistic read (pageviews, visitors, and " +
			"the dimension when set; at least one each), plus one `GET /api/v1/websites?search=...` when the website " +
			"is given by `domain`. Days are the installation's own: a pageview counts on the day of the installation's " +
			"time zone on which it was recorded.",
		Attributes: map[string]schema.Attribute{
			"website_id": schema.StringAttribute{
				MarkdownDescription: "Numeric id of the website (the `analytics_website` resource's `id`, API field `id`). " +
					"Exactly one of `website_id` and `domain` must be set; when `domain` is, it is the id found.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{oneOf, websiteIDValidator()},
			},
			"domain": schema.StringAttribute{
				MarkdownDescription: "Exact domain of the website (API field `domain`), in the form the server stores it " +
					"(lower case, no scheme or leading `www.`), looked up with one `GET /api/v1/websites?search=...`. " +
					"Exactly one of `website_id` and `domain` must be set; with `website_id` it stays null (it is not read).",
				Optional:   true,
				Validators: []validator.String{oneOf, domainValidator()},
			},
			"from": schema.StringAttribute{
				MarkdownDescription: "First day of the range, `YYYY-MM-DD`, included (the API's `from`). Set with `to`; " +
					"conflicts with `days`. When not set, it is computed from `days`.",
				Optional: true,
				Computed: true,
				Validators: []validator.String{dateValidator(),
					stringvalidator.AlsoRequires(path.MatchRoot("to")), stringvalidator.ConflictsWith(path.MatchRoot("days"))},
			},
			"to": schema.StringAttribute{
				MarkdownDescription: "Last day of the range, `YYYY-MM-DD`, included (the API's `to`); no earlier than " +
					"`from`; the range spans at most " + strconv.Itoa(maxStatisticsDays) + " days. Set with `from`; conflicts " +
					"with `days`. When not set, it is today (UTC).",
				Optional: true,
				Computed: true,
				Validators: []validator.String{dateValidator(),
					stringvalidator.AlsoRequires(path.MatchRoot("from")), stringvalidator.ConflictsWith(path.MatchRoot("days"))},
			},
			"days": schema.Int64Attribute{
				MarkdownDescription: "A window of this many days ending today, today included: today is the current " +
					"date in UTC, when the data source is read (at every plan), and `days = 2` is yesterday and today. " +
					"Conflicts with `from` and `to`. Defaults to `" + strconv.Itoa(defaultStatisticsDays) + "` when neither " +
					"is set; with `from` and `to`, it is the number of days they span. At most " +
					strconv.Itoa(maxStatisticsDays) + ". Sent as the API's `from` and `to`.",
				Optional: true,
				Computed: true,
				Validators: []validator.Int64{int64validator.Between(1, maxStatisticsDays),
					int64validator.ConflictsWith(path.MatchRoot("from"), path.MatchRoot("to"))},
			},
			"dimension": schema.StringAttribute{
				MarkdownDescription: "A statistic whose top values to read into `top` (the API's `name`): one of " +
					quotedList(dims) + ". The values of `visitors_hour` and `pageviews_hour` are hours of the day. Not set by default (no " +
					"`top`, no request).",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(dims...)},
			},
			"limit": schema.Int64Attribute{
				MarkdownDescription: "How many of the dimension's values `top` holds, at most: " +
					"1 to " + strconv.Itoa(client.MaxStatisticsLimit) + ", read in one request (the API's `per_page`, " +
					"the smallest of 10, 25, 50 and 100 that holds them). Needs `dimension`. Defaults to `" +
					strconv.Itoa(defaultStatisticsLimit) + "`.",
				Optional: true,
				Computed: true,
				Validators: []validator.Int64{int64validator.Between(1, client.MaxStatisticsLimit),
					int64validator.AlsoRequires(path.MatchRoot("dimension"))},
			},
			"pageviews": schema.Int64Attribute{
				MarkdownDescription: "Pageviews over the range: the sum of the `pageviews` statistic's daily counts " +
					"(the API's `count`, a string, read as a number). `0` for a website without statistics.",
				Computed: true,
			},
			"visitors": schema.Int64Attribute{
				MarkdownDescription: "Visitors over the range: the sum of the `visitors` statistic's daily counts (the " +
					"application counts a visitor for each pageview not referred by the website itself). `0` for a " +
					"website without statistics.",
				Computed: true,
			},
			"daily": schema.ListNestedAttribute{
				MarkdownDescription: "One element per day of the range, oldest first, days without data included " +
					"(with zeros): the rows of the `pageviews` and `visitors` statistics, whose `value` is the day.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"date": schema.StringAttribute{MarkdownDescription: "The day, `YYYY-MM-DD` (the API's `value` of the day's " +
						"rows).", Computed: true},
					"pageviews": schema.Int64Attribute{MarkdownDescription: "Pageviews of the day (the API's `count` of the " +
						"`pageviews` row of the day; `0` when there is none).", Computed: true},
					"visitors": schema.Int64Attribute{MarkdownDescription: "Visitors of the day (the API's `count` of the " +
						"`visitors` row of the day; `0` when there is none).", Computed: true},
				}},
			},
			"top": schema.ListNestedAttribute{
				MarkdownDescription: "The `dimension`'s values with the highest counts over the range, highest first " +
					"(ties in the API's order), at most `limit` of them (the API's rows sorted by `count`). Empty when the " +
					"website recorded none; null without `dimension`.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"value": schema.StringAttribute{MarkdownDescription: "The value, e.g. a page path or a country code (the API's `value`).", Computed: true},
					"count": schema.Int64Attribute{MarkdownDescription: "Its total over the range (the API's `count`).", Computed: true},
				}},
			},
		},
	}
}

func (d *websiteStatisticsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig checks the rules that span attributes, at plan time: from
// no later than to, and a range of at most maxStatisticsDays.
func (d *websiteStatisticsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var from, to types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("from"), &from)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("to"), &to)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateStatisticsRange(&resp.Diagnostics, from, to)
}

func (d *websiteStatisticsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg websiteStatisticsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	c := dataClient(d.data, &resp.Diagnostics)
	if c == nil || resp.Diagnostics.HasError() {
		return
	}
	from, to := statisticsRange(&cfg, time.Now())
	out := cfg
	out.From, out.To = types.StringValue(from.Format(time.DateOnly)), types.StringValue(to.Format(time.DateOnly))
	out.Days = types.Int64Value(int64(daysBetween(from, to)))

	// The website: by id, or by exact domain with one search.
	var id int64
	what := "the website" // as the diagnostics name it, with its id
	if !cfg.Domain.IsNull() {
		what = fmt.Sprintf("the website %q", cfg.Domain.ValueString())
		w, err := c.FindWebsiteByDomain(ctx, cfg.Domain.ValueString())
		switch {
		case errors.Is(err, client.ErrNotFound):
			addWebsiteDomainNotFound(&resp.Diagnostics, path.Root("domain"), cfg.Domain.ValueString())
			return
		case err != nil:
			addAPIError(&resp.Diagnostics, "look up", cfg.Domain.ValueString(), err)
			return
		}
		id = w.ID
	} else {
		var err error
		if id, err = strconv.ParseInt(cfg.WebsiteID.ValueString(), 10, 64); err != nil { // checked by websiteIDValidator
			resp.Diagnostics.AddAttributeError(path.Root("website_id"), "Invalid Website ID",
				fmt.Sprintf("%q is not a website id; ids are positive whole numbers.", cfg.WebsiteID.ValueString()))
			return
		}
	}
	out.WebsiteID = types.StringValue(strconv.FormatInt(id, 10))

	read := func(name string, limit int) []client.StatisticsRow {
		res, err := c.ReadStatistics(ctx, id, client.StatisticsRead{Name: name, From: out.From.ValueString(), To: out.To.ValueString(), Limit: limit})
		var requests int
		if res != nil {
			requests = res.Requests
		}
		tflog.Debug(ctx, "read statistics", map[string]any{"website_id": id, "name": name, "from": out.From.ValueString(),
			"to": out.To.ValueString(), "limit": limit, "requests": requests})
		switch {
		case err == nil:
			return res.Rows
		case errors.Is(err, client.ErrStatisticsUnsupported):
			addStatisticsUnsupported(&resp.Diagnostics, c.BaseURL(), what, id)
		case errors.Is(err, client.ErrNotFound) && cfg.Domain.IsNull():
			addWebsiteIDNotFound(&resp.Diagnostics, path.Root("website_id"), id)
		default:
			addAPIError(&resp.Diagnostics, "read the statistics of", statisticsWhat(cfg, id), err)
		}
		return nil
	}
	pageviews := read(client.StatisticPageviews, 0)
	if resp.Diagnostics.HasError() {
		return
	}
	visitors := read(client.StatisticVisitors, 0)
	if resp.Diagnostics.HasError() {
		return
	}
	var daily []attr.Value
	out.Pageviews, out.Visitors, daily = dailyStatistics(from, to, pageviews, visitors)
	out.Daily = types.ListValueMust(statisticsDayType, daily)

	out.Top = types.ListNull(statisticsTopType)
	if !cfg.Dimension.IsNull() {
		limit := int64(defaultStatisticsLimit)
		if !cfg.Limit.IsNull() {
			limit = cfg.Limit.ValueInt64()
		}
		out.Limit = types.Int64Value(limit)
		rows := read(cfg.Dimension.ValueString(), int(limit))
		if resp.Diagnostics.HasError() {
			return
		}
		top := make([]attr.Value, 0, len(rows))
		for _, r := range rows {
			top = append(top, types.ObjectValueMust(statisticsTopType.AttrTypes, map[string]attr.Value{
				"value": types.StringValue(r.Value), "count": types.Int64Value(r.Count),
			}))
		}
		out.Top = types.ListValueMust(statisticsTopType, top)
	} else {
		out.Limit = types.Int64Null()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

// statisticsWhat names the website of a statistics read for addAPIError:
// its domain, or its id.
func statisticsWhat(cfg websiteStatisticsModel, id int64) string {
	if !cfg.Domain.IsNull() {
		return cfg.Domain.ValueString()
	}
	return "id " + strconv.FormatInt(id, 10)
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var _ list.ListResourceWithConfigure = (*websiteListResource)(nil)

// NewWebsiteListResource returns the analytics_website list resource, which
// lists the websites of the API key's user for `terraform query` (Terraform
// 1.14 and later).
func NewWebsiteListResource() list.ListResource { return &websiteListResource{} }

type websiteListResource struct {
	data *providerData
}

// websiteListModel is the config block of a `list "analytics_website"`
// block.
type websiteListModel struct {
	Search   types.String `tfsdk:"search"`
	SortBy   types.String `tfsdk:"sort_by"`
	Sort     types.String `tfsdk:"sort"`
	Privacy  types.String `tfsdk:"privacy"`
	Favorite types.Bool   `tfsdk:"favorite"`
}

func (r *websiteListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_website"
}

func (r *websiteListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *websiteListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest,
	resp *list.ListResourceSchemaResponse,
) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the websites of the API key's user for `terraform query` (Terraform 1.14 or later), " +
			"to find websites made outside Terraform and adopt them: each result is a website's identity (its id) " +
			"with its domain as display name and, with `include_resource = true` or `-generate-config-out`, the " +
			"`analytics_website` as an import reads it (`exclude_params` and `password`, which the API never " +
			"returns, unset: not managed). The provider reads the list 100 websites per request. Newest first, a " +
			"list block whose `limit` (Terraform's default: 100) the first page meets reads that page alone. " +
			"Otherwise it reads every page twice, and the two reads must agree. So it checks that no website " +
			"was created, deleted or renamed while it read them.",
		Attributes: map[string]listschema.Attribute{
			"search": listschema.StringAttribute{
				MarkdownDescription: searchDescription,
				Optional:            true,
				Validators:          searchValidators(),
			},
			"sort_by": listschema.StringAttribute{
				MarkdownDescription: sortByDescription,
				Optional:            true,
				Validators:          sortByValidators(),
			},
			"sort": listschema.StringAttribute{
				MarkdownDescription: sortDescription,
				Optional:            true,
				Validators:          sortValidators(),
			},
			"privacy": listschema.StringAttribute{
				MarkdownDescription: "Only websites with this privacy: `public`, `private` or `password` (API field " +
					"`privacy`; the API has no such filter, so the provider filters the pages it reads). Defaults to any.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(privacyNames...)},
			},
			"favorite": listschema.BoolAttribute{
				MarkdownDescription: "Only websites marked as a favorite (`true`) or only those not marked (`false`) " +
					"(API field `favorite`, newer server builds only: on a build without favorites the list fails rather " +
					"than ignore the filter; the provider filters the pages it reads). Defaults to any.",
				Optional: true,
			},
		},
	}
}

// filtered reports whether the config narrows the list.
func (m websiteListModel) filtered() bool {
	return !m.Search.IsNull() || !m.Privacy.IsNull() || !m.Favorite.IsNull()
}

// options are the query parameters of the list endpoint. favorite is not
// sent: it changes without a create or a delete (a click in the web
// interface), so a website would join or leave the filtered list anywhere
// between two pages, which the checks of a sweep do not see (see
// client.AllWebsites). matches filters it.
func (m websiteListModel) options() client.ListOptions {
	return websiteListOptions(m.Search, m.SortBy, m.Sort)
}

// matches applies the filters the provider does not send: privacy, and
// favorite (errFavoritesUnsupported on builds without favorites).
func (m websiteListModel) matches(w *client.Website) (bool, error) {
	if !m.Favorite.IsNull() {
		if w.Favorite == nil {
			return false, errFavoritesUnsupported
		}
		if *w.Favorite != m.Favorite.ValueBool() {
			return false, nil
		}
	}
	if m.Privacy.IsNull() {
		return true, nil
	}
	privacy, err := privacyFromAPI(w.PrivacyValue())
	return err == nil && privacy == m.Privacy.ValueString(), nil
}

var errFavoritesUnsupported = errors.New("the server does not know favorites")

// List streams the websites of the API key's user as the results are
// consumed (client.AllWebsites): newest first (the default order), the
// first page at once, and none after when the limit is reached; the rest
// once every page was read twice and found unchanged. In another order
// (oldest first, or by domain), every page is read twice newest first and
// the list ordered here. An error (a wrong base_url or api_key,
// maintenance) is an error diagnostic in the stream, never an empty list.
func (r *websiteListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg websiteListModel
	diags := req.Config.Get(ctx, &cfg)
	dataClient(r.data, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		r.stream(ctx, req, cfg, push)
	}
}

func (r *websiteListResource) stream(ctx context.Context, req list.ListRequest, cfg websiteListModel, push func(list.ListResult) bool) {
	c := r.data.client
	opts := cfg.options()
	tflog.Info(ctx, "listing websites", map[string]any{"search": opts.Search, "privacy": cfg.Privacy.ValueString(),
		"limit": req.Limit, "include_resource": req.IncludeResource})
	if req.Limit <= 0 {
		return
	}
	var found int64
	for w, err := range c.AllWebsites(ctx, opts) {
		if err != nil {
			var diags diag.Diagnostics
			addAPIError(&diags, "list", "", err)
			push(list.ListResult{Diagnostics: diags})
			return
		}
		ok, err := cfg.matches(&w)
		if err != nil {
			var diags diag.Diagnostics
			addFavoritesUnsupported(&diags, c.BaseURL())
			push(list.ListResult{Diagnostics: diags})
			return
		}
		if !ok {
			continue
		}
		result := websiteListResult(ctx, req, &w, r.data.trackingCodeValue())
		if !push(result) || result.Diagnostics.HasError() {
			return
		}
		if found++; found >= req.Limit {
			tflog.Debug(ctx, "list limit reached; no more pages are read", map[string]any{"limit": req.Limit})
			return
		}
	}
	tflog.Debug(ctx, "listed websites", map[string]any{"count": found})
	if found == 0 {
		// Whose websites these are: GET /account, once per run.
		owner, err := r.data.keyOwner(ctx)
		if err != nil {
			tflog.Debug(ctx, "could not tell the API key's user", map[string]any{"error": err.Error()})
		}
		var diags diag.Diagnostics
		addNoWebsitesFound(&diags, owner, c.BaseURL(), cfg.filtered())
		push(list.ListResult{Diagnostics: diags})
	}
}

// websiteListResult is the result for one website: its identity, its domain
// as display name and, when Terraform asks for it, the resource.
func websiteListResult(ctx context.Context, req list.ListRequest, w *client.Website, trackingCode types.String) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = w.Domain
	id := types.StringValue(strconv.FormatInt(w.ID, 10))
	result.Diagnostics.Append(result.Identity.Set(ctx, websiteIdentityModel{ID: id})...)
	if !req.IncludeResource || result.Diagnostics.HasError() {
		return result
	}
	m, err := importedWebsiteModel(ctx, w, trackingCode)
	if err != nil {
		result.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return result
	}
	result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
	return result
}

// importedWebsiteModel is the state that importing w reads (ImportState sets
// the id, then Read applies the website to an otherwise null state): the
// attributes the API returns, and the others null (exclude_params, the
// password, the timeouts), so that a configuration generated from it manages
// neither of the two values the API never returns.
func importedWebsiteModel(ctx context.Context, w *client.Website, trackingCode types.String) (websiteResourceModel, error) {
	var m websiteResourceModel
	for _, a := range websiteAttributes {
		if a.resource == nil {
			continue
		}
		t := a.resource.GetType()
		null, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), nil))
		if err != nil {
			return m, fmt.Errorf("no null value of %s: %w; this is a bug in the provider", a.name, err)
		}
		m.setAttribute(a.name, null)
	}
	m.SkipDestroy = types.BoolValue(false)
	m.TrackingCode = trackingCode
	t, ok := websiteResourceSchema(ctx).Blocks["timeouts"].Type().(timeouts.Type)
	if !ok {
		return m, fmt.Errorf("the timeouts block has an unexpected type; this is a bug in the provider")
	}
	m.Timeouts = timeouts.Value{Object: types.ObjectNull(t.AttrTypes)}
	if err := m.applyWebsite(w); err != nil {
		return m, err
	}
	return m, nil
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/export"
)

// The analytics_website_statistics_export action (Terraform 1.14 and
// later): writes a website's statistics into files, by hand
// (terraform apply -invoke=action.analytics_website_statistics_export.NAME)
// or before the website is destroyed (an action_trigger with
// before_destroy, Terraform 1.16 and later). The application deletes a
// website's statistics with it; this is the way to keep them.
//
// Every statistics name is read in full, 100 rows per request, through the
// provider's client: paced like every other request, 429 and 503 waited out
// within the action's timeout. Nothing is written until the folder is
// created, and a failed export removes what it wrote (internal/export).
//
// A failed export marks the website in the provider instance: Terraform
// turns the failure of a before_destroy action into a warning during
// terraform destroy ("a full destroy walk must never be blocked"), so the
// resource's Delete refuses to delete a website whose export failed in the
// same run (exportFailures).

var (
	_ action.ActionWithConfigure      = (*statisticsExportAction)(nil)
	_ action.ActionWithValidateConfig = (*statisticsExportAction)(nil)
)

// defaultExportTimeout bounds an export: at the server's default throttle
// (60 requests a minute), room for about 1,800 requests, i.e. 180,000 rows.
const defaultExportTimeout = 30 * time.Minute

// Date bounds of the whole history: every date a statistic can have
// (MySQL's DATE range, as the client's SummarizePageviews uses).
const (
	exportFirstDate = "1000-01-01"
	exportLastDate  = "9999-12-31"
)

// NewWebsiteStatisticsExportAction returns the
// analytics_website_statistics_export action.
func NewWebsiteStatisticsExportAction() action.Action { return &statisticsExportAction{} }

type statisticsExportAction struct {
	data *providerData
}

type statisticsExportModel struct {
	WebsiteID   types.String `tfsdk:"website_id"`
	Domain      types.String `tfsdk:"domain"`
	Directory   types.String `tfsdk:"directory"`
	Destination types.String `tfsdk:"destination"`
	Format      types.String `tfsdk:"format"`
	From        types.String `tfsdk:"from"`
	To          types.String `tfsdk:"to"`
	Timeout     types.String `tfsdk:"timeout"`
}

func (a *statisticsExportAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_website_statistics_export"
}

func (a *statisticsExportAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	oneOf := stringvalidator.ExactlyOneOf(path.MatchRoot("website_id"), path.MatchRoot("domain"))
	oneWhere := stringvalidator.ExactlyOneOf(path.MatchRoot("directory"), path.MatchRoot("destination"))
	resp.Schema = schema.Schema{
		MarkdownDescription: "Writes a website's statistics into a new folder of files: per-day `pageviews` and " +
			"`visitors`, and for every other statistics name its values with their counts over the range, plus a " +
			"`manifest.json` written last. Deleting a website deletes its statistics on the server; run this action " +
			"by hand or before a destroy to keep them. Needs Terraform 1.14 or later (`before_destroy` triggers: 1.16).",
		Attributes: map[string]schema.Attribute{
			"website_id": schema.StringAttribute{
				MarkdownDescription: "Numeric id of the website (API field `id`), e.g. `analytics_website.shop.id`, or " +
					"`caller.id` in an `action_trigger` of the website. Exactly one of `website_id` and `domain` must be set.",
				Optional:   true,
				Validators: []validator.String{oneOf, websiteIDValidator()},
			},
			"domain": schema.StringAttribute{
				MarkdownDescription: "Exact domain of the website (API field `domain`), in the form the server stores it. " +
					"Exactly one of `website_id` and `domain` must be set.",
				Optional:   true,
				Validators: []validator.String{oneOf, domainValidator()},
			},
			"directory": schema.StringAttribute{
				MarkdownDescription: "Directory the export's folder is created in (created if missing; a relative path is " +
					"relative to the directory Terraform runs in, so `${path.root}/exports` is the usual choice). Each export " +
					"makes a new folder `<domain>-<UTC time>-<random>`, e.g. `shop.example.com-20240501T101500Z-3f9a1c2e`; an existing " +
					"folder is never written into, and the export fails instead. Exactly one of `directory` and " +
					"`destination` must be set.",
				Optional:   true,
				Validators: []validator.String{oneWhere, exportDirectoryValidator()},
			},
			"destination": schema.StringAttribute{
				MarkdownDescription: "Where the export's folder is created: a local folder (an absolute path, a " +
					"relative path starting with a plain name, as `directory` takes, or `file:///path`), or a prefix of a " +
					"bucket of Amazon S3 or any S3-compatible store, `s3://bucket/prefix`. Anything else is refused at plan " +
					"time, a mistyped URL such as `s3:/bucket` or `s3//bucket` included. Each export writes under a new " +
					"prefix `<domain>-<UTC time>-<random>/` and uploads `manifest.json` last. A self-hosted store's address " +
					"and settings are query parameters, each checked at plan time: `endpoint` (e.g. " +
					"`https://minio.example.com`), `region`, `use_path_style` (`true` for most self-hosted stores), and " +
					"`profile`, `role` (an IAM role's ARN to assume; not with `dualstack`, `fips` or the checksum " +
					"settings), `disable_https`, `dualstack`, `fips`, `accelerate`, `hostname_immutable`, `ssetype`, " +
					"`kmskeyid`, `request_checksum_calculation`, `response_checksum_validation`. Credentials are never " +
					"part of it: the provider reads them as the AWS CLI does (`AWS_ACCESS_KEY_ID` and " +
					"`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE` and the shared files, web identity, the container's or " +
					"instance's role). Exactly one of `directory` and `destination` must be set.",
				Optional:   true,
				Validators: []validator.String{oneWhere, exportDestinationValidator()},
			},
			"format": schema.StringAttribute{
				MarkdownDescription: "Format of the statistics files: `json` (an array of `{\"date\"|\"value\", " +
					"\"count\"}` objects per name) or `csv` (a `date,count` or `value,count` header). The manifest is " +
					"always JSON. Defaults to `json`.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(export.Formats...)},
			},
			"from": schema.StringAttribute{
				MarkdownDescription: "First day exported (`YYYY-MM-DD`, inclusive). Defaults to the first day the " +
					"website has statistics for: with neither `from` nor `to`, the whole history is exported.",
				Optional:   true,
				Validators: []validator.String{dateValidator()},
			},
			"to": schema.StringAttribute{
				MarkdownDescription: "Last day exported (`YYYY-MM-DD`, inclusive). Defaults to the last day with statistics.",
				Optional:            true,
				Validators:          []validator.String{dateValidator()},
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "Time limit of the whole export with its retries, as a Go duration such as `10m`; " +
					"waits for the server's throttle count against it. Defaults to `30m`.",
				Optional:   true,
				Validators: []validator.String{durationValidator()},
			},
		},
	}
}

func (a *statisticsExportAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (a *statisticsExportAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var cfg statisticsExportModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.From.IsUnknown() || cfg.To.IsUnknown() {
		return
	}
	if p := dateRangeProblem(cfg.From.ValueString(), cfg.To.ValueString()); p != "" {
		resp.Diagnostics.AddAttributeError(path.Root("from"), "Invalid Date Range", p)
	}
}

// exportRun is one export in progress.
type exportRun struct {
	resp     *action.InvokeResponse
	domain   string
	rows     int // rows read so far, every name
	requests int // requests made so far: the website's look-up, then every name
	last     time.Time
}

// progress reports the rows and requests so far, at most once a second
// unless final.
func (r *exportRun) progress(name string, nameRows, done int, final bool) {
	if r.resp.SendProgress == nil || (!final && time.Since(r.last) < time.Second) {
		return
	}
	r.last = time.Now()
	r.resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(
		"%s: %s: %d rows read; %d of %d statistics done, %d rows and %d requests so far",
		r.domain, name, nameRows, done, len(client.StatisticNames), r.rows, r.requests)})
}

func (a *statisticsExportAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg statisticsExportModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	c := dataClient(a.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout := defaultExportTimeout
	if !cfg.Timeout.IsNull() {
		d, err := time.ParseDuration(cfg.Timeout.ValueString())
		if err != nil || d <= 0 {
			resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid Duration",
				fmt.Sprintf("timeout = %q is not a positive duration, such as \"30m\".", cfg.Timeout.ValueString()))
			return
		}
		timeout = d
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// A bucket is opened and listed first: missing credentials or bucket
	// fail the export before the analytics API is asked anything.
	target, store, closeStore, err := openExportStore(ctx, cfg)
	if err != nil {
		id, _ := strconv.ParseInt(cfg.WebsiteID.ValueString(), 10, 64)
		a.failed(id, cfg.Domain.ValueString(), err)
		addExportWriteError(&resp.Diagnostics, exportSite(cfg.Domain.ValueString(), cfg.WebsiteID.ValueString()), target,
			err, exportNothingLeft)
		return
	}
	defer closeStore()
	w, err := a.website(ctx, c, cfg)
	if err != nil {
		// The website may exist (a timeout, maintenance): keep it from
		// being deleted in this run all the same.
		id, _ := strconv.ParseInt(cfg.WebsiteID.ValueString(), 10, 64)
		a.failed(id, cfg.Domain.ValueString(), err)
		addExportWebsiteError(&resp.Diagnostics, cfg.WebsiteID.ValueString(), cfg.Domain.ValueString(), err)
		return
	}
	from, to, whole := exportRange(cfg.From.ValueString(), cfg.To.ValueString())
	format := export.FormatJSON
	if !cfg.Format.IsNull() {
		format = cfg.Format.ValueString()
	}
	started := time.Now().UTC()
	out, err := export.NewWriter(ctx, store, export.FolderName(w.Domain, started, export.Unique()), format)
	if err != nil {
		a.failed(w.ID, w.Domain, err)
		addExportWriteError(&resp.Diagnostics, exportSite(w.Domain, ""), target, err, exportNothingLeft)
		return
	}
	fields := map[string]any{"id": w.ID, "domain": w.Domain, "folder": store.Location(), "from": from, "to": to}
	tflog.Info(ctx, "exporting the statistics of a website", fields)

	run := &exportRun{resp: resp, domain: w.Domain, requests: 1} // the website's look-up
	m := export.Manifest{
		FormatVersion: export.FormatVersion, Installation: strings.TrimSuffix(c.BaseURL(), "/api/v1"),
		WebsiteID: w.ID, Domain: w.Domain, From: from, To: to, WholeHistory: whole, Format: format,
	}
	for i, name := range client.StatisticNames {
		before := run.requests
		res, err := c.ReadStatistics(ctx, w.ID, client.StatisticsRead{Name: name, From: from, To: to,
			OnPage: func(rows, requests int) {
				run.requests = before + requests
				run.progress(name, rows, i, false)
			}})
		if res != nil {
			run.requests = before + res.Requests
		}
		if err != nil {
			left := a.abandon(ctx, out, w, err, fields)
			addExportReadError(&resp.Diagnostics, w.Domain, name, run.requests, timeout, err, left)
			return
		}
		run.rows += len(res.Rows)
		if err := out.WriteStatistic(ctx, name, res.Rows); err != nil {
			left := a.abandon(ctx, out, w, err, fields)
			addExportWriteError(&resp.Diagnostics, exportSite(w.Domain, ""), target, err, left)
			return
		}
		if name == client.StatisticPageviews && len(res.Rows) > 0 {
			m.FirstDay, m.LastDay = res.Rows[0].Value, res.Rows[len(res.Rows)-1].Value
		}
		m.Statistics = append(m.Statistics, export.Statistic{Name: name, File: out.StatisticFile(name), Rows: len(res.Rows)})
		run.progress(name, len(res.Rows), i+1, true)
	}
	m.Requests, m.ExportedAt = run.requests, time.Now().UTC().Format(time.RFC3339)
	if err := out.WriteManifest(ctx, m); err != nil {
		left := a.abandon(ctx, out, w, err, fields)
		addExportWriteError(&resp.Diagnostics, exportSite(w.Domain, ""), target, err, left)
		return
	}
	fields["rows"], fields["requests"] = run.rows, run.requests
	tflog.Info(ctx, "exported the statistics of a website", fields)
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("%s: exported %d rows of %d statistics "+
			"into %s (%d requests)", w.Domain, run.rows, len(client.StatisticNames), store.Location(), run.requests)})
	}
}

// website finds the website the configuration names.
func (a *statisticsExportAction) website(ctx context.Context, c *client.Client, cfg statisticsExportModel) (*client.Website, error) {
	if cfg.WebsiteID.IsNull() {
		return c.FindWebsiteByDomain(ctx, cfg.Domain.ValueString())
	}
	id, err := strconv.ParseInt(cfg.WebsiteID.ValueString(), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("website_id %q is not a number", cfg.WebsiteID.ValueString())
	}
	return c.GetWebsite(ctx, id)
}

// abandon removes a failed export's files and marks the website. It
// returns what the failure's message ends with: exportNothingLeft, or
// what the cleanup could not remove, and where.
func (a *statisticsExportAction) abandon(ctx context.Context, out *export.Writer, w *client.Website, err error,
	fields map[string]any,
) string {
	a.failed(w.ID, w.Domain, err)
	fields["error"] = err.Error()
	if derr := out.Discard(ctx); derr != nil {
		fields["cleanup_error"] = derr.Error()
		tflog.Warn(ctx, "the statistics export failed; its files could not all be removed", fields)
		return exportLeftBehind(derr)
	}
	tflog.Warn(ctx, "the statistics export failed; its files were removed", fields)
	return exportNothingLeft
}

// failed records that the export of the website with id or domain (either
// may be unknown: 0 or "") failed in this run.
func (a *statisticsExportAction) failed(id int64, domain string, err error) {
	if a.data != nil {
		a.data.exports.fail(id, domain, err)
	}
}

// exportFailures are the websites whose export failed in this provider
// instance (one Terraform command), which its resources must not delete:
// by id, or by domain when the export could not find the website's id.
type exportFailures struct {
	mu       sync.Mutex
	byID     map[int64]string  // id: why
	byDomain map[string]string // domain: why
}

func (f *exportFailures) fail(id int64, domain string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byID == nil {
		f.byID, f.byDomain = map[int64]string{}, map[string]string{}
	}
	if id > 0 {
		f.byID[id] = err.Error()
	}
	if domain != "" {
		f.byDomain[domain] = err.Error()
	}
}

// reason says why the export of the website with id or domain failed, or
// "" if none did.
func (f *exportFailures) reason(id int64, domain string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.byID[id]; ok {
		return r
	}
	return f.byDomain[domain]
}

// errInvalidDestination is returned for a destination that could not be
// checked at plan time (unknown then) and is not one.
var errInvalidDestination = errors.New("invalid destination")

// openExportStore opens where the export of cfg goes (export.Open): a
// folder, or a bucket, opened and listed. The function returned closes it.
func openExportStore(ctx context.Context, cfg statisticsExportModel) (exportTarget, export.Store, func(), error) {
	none := func() {}
	if !cfg.Directory.IsNull() {
		t := exportTarget{attr: "directory", value: cfg.Directory.ValueString()}
		return t, export.NewFolderStore(t.value), none, nil
	}
	t := exportTarget{attr: "destination", value: cfg.Destination.ValueString()}
	d, problem := export.ParseDestination(t.attr, t.value)
	if problem != "" {
		return t, nil, none, fmt.Errorf("%w: %s", errInvalidDestination, problem)
	}
	s, err := export.Open(ctx, d)
	if err != nil {
		return t, nil, none, err
	}
	return t, s, func() { _ = s.Close() }, nil
}

// exportDestinationValidator refuses, at plan time, a destination that
// names no folder or bucket the export could write to.
func exportDestinationValidator() validator.String {
	return stringCheck{
		description: "must be a folder, a file:// URL or an s3://bucket/prefix URL",
		summary:     "Invalid Export Destination",
		problem: func(attr path.Path, v string) string {
			_, p := export.ParseDestination(attr.String(), v)
			return p
		},
	}
}

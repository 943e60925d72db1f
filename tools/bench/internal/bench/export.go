package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/s3test"
)

// The export pass: the analytics_website_statistics_export action
// (Terraform 1.14 and later, so the CLI of the query pass) on one website
// with a long history, seeded into the emulator: ExportDays days of
// pageviews and visitors, ExportPages distinct pages and landing pages, an
// hour of the day for each day, and a few values of every other name. The
// export is invoked by hand (terraform apply -invoke), without and then
// under the throttle; each must cost one request per 100 rows of each
// statistics name and one to find the website, and write every row. Beside
// the export into a folder, the same export goes into a bucket of a real
// S3-compatible store on loopback (SeaweedFS's weed, internal/s3test,
// built by scripts/install-tools.sh), through a proxy that counts the
// store's requests.

// PassExport is the export pass.
const PassExport = "export"

// Steps of the export pass.
const (
	StepExport          = "export"
	StepExportBucket    = "export-bucket"
	StepExportThrottled = "export-throttled"
)

// exportSteps are the steps of the export pass: the create, the export
// into a folder, the same into a bucket, the export into a folder again
// under the throttle, and the destroy (its plan checks the statistics once
// more).
var exportSteps = []string{StepCreate, StepExport, StepExportBucket, StepExportThrottled, StepDestroy}

// exportAction and exportBucketAction are the addresses of the actions the
// pass invokes: into a folder, and into the store's bucket.
const (
	exportAction       = "action.analytics_website_statistics_export.history"
	exportBucketAction = "action.analytics_website_statistics_export.history_bucket"
)

// The bucket and prefix of the export into the store.
const (
	exportBucket = "bench-exports"
	exportPrefix = "history"
)

// exportNames are the statistics names of the API, in its order: those the
// emulator records and serves.
var exportNames = emulator.StatisticNames

// exportConfiguration is main.tf of the export pass: the folder dir, and
// the store's bucket through endpoint.
func exportConfiguration(dir, endpoint string) string {
	return analyticsProvider + fmt.Sprintf(`
resource "analytics_website" "site" {
  domain = "history.bench-example.com"
}

action "analytics_website_statistics_export" "history" {
  config {
    website_id = analytics_website.site.id
    directory  = %q
  }
}

action "analytics_website_statistics_export" "history_bucket" {
  config {
    website_id  = analytics_website.site.id
    destination = "s3://%s/%s?endpoint=%s&region=%s&use_path_style=true"
  }
}
`, dir, exportBucket, exportPrefix, endpoint, s3test.Region)
}

// exportValues are the values of the other names, one a day in turn.
var exportValues = []struct {
	name   string
	values []string
}{
	{"browser", []string{"Firefox", "Chrome", "Safari"}}, {"os", []string{"Linux", "Windows", "macOS", "Android"}},
	{"device", []string{"desktop", "mobile"}}, {"country", []string{"DE", "FR", "US", "JP", "BR"}},
	{"city", []string{"Berlin", "Paris", "Austin"}}, {"continent", []string{"EU", "NA"}},
	{"referrer", []string{"", "news.example.org", "search.example.net"}}, {"resolution", []string{"1920x1080", "390x844"}},
	{"language", []string{"en", "de", "fr"}},
}

// exportHistory is the seeded history of the website: per name, the rows
// (value and date) with their counts.
func exportHistory(days, pages int) []emulator.Statistic {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []emulator.Statistic
	add := func(name, value, date string, count int) {
		out = append(out, emulator.Statistic{Name: name, Value: value, Date: date, Count: count})
	}
	for d := range days {
		date := start.AddDate(0, 0, d).Format(time.DateOnly)
		views := 50 + d%40
		add("pageviews", date, date, views)
		add("visitors", date, date, views/2)
		add("pageviews_hour", fmt.Sprintf("%02d", d%24), date, views)
		add("visitors_hour", fmt.Sprintf("%02d", d%24), date, views/2)
		page := fmt.Sprintf("/articles/%d", d%pages)
		add("page", page, date, views)
		add("landing_page", page, date, views/2)
		for _, v := range exportValues {
			add(v.name, v.values[d%len(v.values)], date, views/2)
		}
		add("campaign", "spring", date, 1)
		add("event", "signup::", date, 1)
	}
	for p := days; p < pages; p++ { // more pages than days: one view each, on the last day
		date := start.AddDate(0, 0, days-1).Format(time.DateOnly)
		add("page", fmt.Sprintf("/articles/%d", p), date, 1)
		add("landing_page", fmt.Sprintf("/articles/%d", p), date, 1)
	}
	return out
}

// exportRows is the number of rows each name has in the export of a
// history: distinct values (days for pageviews and visitors).
func exportRows(history []emulator.Statistic) map[string]int {
	seen := map[string]map[string]bool{}
	for _, s := range history {
		if seen[s.Name] == nil {
			seen[s.Name] = map[string]bool{}
		}
		seen[s.Name][s.Value] = true
	}
	out := map[string]int{}
	for name, values := range seen {
		out[name] = len(values)
	}
	return out
}

// exportWantRequests is what an export of rows costs: one request per 100
// rows of each name (one for a name without rows), and one to find the
// website.
func exportWantRequests(rows map[string]int) int {
	n := 1
	for _, name := range exportNames {
		n += max(1, (rows[name]+99)/100)
	}
	return n
}

// exportPass creates one website, seeds its history, exports it by hand
// twice (the second time under the throttle) and destroys it.
func (b *bench) exportPass(ctx context.Context, days, pages int) (*Run, error) {
	run := &Run{Pass: PassExport, Kind: KindWebsite, N: 1}
	api, w, err := b.site(fmt.Sprintf("export-%d-days", days), emulator.Options{})
	if err != nil {
		return run, err
	}
	defer api.close()
	w.tf = b.tfQuery
	store, proxy, err := b.startStore(ctx)
	if err != nil {
		return run, err
	}
	defer store.Stop()
	defer proxy.Close()
	w.env = append(w.env, s3test.Env(s3test.WriterKey, s3test.WriterSecret)...)
	// Each export into a directory of its own: two in the same second
	// would have the same folder, which the action refuses.
	out := filepath.Join(w.dir, "exports-"+StepExport)
	w.config = func(int, bool) string { return exportConfiguration(out, proxy.URL) }
	if err := w.configure(1, false); err != nil {
		return run, err
	}
	history := exportHistory(days, pages)
	rows := exportRows(history)
	b.runSteps(ctx, run, w, exportSteps, func(step string, s *Step) {
		switch step {
		case StepCreate:
			w.check(s, 1, 0)
			if !s.OK() {
				return
			}
			ws := api.emu.Websites()
			if len(ws) != 1 || !api.emu.SeedStatistics(ws[0].ID, history) {
				s.Error = "seeding the website's statistics failed"
			}
		case StepExportBucket:
			checkBucketExport(ctx, s, store, rows)
			if counts := proxy.Counts(); s.OK() {
				s.Summary += "; store: " + s3test.FormatCounts(counts)
			}
			// The next export runs under the throttle of the throttled
			// pass (set only now: the bucket's export is not throttled,
			// and must not spend the window the next one is measured in).
			api.emu.SetRateLimit(b.cfg.RateLimit, b.cfg.RateWindow)
		case StepExport, StepExportThrottled:
			checkExport(s, out, rows)
			out = filepath.Join(w.dir, "exports-"+StepExportThrottled)
			if err := w.configure(1, false); err != nil && s.Error == "" {
				s.Error = err.Error()
			}
		default:
			w.check(s, 0, 0)
		}
	})
	return run, ctx.Err()
}

// startStore starts the S3-compatible store (building weed first if it
// is missing), makes the export's bucket and a counting proxy in front.
func (b *bench) startStore(ctx context.Context) (*s3test.Server, *s3test.CountingProxy, error) {
	bin, err := b.tool(ctx, "weed", "about 4.5 minutes")
	if err != nil {
		return nil, nil, err
	}
	store, err := s3test.Start(ctx, bin)
	if err != nil {
		return nil, nil, fmt.Errorf("starting the S3-compatible store: %w", err)
	}
	if err := store.CreateBucket(ctx, exportBucket); err != nil {
		store.Stop()
		return nil, nil, fmt.Errorf("creating the bucket %s: %w", exportBucket, err)
	}
	if err := store.Warm(ctx, exportBucket); err != nil {
		store.Stop()
		return nil, nil, fmt.Errorf("the first write into the bucket %s: %w", exportBucket, err)
	}
	proxy, err := s3test.NewCountingProxy(ctx, store.Endpoint)
	if err != nil {
		store.Stop()
		return nil, nil, err
	}
	return store, proxy, nil
}

// checkExportRequests records in s what is wrong with an export's
// requests: one per 100 rows of each name and one more, no write.
func checkExportRequests(s *Step, rows map[string]int) {
	if s.Error != "" {
		return
	}
	if w := s.Requests.Writes(); w != 0 {
		s.Error = fmt.Sprintf("%d write requests", w)
		return
	}
	if got, want := s.Requests.Total-s.Requests.Throttled, exportWantRequests(rows); got != want {
		s.Error = fmt.Sprintf("%d requests answered, want %d (one per 100 rows of each statistics name, one for the website)", got, want)
	}
}

// checkExport records in s what is wrong with an export: its requests, and
// the newest export in dir must hold every row.
func checkExport(s *Step, dir string, rows map[string]int) {
	checkExportRequests(s, rows)
	if s.Error != "" {
		return
	}
	folders, _ := filepath.Glob(filepath.Join(dir, "*", "manifest.json"))
	if len(folders) == 0 {
		s.Error = "no export with a manifest in " + dir
		return
	}
	raw, err := os.ReadFile(folders[len(folders)-1])
	if err != nil {
		s.Error = err.Error()
		return
	}
	checkManifest(s, raw, rows)
}

// checkBucketExport is checkExport of the one export in the store's
// bucket, which must hold a file per statistics name and the manifest.
func checkBucketExport(ctx context.Context, s *Step, store *s3test.Server, rows map[string]int) {
	checkExportRequests(s, rows)
	if s.Error != "" {
		return
	}
	objs, err := store.Objects(ctx, exportBucket, exportPrefix+"/")
	if err != nil {
		s.Error = "reading the bucket: " + err.Error()
		return
	}
	var manifests []string
	for key := range objs {
		if strings.HasSuffix(key, "/manifest.json") {
			manifests = append(manifests, key)
		}
	}
	if len(manifests) != 1 || len(objs) != len(exportNames)+1 {
		s.Error = fmt.Sprintf("the bucket holds %d objects and %d manifests under %s/, want %d and 1",
			len(objs), len(manifests), exportPrefix, len(exportNames)+1)
		return
	}
	checkManifest(s, objs[manifests[0]], rows)
}

// checkManifest records in s what is wrong with an export's manifest: it
// must list every statistics name with every row.
func checkManifest(s *Step, raw []byte, rows map[string]int) {
	var m struct {
		Statistics []struct {
			Name string `json:"name"`
			Rows int    `json:"rows"`
		} `json:"statistics"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		s.Error = "manifest: " + err.Error()
		return
	}
	total := 0
	for _, st := range m.Statistics {
		if st.Rows != rows[st.Name] {
			s.Error = fmt.Sprintf("the export has %d rows of %s, want %d", st.Rows, st.Name, rows[st.Name])
			return
		}
		total += st.Rows
	}
	if len(m.Statistics) != len(exportNames) {
		s.Error = fmt.Sprintf("the export has %d statistics names, want %d", len(m.Statistics), len(exportNames))
		return
	}
	s.Summary = fmt.Sprintf("%d rows of %d statistics names (pageviews: %d days, page: %d values)", total,
		len(m.Statistics), rows["pageviews"], rows["page"])
}

// exportTargets are the targets of the export pass.
func exportTargets(res *Results) []Target {
	var out []Target
	for _, r := range res.Runs {
		if r == nil || r.Pass != PassExport {
			continue
		}
		s, bk, th := r.step(StepExport), r.step(StepExportBucket), r.step(StepExportThrottled)
		out = append(out, Target{Name: fmt.Sprintf("Export of %d days of statistics and %d pages (analytics_website_statistics_export)",
			res.Config.ExportDays, res.Config.ExportPages), Goal: "one request per 100 rows of each statistics name, + 1; every row written"}.measured(
			s != nil && s.OK() && th != nil && th.OK() && (bk == nil || bk.OK()), func() (string, bool) {
				window := res.Config.RateWindowSec
				m := fmt.Sprintf("%d requests, %.2f s; under the throttle (%d per %g s): %.2f s, %d answers were 429, "+
					"%.1f s waited (≈ %.0f s at the real 60 s window)", s.Requests.Total, s.Wall, res.Config.RateLimit, window,
					th.Wall, th.Requests.Throttled, th.ThrottleWait, toRealWindow(th.ThrottleWait, window))
				if bk != nil {
					m += fmt.Sprintf("; into a bucket on loopback: %d requests, %.2f s", bk.Requests.Total, bk.Wall)
				}
				return m, true
			}))
	}
	return out
}

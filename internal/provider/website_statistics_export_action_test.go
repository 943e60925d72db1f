package provider

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/export"
)

// The analytics_website_statistics_export action, driven through the CLI
// (terraform-plugin-testing 1.16 cannot invoke actions): by hand with
// terraform apply -invoke, and before a destroy with an action_trigger.
// Actions need Terraform 1.14 (before_destroy triggers 1.16); the tests
// skip on older releases and on OpenTofu, which has no actions.

// needsCLI skips t unless the CLI of w is Terraform at min or later.
func needsCLI(t *testing.T, w *acctest.Workdir, minVersion *version.Version, what string) {
	t.Helper()
	if w.IsOpenTofu() {
		t.Skipf("OpenTofu has no %s", what)
	}
	var resp tfversion.CheckTerraformVersionResponse
	tfversion.SkipBelow(minVersion).CheckTerraformVersion(context.Background(),
		tfversion.CheckTerraformVersionRequest{TerraformVersion: acctest.CLIVersion(t, w.CLI)}, &resp)
	if resp.Skip != "" {
		t.Skipf("%s: %s", what, resp.Skip)
	}
}

// Terraform 1.16, the first with before_destroy action triggers.
var version1_16_0 = version.Must(version.NewVersion("1.16.0"))

// newExportEnv is a statsEnv on a CLI with actions.
func newExportEnv(t *testing.T, opts emulator.Options) *statsEnv {
	t.Helper()
	s := newStatsEnv(t, opts)
	needsCLI(t, s.W, tfversion.Version1_14_0, "actions")
	return s
}

// exportAction is an action block of the export.
func exportAction(name, config string) string {
	return fmt.Sprintf("action \"analytics_website_statistics_export\" %q {\n  config {\n%s  }\n}\n", name, config)
}

// exportFolders lists the folders in dir (none when dir is missing).
func exportFolders(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// oneExport returns the only export folder in dir, and its manifest.
func oneExport(t *testing.T, dir, domain string) (string, export.Manifest) {
	t.Helper()
	folders := exportFolders(t, dir)
	if len(folders) != 1 || !strings.HasPrefix(folders[0], domain+"-") {
		t.Fatalf("want one export folder %s-<time> in %s, got %v", domain, dir, folders)
	}
	folder := filepath.Join(dir, folders[0])
	raw, err := os.ReadFile(filepath.Join(folder, export.ManifestName))
	if err != nil {
		t.Fatalf("manifest: %v", err)
	}
	var m export.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("manifest: %v\n%s", err, raw)
	}
	return folder, m
}

// exportedRows reads one statistics file of an export, in either format, as
// "value=count" strings.
func exportedRows(t *testing.T, folder, name, format string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(folder, name+"."+format))
	if err != nil {
		t.Fatal(err)
	}
	return parseExportedRows(t, name, format, raw)
}

// parseExportedRows parses one statistics file of an export.
func parseExportedRows(t *testing.T, name, format string, raw []byte) []string {
	t.Helper()
	key := "value"
	if export.DayStatistic(name) {
		key = "date"
	}
	var out []string
	if format == export.FormatCSV {
		recs, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
		if err != nil {
			t.Fatalf("%s.csv: %v", name, err)
		}
		if len(recs) == 0 || fmt.Sprint(recs[0]) != fmt.Sprint([]string{key, "count"}) {
			t.Fatalf("%s.csv: header %v, want [%s count]", name, recs, key)
		}
		for _, r := range recs[1:] {
			out = append(out, r[0]+"="+r[1])
		}
		return out
	}
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatalf("%s.json: %v\n%s", name, err, raw)
	}
	for _, r := range list {
		out = append(out, fmt.Sprintf("%v=%v", r[key], r["count"]))
	}
	return out
}

// TestAccStatisticsExport_byHand: terraform apply -invoke writes every
// statistics name of the hits sent through the tracking endpoint, in json
// and in csv, with a manifest; the website is untouched.
func TestAccStatisticsExport_byHand(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	const domain = "tf-acc-export.example.com"
	dir := filepath.Join(t.TempDir(), "exports")
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	hits := []struct {
		day  string
		hit  tracking.Hit
		want string
	}{
		{"2024-01-05", tracking.Hit{Page: "https://" + domain + "/", Referrer: "https://news.example.org/a", ScreenResolution: "1920x1080"}, "200"},
		{"2024-01-05", tracking.Hit{Page: "https://" + domain + "/pricing?utm_campaign=spring"}, "200"},
		{"2024-01-07", tracking.Hit{Page: "https://" + domain + "/pricing", Referrer: "https://" + domain + "/"}, "200"},
		{"2024-02-01", tracking.Hit{Page: "https://" + domain + "/a,b"}, "200"},
	}
	day := ""
	for _, h := range hits {
		if h.day != day {
			s.setDay(t, h.day)
			day = h.day
		}
		h.hit.UserAgent = acctest.BrowserUA
		got, err := tracking.SendHit(context.Background(), nil, s.URL, h.hit)
		if err != nil || got != h.want {
			t.Fatalf("tracking %+v: %q, %v", h.hit, got, err)
		}
	}
	site, _ := s.WebsiteByDomain(domain)
	before := s.Statistics(site.ID)

	for _, format := range export.Formats {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(dir, format)
			s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
				"    website_id = analytics_website.main.id\n    directory  = %q\n    format     = %q\n", out, format))))
			s.ResetStats()
			log := s.W.MustRun(0, "apply", "-auto-approve", "-invoke=action.analytics_website_statistics_export.keep")
			for _, want := range []string{"page: 4 rows read; 8 of 17 statistics done, 14 rows and 9 requests so far",
				"exported 26 rows of 17 statistics into " + filepath.Join(out, domain+"-")} {
				if !strings.Contains(log, want) {
					t.Errorf("the apply's output does not report progress (%q):\n%s", want, log)
				}
			}
			folder, m := oneExport(t, out, domain)
			want := map[string][]string{
				"pageviews":    {"2024-01-05=2", "2024-01-07=1", "2024-02-01=1"},
				"visitors":     {"2024-01-05=2", "2024-02-01=1"},
				"page":         {"/=1", "/a,b=1", "/pricing=1", "/pricing?utm_campaign=spring=1"},
				"landing_page": {"/=1", "/a,b=1", "/pricing?utm_campaign=spring=1"},
				"referrer":     {"=2", "news.example.org=1"},
				"campaign":     {"spring=1"},
				"resolution":   {"=2", "1920x1080=1"},
			}
			for name, rows := range want {
				if got := exportedRows(t, folder, name, format); fmt.Sprint(got) != fmt.Sprint(rows) {
					t.Errorf("%s.%s: %v, want %v", name, format, got, rows)
				}
			}
			if m.WebsiteID != site.ID || m.Domain != domain || m.Installation != s.URL || m.Format != format ||
				!m.WholeHistory || m.From != exportFirstDate || m.To != exportLastDate ||
				m.FirstDay != "2024-01-05" || m.LastDay != "2024-02-01" || m.FormatVersion != 1 {
				t.Errorf("manifest %+v", m)
			}
			if _, err := time.Parse(time.RFC3339, m.ExportedAt); err != nil {
				t.Errorf("manifest exported_at %q: %v", m.ExportedAt, err)
			}
			if len(m.Statistics) != len(client.StatisticNames) {
				t.Errorf("the manifest lists %d statistics, want %d", len(m.Statistics), len(client.StatisticNames))
			}
			for _, st := range m.Statistics {
				if rows, ok := want[st.Name]; ok && st.Rows != len(rows) {
					t.Errorf("manifest: %s has %d rows, want %d", st.Name, st.Rows, len(rows))
				}
			}
			files := exportFolders(t, folder)
			if len(files) != len(client.StatisticNames)+1 || !slices.Contains(files, "page."+format) {
				t.Errorf("the export holds %v", files)
			}
			if n := s.statsRequests(); n != len(client.StatisticNames) || m.Requests != n+1 {
				t.Errorf("%d statistics requests (manifest: %d requests in all), want %d: one per name, and one to find the website",
					n, m.Requests, len(client.StatisticNames))
			}
			if raw, _ := json.Marshal(m); strings.Contains(string(raw), s.Key) {
				t.Errorf("the manifest holds the API key")
			}
		})
	}
	if got := s.Statistics(site.ID); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("the export changed the statistics")
	}
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// exportedWebsite is a website whose lifecycle exports its statistics
// before every destroy, into dir.
func exportedWebsite(domain, dir string) string {
	return fmt.Sprintf(`resource "analytics_website" "main" {
  domain = %q
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.analytics_website_statistics_export.keep]
    }
  }
}
`, domain) + exportAction("keep", fmt.Sprintf("    website_id = caller.id\n    directory  = %q\n", dir))
}

// TestAccStatisticsExport_beforeDestroy: the action_trigger exports the
// statistics of the website before terraform destroy, a replacement
// through domain and one forced with -replace delete it.
func TestAccStatisticsExport_beforeDestroy(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	needsCLI(t, s.W, version1_16_0, "before_destroy action triggers")
	const first, second = "tf-acc-export-bd1.example.com", "tf-acc-export-bd2.example.com"
	dir := t.TempDir()
	steps := []struct {
		name, domain, next string
		args               []string
	}{
		{"replace through domain", first, second, []string{"apply", "-auto-approve"}},
		{"-replace", second, second, []string{"apply", "-auto-approve", "-replace=analytics_website.main"}},
		{"destroy", second, "", []string{"destroy", "-auto-approve"}},
	}
	s.Apply(exportedWebsite(first, filepath.Join(dir, "none")))
	day := "2024-03-01"
	for i, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			s.pageviews(t, []string{step.domain}, day)
			day = fmt.Sprintf("2024-03-%02d", i+2)
			old, _ := s.WebsiteByDomain(step.domain)
			want := wantExport(s, old.ID)
			if len(want["pageviews"]) != 1 {
				t.Fatalf("website %d has pageviews %v, want one day", old.ID, want["pageviews"])
			}
			out := filepath.Join(dir, fmt.Sprint(i))
			config := exportedWebsite(step.next, out)
			if step.next == "" {
				config = exportedWebsite(step.domain, out)
			}
			s.W.Write("main.tf", s.Config(config))
			log := s.W.MustRun(0, step.args...)
			if !strings.Contains(log, "triggered by analytics_website.main") {
				t.Errorf("the output does not show the action:\n%s", log)
			}
			folder, m := oneExport(t, out, step.domain)
			if m.WebsiteID != old.ID {
				t.Errorf("exported website %d, want %d (the one destroyed)", m.WebsiteID, old.ID)
			}
			checkExport(t, folder, export.FormatJSON, want)
			if _, ok := s.Website(old.ID); ok {
				t.Errorf("website %d is still on the server", old.ID)
			}
			if step.next != "" {
				if _, ok := s.WebsiteByDomain(step.next); !ok {
					t.Errorf("the new website %s was not created", step.next)
				}
			}
		})
	}
}

// newExportEnvWrapped is newExportEnv with the emulator's handler wrapped
// (see acctest.Wrap).
func newExportEnvWrapped(t *testing.T, opts emulator.Options, wrap func(http.Handler) http.Handler) *statsEnv {
	t.Helper()
	w := acctest.NewWorkdir(t)
	needsCLI(t, w, tfversion.Version1_14_0, "actions")
	clock := statsClock(&opts)
	return &statsEnv{CLIEnv: &acctest.CLIEnv{Env: acctest.New(t, acctest.Emulator(opts), acctest.Wrap(wrap)), W: w}, clock: clock}
}

// wantExport is what an export of the website id must hold, from the
// emulator's statistics: "value=count" per name, sorted by value.
func wantExport(s *statsEnv, id int64) map[string][]string {
	return wantExportFrom(s.Statistics(id))
}

// wantExportFrom is what an export of stats must hold.
func wantExportFrom(stats []emulator.Statistic) map[string][]string {
	sums := map[string]map[string]int{}
	for _, st := range stats {
		if sums[st.Name] == nil {
			sums[st.Name] = map[string]int{}
		}
		sums[st.Name][st.Value] += st.Count
	}
	out := map[string][]string{}
	for name, values := range sums {
		keys := make([]string, 0, len(values))
		for v := range values {
			keys = append(keys, v)
		}
		slices.Sort(keys)
		for _, v := range keys {
			out[name] = append(out[name], fmt.Sprintf("%s=%d", v, values[v]))
		}
	}
	return out
}

// checkExport fails unless folder holds exactly want, in format.
func checkExport(t *testing.T, folder, format string, want map[string][]string) {
	t.Helper()
	for _, name := range client.StatisticNames {
		if got := exportedRows(t, folder, name, format); fmt.Sprint(got) != fmt.Sprint(want[name]) {
			t.Errorf("%s.%s: %v, want %v", name, format, got, want[name])
		}
	}
}

// invokeExport is the hand invocation of the action "keep"; the refresh is
// left out so that the action's requests are the apply's only ones.
var invokeExport = []string{"apply", "-auto-approve", "-refresh=false", "-invoke=action.analytics_website_statistics_export.keep"}

// TestAccStatisticsExport_failures: an export that cannot finish ends with
// an error naming the cause and leaves nothing in the directory, and an
// export never writes into an existing folder.
func TestAccStatisticsExport_failures(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	// Skips here, not only in each case, so that a skip is not counted as
	// a pass.
	acctest.NeedsEmulator(t, "injects faults and maintenance into the emulator")
	needsCLI(t, acctest.NewWorkdir(t), tfversion.Version1_14_0, "actions")
	const domain = "tf-acc-export-fail.example.com"
	tests := []struct {
		name string
		// maintenanceAfter turns maintenance mode on after that many
		// statistics requests (0: never).
		maintenanceAfter int
		faults           *emulator.Faults
		extra            string
		// directory returns the action's directory, prepared.
		directory func(t *testing.T) string
		want      string
	}{
		{name: "maintenance mid-export", maintenanceAfter: 5, extra: "    timeout    = \"8s\"\n",
			want: `Analytics Server Unavailable.*while reading "country" \(request 7 of the export\).*503 Service Unavailable.*maintenance mode.*No export was left behind`},
		{name: "throttled past the timeout", faults: &emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Minute},
			extra: "    timeout    = \"5s\"\n",
			want:  `Statistics Export Timed Out.*time limit.*429.*Raise the action's timeout.*No export was left behind`},
		{name: "directory under a file", directory: func(t *testing.T) string {
			file := filepath.Join(t.TempDir(), "notes.txt")
			if err := os.WriteFile(file, []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(file, "exports")
		}, want: `Unable to Write the Statistics Export.*not a directory.*No export was left behind`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var emu atomic.Pointer[emulator.Emulator]
			var statsSeen atomic.Int64
			s := newExportEnvWrapped(t, emulator.Options{}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.URL.Path, "/api/v1/stats/") && tc.maintenanceAfter > 0 &&
						statsSeen.Add(1) == int64(tc.maintenanceAfter)+1 {
						emu.Load().SetMaintenance(true)
					}
					h.ServeHTTP(w, r)
				})
			})
			emu.Store(s.Emulator)
			dir := filepath.Join(t.TempDir(), "exports")
			if tc.directory != nil {
				dir = tc.directory(t)
			}
			website := websiteBlock("main", domain, "")
			s.Apply(website)
			s.pageviews(t, []string{domain}, "2024-04-01", "2024-04-02")
			site, _ := s.WebsiteByDomain(domain)
			before := s.Statistics(site.ID)
			s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
				"    domain     = %q\n    directory  = %q\n%s", domain, dir, tc.extra))))
			if err := s.SetFaults(tc.faults); err != nil {
				t.Fatal(err)
			}
			out := s.W.MustRun(1, invokeExport...)
			if !acctest.ExpectError(tc.want).MatchString(out) {
				t.Errorf("the output does not match %q:\n%s", tc.want, out)
			}
			if got := exportFolders(t, dir); len(got) != 0 {
				t.Errorf("the failed export left %v in %s", got, dir)
			}
			if tc.directory != nil {
				if got, err := os.ReadFile(filepath.Dir(dir)); err != nil || string(got) != "keep me" {
					t.Errorf("the file in the way holds %q (%v), want it untouched", got, err)
				}
			}
			s.SetMaintenance(false)
			if err := s.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			if got := s.Statistics(site.ID); fmt.Sprint(got) != fmt.Sprint(before) {
				t.Errorf("the statistics changed")
			}
			s.W.Write("main.tf", s.Config(website))
			s.W.MustRun(0, "destroy", "-auto-approve")
		})
	}
}

// TestAccStatisticsExport_failedExportStopsDestroy: when the export before
// a destroy fails, the website and its statistics stay on the server and in
// the state, for a replacement (Terraform halts) and for terraform destroy
// (Terraform only warns; the provider refuses the delete).
func TestAccStatisticsExport_failedExportStopsDestroy(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	needsCLI(t, s.W, version1_16_0, "before_destroy action triggers")
	const domain, renamed = "tf-acc-export-stop.example.com", "tf-acc-export-stop2.example.com"
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	unwritable := filepath.Join(file, "exports") // under a file: cannot be created
	s.Apply(exportedWebsite(domain, unwritable))
	s.pageviews(t, []string{domain}, "2024-05-01", "2024-05-02")
	site, _ := s.WebsiteByDomain(domain)
	before := s.Statistics(site.ID)
	state := s.W.Read("terraform.tfstate")

	for _, step := range []struct {
		name, domain string
		args         []string
		want         string
	}{
		{"replacement", renamed, []string{"apply", "-auto-approve"}, `Error: Unable to Write the Statistics Export.*not a directory`},
		{"-replace", domain, []string{"apply", "-auto-approve", "-replace=analytics_website.main"}, `Error: Unable to Write the Statistics Export`},
		{"destroy", domain, []string{"destroy", "-auto-approve"},
			`Unable to Write the Statistics Export.*Error: Website Kept: Its Statistics Export Failed.*Refusing to delete the website "` + domain + `"`},
	} {
		t.Run(step.name, func(t *testing.T) {
			s.W.Write("main.tf", s.Config(exportedWebsite(step.domain, unwritable)))
			s.ResetStats()
			out := s.W.MustRun(1, step.args...)
			if !acctest.ExpectError(step.want).MatchString(out) {
				t.Errorf("the output does not match %q:\n%s", step.want, out)
			}
			if n := s.Writes(); n != 0 {
				t.Errorf("%d write requests reached the server: %v", n, s.Stats().ByRoute)
			}
			if w, ok := s.Website(site.ID); !ok || w.Domain != domain {
				t.Fatalf("website %d left the server", site.ID)
			}
			if got := s.Statistics(site.ID); fmt.Sprint(got) != fmt.Sprint(before) {
				t.Errorf("the statistics changed")
			}
			if _, ok := s.WebsiteByDomain(renamed); ok {
				t.Errorf("the replacement was created")
			}
			if got := s.W.Read("terraform.tfstate"); !strings.Contains(got, `"id": "`+fmt.Sprint(site.ID)+`"`) {
				t.Errorf("the state lost the website:\n%s (was %s)", got, state)
			}
		})
	}
	// Once the export can be written, the destroy goes ahead.
	s.W.Write("main.tf", s.Config(exportedWebsite(domain, filepath.Join(t.TempDir(), "exports"))))
	s.W.MustRun(0, "destroy", "-auto-approve")
	if _, ok := s.Website(site.ID); ok {
		t.Errorf("website %d is still on the server", site.ID)
	}
}

// TestAccStatisticsExport_throttled: the server's 429s are waited out
// within the action's timeout, and the export is complete.
func TestAccStatisticsExport_throttled(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	const domain = "tf-acc-export-slow.example.com"
	dir := t.TempDir()
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	s.pageviews(t, []string{domain}, "2024-06-01", "2024-06-02", "2024-06-03")
	site, _ := s.WebsiteByDomain(domain)
	want := wantExport(s, site.ID)
	s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
		"    website_id = %q\n    directory  = %q\n    format     = \"csv\"\n    timeout    = \"2m\"\n", fmt.Sprint(site.ID), dir))))
	if err := s.SetFaults(&emulator.Faults{ThrottleRate: 0.25, ThrottleFor: 2 * time.Second, MaxFaults: 3, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s.W.MustRun(0, invokeExport...)
	throttled := s.FaultCounts()[emulator.FaultThrottle]
	if err := s.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if throttled == 0 {
		t.Fatalf("the emulator refused no request: the test proves nothing")
	}
	t.Logf("%d requests refused with 429, export in %s", throttled, time.Since(start).Round(time.Millisecond))
	folder, m := oneExport(t, dir, domain)
	checkExport(t, folder, export.FormatCSV, want)
	if m.Requests != len(client.StatisticNames)+1 {
		t.Errorf("the manifest counts %d requests, want %d (retries are not counted)", m.Requests, len(client.StatisticNames)+1)
	}
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccStatisticsExport_neverOverwrites: an export never writes into an
// earlier one, even one of the same second: each has a random part in its
// name; the earlier folders stay as they were.
func TestAccStatisticsExport_neverOverwrites(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	const domain = "tf-acc-export-again.example.com"
	dir := t.TempDir()
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	s.pageviews(t, []string{domain}, "2024-07-01")
	s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf("    domain    = %q\n    directory = %q\n", domain, dir))))
	// Earlier exports of every second the next minute can give.
	now := time.Now()
	earlier := map[string]bool{}
	for i := -2; i < 60; i++ {
		name := export.FolderName(domain, now.Add(time.Duration(i)*time.Second), fmt.Sprintf("%08x", i+2))
		earlier[name] = true
		folder := filepath.Join(dir, name)
		if err := os.MkdirAll(folder, 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(folder, export.ManifestName), []byte("earlier"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.W.MustRun(0, invokeExport...)
	folders := exportFolders(t, dir)
	if len(folders) != 63 {
		t.Errorf("%d folders, want the 62 there were and a new one", len(folders))
	}
	name := regexp.MustCompile(`^` + regexp.QuoteMeta(domain) + `-\d{8}T\d{6}Z-[0-9a-f]{8}$`)
	for _, f := range folders {
		got, err := os.ReadFile(filepath.Join(dir, f, export.ManifestName))
		if !earlier[f] {
			if !name.MatchString(f) || err != nil || string(got) == "earlier" {
				t.Errorf("the new export %s: manifest %.40q (%v)", f, got, err)
			}
			continue
		}
		files := exportFolders(t, filepath.Join(dir, f))
		if len(files) != 1 || err != nil || string(got) != "earlier" {
			t.Errorf("%s changed: %v, manifest %q (%v)", f, files, got, err)
		}
	}
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccStatisticsExport_live: the hand invocation on any installation
// (the live mode too): a pageview sent through the tracking endpoint is in
// the export, on the day of the hit.
func TestAccStatisticsExport_live(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := acctest.NewCLIEnv(t)
	needsCLI(t, s.W, tfversion.Version1_14_0, "actions")
	domain := s.Domain("export")
	dir := t.TempDir()
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	id := s.StateID(t, "main")
	days := s.Pageview(t, domain)

	s.Write(website + exportAction("keep", fmt.Sprintf("    website_id = analytics_website.main.id\n    directory  = %q\n    format     = \"csv\"\n", dir)))
	log := s.W.MustRun(0, invokeExport...)
	if !strings.Contains(log, "17 of 17 statistics done") {
		t.Errorf("the output does not report the progress:\n%s", log)
	}
	folder, m := oneExport(t, dir, domain)
	if m.WebsiteID != id || m.Domain != domain || m.Installation != strings.TrimRight(s.URL, "/") || !m.WholeHistory {
		t.Errorf("manifest %+v", m)
	}
	pageviews := exportedRows(t, folder, "pageviews", export.FormatCSV)
	if len(pageviews) != 1 || !strings.HasSuffix(pageviews[0], "=1") || !days[strings.TrimSuffix(pageviews[0], "=1")] {
		t.Errorf("pageviews %v, want one pageview on one of %v", pageviews, sortedKeys(days))
	}
	if got := exportedRows(t, folder, "page", export.FormatCSV); fmt.Sprint(got) != "[/=1]" {
		t.Errorf("pages %v, want [/=1]", got)
	}
	s.Write(website)
	s.Destroy(t)
}

// TestAccStatisticsExport_removedBlockSkipsTrigger pins what the docs say
// of Terraform 1.16.4: a website whose block is removed from the
// configuration is deleted without its before_destroy trigger (Terraform
// attaches triggers only to resources with a configuration). If this test
// fails, Terraform has changed: update the docs (the action's page, the
// resource's, the guides and keepAdvice).
func TestAccStatisticsExport_removedBlockSkipsTrigger(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	needsCLI(t, s.W, version1_16_0, "before_destroy action triggers")
	const domain = "tf-acc-export-removed.example.com"
	dir := t.TempDir()
	s.Apply(exportedWebsite(domain, dir))
	s.pageviews(t, []string{domain}, "2024-08-01")
	site, _ := s.WebsiteByDomain(domain)
	s.W.Write("main.tf", s.Config(exportAction("keep", fmt.Sprintf("    website_id = \"%d\"\n    directory  = %q\n", site.ID, dir))))
	out := s.W.MustRun(0, "apply", "-auto-approve")
	if strings.Contains(out, "Action started") {
		t.Errorf("the trigger ran for a removed block: update the docs, which say it does not:\n%s", out)
	}
	if got := exportFolders(t, dir); len(got) != 0 {
		t.Errorf("an export was written for a removed block (%v): update the docs, which say it is not", got)
	}
	if _, ok := s.Website(site.ID); ok {
		t.Errorf("the website of the removed block is still on the server")
	}
}

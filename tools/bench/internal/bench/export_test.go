package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The seeded history has the rows the pass asks for, and an export of it
// costs one request per 100 rows of each name, plus one.
func TestExportHistory(t *testing.T) {
	t.Parallel()
	rows := exportRows(exportHistory(730, 500))
	for name, want := range map[string]int{"pageviews": 730, "visitors": 730, "page": 500, "landing_page": 500,
		"pageviews_hour": 24, "browser": 3, "event": 1} {
		if rows[name] != want {
			t.Errorf("%s: %d rows, want %d", name, rows[name], want)
		}
	}
	if len(rows) != len(exportNames) {
		t.Errorf("%d names have rows, want all %d", len(rows), len(exportNames))
	}
	// 8 + 8 (days) + 5 + 5 (pages) + 13 names of one page each + the website.
	if got := exportWantRequests(rows); got != 8+8+5+5+13+1 {
		t.Errorf("%d requests, want 40", got)
	}
	if rows := exportRows(exportHistory(10, 300)); rows["page"] != 300 || rows["pageviews"] != 10 {
		t.Errorf("more pages than days: %v", rows)
	}
}

func TestCheckExport(t *testing.T) {
	t.Parallel()
	rows := map[string]int{"pageviews": 150}
	want := exportWantRequests(rows) // 2 + 16 + 1
	dir := t.TempDir()
	manifest := `{"statistics": [`
	for i, name := range exportNames {
		if i > 0 {
			manifest += ","
		}
		manifest += `{"name": "` + name + `", "rows": ` + map[bool]string{true: "150", false: "0"}[name == "pageviews"] + `}`
	}
	manifest += `]}`
	if err := os.MkdirAll(filepath.Join(dir, "site-1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "site-1", "manifest.json"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		step    *Step
		dir     string
		wantErr string
	}{
		{"complete", &Step{Requests: Requests{Total: want}}, dir, ""},
		{"429s are not counted", &Step{Requests: Requests{Total: want + 3, Throttled: 3}}, dir, ""},
		{"a request too many", &Step{Requests: Requests{Total: want + 1}}, dir, "requests answered, want"},
		{"no export", &Step{Requests: Requests{Total: want}}, t.TempDir(), "no export with a manifest"},
		{"a write", &Step{Requests: Requests{Total: want, Delete: 1}}, dir, "1 write requests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkExport(tc.step, tc.dir, rows)
			if (tc.wantErr == "") != (tc.step.Error == "") || !strings.Contains(tc.step.Error, tc.wantErr) {
				t.Errorf("error %q, want %q", tc.step.Error, tc.wantErr)
			}
		})
	}
	s := &Step{Requests: Requests{Total: want}}
	checkExport(s, dir, map[string]int{"pageviews": 151})
	if !strings.Contains(s.Error, "150 rows of pageviews, want 151") {
		t.Errorf("a missing row: %q", s.Error)
	}
}

func TestExportReport(t *testing.T) {
	t.Parallel()
	res := &Results{Config: RunConfig{Config: Config{ExportDays: 730, ExportPages: 500, RateLimit: 60}, RateWindowSec: 6, QueryTerraformVersion: "1.16.4"},
		Runs: []*Run{{Pass: PassExport, Kind: KindWebsite, N: 1, Steps: []*Step{
			{Name: StepCreate, Wall: 0.2, Requests: Requests{Total: 3, Post: 1}},
			{Name: StepExport, Wall: 0.26, Summary: "2537 rows", Requests: Requests{Total: 40, ByRoute: map[string]int{statisticsRoute: 39}}},
			{Name: StepExportBucket, Wall: 0.41, Summary: "2537 rows; store: 2 LIST, 18 PUT", Requests: Requests{Total: 40, ByRoute: map[string]int{statisticsRoute: 39}}},
			{Name: StepExportThrottled, Wall: 7.5, ThrottleWait: 6.5, Requests: Requests{Total: 42, Throttled: 2, ByRoute: map[string]int{statisticsRoute: 41}}},
		}}}}
	got := exportTargets(res)
	if len(got) != 1 || !got[0].Met || got[0].Measured != "40 requests, 0.26 s; under the throttle (60 per 6 s): 7.50 s, 2 answers were 429, "+
		"6.5 s waited (≈ 65 s at the real 60 s window); into a bucket on loopback: 40 requests, 0.41 s" {
		t.Errorf("targets %+v", got)
	}
	var b strings.Builder
	writeExport(&b, res)
	if !strings.Contains(b.String(), "| export under the throttle | 7.50 s | 42 | 41 | 2 | 6.5 s | ") ||
		!strings.Contains(b.String(), "| export into a folder (apply -invoke) | 0.26 s | 40 | 39 | 0 | – | 2537 rows | ok |") ||
		!strings.Contains(b.String(), "| export into a bucket (S3-compatible store on loopback) | 0.41 s | 40 | 39 | 0 | – | 2537 rows; store: 2 LIST, 18 PUT | ok |") {
		t.Errorf("report:\n%s", b.String())
	}
	res.Runs[0].Steps[3].Error = "terraform exited with code 1"
	if got := exportTargets(res); got[0].Met || got[0].Measured != "failed" {
		t.Errorf("a failed export: %+v", got)
	}
}

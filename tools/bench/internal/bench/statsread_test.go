package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a read of N days must cost: one request per 100 days of pageviews
// and of visitors, one for the top pages, one search for the domain.
func TestStatisticsWant(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		step            string
		days            int
		stats, searches int
		wantTop         int
	}{
		{StepStatisticsByID, 1, 2, 0, 0},
		{StepStatisticsByID, 100, 2, 0, 0},
		{StepStatisticsByID, 101, 4, 0, 0},
		{StepStatisticsByID, 365, 8, 0, 0},
		{StepStatisticsByDomain, 365, 9, 1, 100},
		{StepStatisticsByDomain, 30, 3, 1, 30},
	} {
		outputs, stats, searches := statisticsWant(tc.step, tc.days)
		if stats != tc.stats || searches != tc.searches || outputs["top"] != tc.wantTop || outputs["pageviews"] != tc.days ||
			outputs["days_with_pageviews"] != tc.days {
			t.Errorf("%s, %d days: %v, %d statistics requests, %d searches; want top %d, %d and %d", tc.step, tc.days,
				outputs, stats, searches, tc.wantTop, tc.stats, tc.searches)
		}
	}
}

func TestStatisticsConfiguration(t *testing.T) {
	t.Parallel()
	byID := StatisticsConfiguration(StepStatisticsByID, 7, 365)
	for _, want := range []string{`website_id = "7"`, `from = "2025-01-01"`, `to   = "2025-12-31"`, `output "days_with_pageviews"`} {
		if !strings.Contains(byID, want) {
			t.Errorf("by id: lacks %q:\n%s", want, byID)
		}
	}
	byDomain := StatisticsConfiguration(StepStatisticsByDomain, 7, 365)
	for _, want := range []string{`domain    = "` + statisticsDomain + `"`, `dimension = "page"`, `limit     = 100`} {
		if !strings.Contains(byDomain, want) {
			t.Errorf("by domain: lacks %q:\n%s", want, byDomain)
		}
	}
	if strings.Contains(byDomain, "website_id") {
		t.Errorf("by domain names the id:\n%s", byDomain)
	}
}

func TestCheckStatisticsRead(t *testing.T) {
	t.Parallel()
	state := func(t *testing.T, pageviews, top string) string {
		dir := t.TempDir()
		st := `{"version":4,"outputs":{"pageviews":{"value":` + pageviews + `,"type":"number"},"visitors":{"value":365,"type":"number"},` +
			`"days_with_pageviews":{"value":365,"type":"number"},"top":{"value":` + top + `,"type":"number"}}}`
		if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), []byte(st), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	reqs := func(stats, search, other int) Requests {
		return Requests{Total: stats + search + other, Search: search, ByRoute: map[string]int{statisticsRoute: stats}}
	}
	for _, tc := range []struct {
		name           string
		step           string
		pageviews, top string
		req            Requests
		wantErr        string
	}{
		{"by id", StepStatisticsByID, "365", "0", reqs(8, 0, 0), ""},
		{"by domain", StepStatisticsByDomain, "365", "100", reqs(9, 1, 0), ""},
		{"a request too many", StepStatisticsByID, "365", "0", reqs(9, 0, 0), "9 statistics, 0 searches), want 8"},
		{"another request", StepStatisticsByID, "365", "0", reqs(8, 0, 1), "9 requests"},
		{"a day missing", StepStatisticsByID, "364", "0", reqs(8, 0, 0), "the data source read"},
		{"no top", StepStatisticsByDomain, "365", "0", reqs(9, 1, 0), "the data source read"},
		{"a write", StepStatisticsByID, "365", "0", Requests{Put: 1, ByRoute: map[string]int{statisticsRoute: 8}, Total: 9}, "1 write requests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &Step{Name: tc.step, Requests: tc.req}
			checkStatisticsRead(s, tc.step, 365, state(t, tc.pageviews, tc.top))
			if (tc.wantErr == "") != (s.Error == "") || !strings.Contains(s.Error, tc.wantErr) {
				t.Errorf("error %q, want %q", s.Error, tc.wantErr)
			}
		})
	}
	s := &Step{Name: StepStatisticsByID}
	if checkStatisticsRead(s, StepStatisticsByID, 365, t.TempDir()); !strings.Contains(s.Error, "reading the outputs") {
		t.Errorf("no state: error %q", s.Error)
	}
}

func TestStatisticsReport(t *testing.T) {
	t.Parallel()
	res := &Results{Runs: []*Run{{Pass: PassStatistics, Kind: KindWebsite, N: 365, Steps: []*Step{
		{Name: StepStatisticsByID, Wall: 1.25, Requests: Requests{Total: 8, ByRoute: map[string]int{statisticsRoute: 8}}},
		{Name: StepStatisticsByDomain, Wall: 1.5, Requests: Requests{Total: 10, Search: 1, ByRoute: map[string]int{statisticsRoute: 9}}},
	}}}}
	tgs := statisticsTargets(res)
	if len(tgs) != 2 || !tgs[0].Met || !tgs[1].Met || tgs[0].Goal != "≤ 8 requests" || tgs[1].Goal != "≤ 10 requests" ||
		!strings.Contains(tgs[1].Measured, "10 requests (9 statistics, 1 searches), 1.50 s") {
		t.Errorf("targets %+v", tgs)
	}
	var b strings.Builder
	writeStatistics(&b, res)
	if !strings.Contains(b.String(), "| by id | 1.25 s | 8 | 8 | 0 | 0 |") ||
		!strings.Contains(b.String(), "| by domain, with the top 100 pages | 1.50 s | 10 | 9 | 1 | 0 |") {
		t.Errorf("report:\n%s", b.String())
	}
	res.Runs[0].Steps[1].Error = "failed"
	if tgs := statisticsTargets(res); tgs[1].Met || tgs[1].Measured != "failed" {
		t.Errorf("a failed step: %+v", tgs[1])
	}
	if len(statisticsTargets(&Results{})) != 0 {
		t.Error("targets without the pass")
	}
}

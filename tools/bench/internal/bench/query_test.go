package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hclLines returns the lines of an HCL file without comments and blank
// lines.
func hclLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return out
}

// TestQueryFile: the query pass measures the adoption guide's list block.
func TestQueryFile(t *testing.T) {
	t.Parallel()
	guide, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "examples", "guides", "adopt-query", "websites.tfquery.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(hclLines(QueryFile), "\n"), strings.Join(hclLines(string(guide)), "\n"); got != want {
		t.Errorf("QueryFile differs from the guide's example:\n%s\nwant:\n%s", got, want)
	}
}

func TestNewestTerraform(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if got := newestTerraform(dir); got != "" {
		t.Errorf("empty directory: %q", got)
	}
	for _, name := range []string{"terraform", "terraform-1.8.5", "terraform-1.13.3", "terraform-1.14.2", "terraform-1.15.9",
		"terraform-1.16.0-rc2", "terraform-provider-time"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := newestTerraform(dir); got != filepath.Join(dir, "terraform-1.15.9") {
		t.Errorf("newestTerraform = %q, want terraform-1.15.9", got)
	}
}

func TestCheckQuery(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	block := func(i int) string {
		return fmt.Sprintf("resource \"analytics_website\" \"site_%d\" {\n  domain = \"x\"\n}\n\nimport {\n  to       = analytics_website.site_%d\n"+
			"  identity = {\n    id = \"%d\"\n  }\n}\n", i, i, i+1)
	}
	gen := "# __generated__ by Terraform\n\n" + block(0) + "\n" + block(1)
	if err := os.WriteFile(filepath.Join(dir, queryGenerated), []byte(gen), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &Step{Name: StepQuery}
	checkQuery(s, dir, 2)
	if s.Error != "" || s.Summary != "2 import blocks (2 by identity) and 2 resource blocks generated" {
		t.Errorf("2 of 2: error %q, summary %q", s.Error, s.Summary)
	}
	s = &Step{Name: StepQuery}
	checkQuery(s, dir, 3)
	if !strings.Contains(s.Error, "want 3 by identity") {
		t.Errorf("2 of 3: error %q", s.Error)
	}
	s = &Step{Name: StepQuery}
	checkQuery(s, t.TempDir(), 2)
	if !strings.Contains(s.Error, "no generated configuration") {
		t.Errorf("nothing generated: error %q", s.Error)
	}
}

func TestQueryTargets(t *testing.T) {
	t.Parallel()
	run := &Run{Pass: PassQuery, Kind: KindWebsite, N: 500, Steps: []*Step{
		{Name: StepQuery, Wall: 2.5, Requests: Requests{Total: 10, List: 10}},
		{Name: StepImportApply, Wall: 3, Requests: Requests{Total: 7, List: 5, Show: 1, OtherGet: 1}},
		{Name: StepRefresh, Wall: 3, Requests: Requests{Total: 6}},
	}}
	res := &Results{Runs: []*Run{run}, Config: RunConfig{Config: Config{QueryOnly: true}}}
	got := evaluate(res)
	if len(got) != 1 || !got[0].Met || got[0].Goal != "≤ 10 API requests (one per 100 websites, read twice)" ||
		got[0].Measured != "10 requests (10 list pages), 2.50 s" {
		t.Errorf("targets %+v", got)
	}
	if q, wall, _, ok := totals(run, StepQuery, StepImportApply); !ok || q.Total != 17 || wall != 5.5 {
		t.Errorf("totals = %+v, %v, %v", q, wall, ok)
	}
	if md, want := Markdown(res), "| 500 | **query + apply** | 5.50 s | 17 | 15 | 1 | 1 | 0 / 0 / 0 |  |  | ok |"; !strings.Contains(md, want) {
		t.Errorf("Markdown lacks %q:\n%s", want, md)
	}
	run.Steps[0].Requests.Total = 11
	if got := queryTargets(res); got[0].Met {
		t.Errorf("11 requests for 500 websites met the target: %+v", got)
	}
	run.Steps[0].Error = "failed"
	if got := queryTargets(res); got[0].Met || got[0].Measured != "failed" {
		t.Errorf("a failed query: %+v", got)
	}
	if _, _, _, ok := totals(run, StepQuery, StepImportApply); ok {
		t.Error("totals ok with a failed query")
	}
	md := Markdown(res)
	if !strings.Contains(md, "### Adoption with terraform query") || !strings.Contains(md, "| 500 | query (-generate-config-out) |") {
		t.Errorf("Markdown lacks the query pass:\n%s", md)
	}
}

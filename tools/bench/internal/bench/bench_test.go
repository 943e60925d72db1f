package bench

import (
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestConfiguration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind    string
		updated bool
		want    []string
	}{
		{KindWebsite, false, []string{`source = "analytics-tf/analytics"`, `resource "analytics_website" "site"`, "count         = 500", "email_reports = false"}},
		{KindWebsite, true, []string{"email_reports = true"}},
		{KindData, true, []string{`resource "terraform_data" "site"`, "count = 500", "email_reports = true"}},
		{KindTime, false, []string{`source = "hashicorp/time"`, `resource "time_static" "site"`, "count = 500", `email_reports = "false"`}},
		{KindTime, true, []string{`email_reports = "true"`}},
	} {
		got := Configuration(tc.kind, 500, tc.updated)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("Configuration(%s, updated %t) lacks %q:\n%s", tc.kind, tc.updated, w, got)
			}
		}
	}
	if c := cliConfig("/tmp/p", ""); !strings.Contains(c, `"registry.terraform.io/analytics-tf/analytics" = "/tmp/p"`) ||
		strings.Contains(c, "hashicorp/time") {
		t.Errorf("cliConfig: %s", c)
	}
	c := cliConfig("/tmp/p", "/tmp/t")
	for _, want := range []string{
		`"registry.terraform.io/analytics-tf/analytics" = "/tmp/p"`, `"registry.terraform.io/hashicorp/time" = "/tmp/t"`, "direct {}",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("cliConfig lacks %q:\n%s", want, c)
		}
	}
}

func TestModuleVersion(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{Main: debug.Module{Path: timeModule, Version: "v0.14.2"},
		Deps: []*debug.Module{{Path: "github.com/hashicorp/terraform-plugin-framework", Version: "v1.19.0"}}}
	for module, want := range map[string]string{
		timeModule: "v0.14.2", "github.com/hashicorp/terraform-plugin-framework": "v1.19.0", "example.com/none": "",
	} {
		if got := moduleVersion(info, module); got != want {
			t.Errorf("moduleVersion(%s) = %q, want %q", module, got, want)
		}
	}
}

func TestReplaceBetweenMarkers(t *testing.T) {
	t.Parallel()
	doc := "# Bench\n\nintro\n\n" + BeginMarker + "\nold table\n" + EndMarker + "\n\nfooter\n"
	got, err := ReplaceBetweenMarkers([]byte(doc), "new table\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Bench\n\nintro\n\n" + BeginMarker + "\nnew table\n" + EndMarker + "\n\nfooter\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := ReplaceBetweenMarkers([]byte("no markers"), "x"); err == nil {
		t.Error("no error without markers")
	}
}

// sampleResults is a small, complete run: one round at N=500.
func sampleResults() *Results {
	ok := func(name string, wall float64, r Requests) *Step {
		r.ByStatus = map[string]int{"200": r.Total - r.Throttled, "429": r.Throttled}
		return &Step{Name: name, Wall: wall, CPU: wall, Requests: r}
	}
	lower := func(s *Step) *Step {
		s.LowerBound = float64(s.Requests.Successful()) / 60 * 6
		return s
	}
	waited := func(s *Step, wait float64) *Step {
		s.ThrottleWait = wait
		return s
	}
	summary := func(s *Step, line string) *Step {
		s.Summary = line
		return s
	}
	return &Results{
		Config:   RunConfig{Config: Config{Sizes: []int{500}, Parallelism: 10, RateLimit: 60}, RateWindowSec: 6, TimeProviderVersion: "v0.14.2"},
		Started:  time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Duration: 200,
		Runs: []*Run{
			{Pass: PassMain, Kind: KindData, N: 500, Round: 1, Steps: []*Step{
				ok(StepCreate, 10, Requests{}), ok(StepRefresh, 2, Requests{}), ok(StepUpdate, 20, Requests{}), ok(StepDestroy, 12, Requests{}),
			}},
			{Pass: PassMain, Kind: KindTime, N: 500, Round: 1, Steps: []*Step{
				ok(StepCreate, 20, Requests{}), ok(StepRefresh, 4, Requests{}), ok(StepUpdate, 40, Requests{}), ok(StepDestroy, 25, Requests{}),
			}},
			{Pass: PassMain, Kind: KindWebsite, N: 500, Round: 1, Steps: []*Step{
				ok(StepCreate, 14, Requests{Total: 500, Post: 500}),
				ok(StepRefresh, 5, Requests{Total: 6, List: 5, Show: 1}),
				ok(StepUpdate, 25, Requests{Total: 506, List: 5, Show: 1, Put: 500}),
				ok(StepDestroy, 20, Requests{Total: 506, List: 5, Show: 1, Delete: 500}),
			}},
			{Pass: PassAmong, Kind: KindWebsite, N: 1, Seeded: 4999, Steps: []*Step{
				ok(StepCreate, 1, Requests{Total: 1, Post: 1}), ok(StepRefresh, 1, Requests{Total: 1, Show: 1}),
			}},
			{Pass: PassThrottled, Kind: KindWebsite, N: 100, Steps: []*Step{
				lower(waited(ok(StepCreate, 11, Requests{Total: 101, Post: 101, Throttled: 1}), 0.5)),
				lower(ok(StepRefresh, 1, Requests{Total: 3, List: 1, Show: 2})),
				lower(ok(StepUpdate, 11, Requests{Total: 103, List: 1, Show: 2, Put: 100})),
				lower(ok(StepDestroy, 12, Requests{Total: 103, List: 1, Show: 2, Delete: 100})),
			}},
			{Pass: PassAdopt, Kind: KindWebsite, N: 500, Steps: []*Step{
				summary(ok(StepImportPlan, 3, Requests{Total: 6, List: 5, OtherGet: 1}), "Plan: 500 to import, 0 to add, 0 to change, 0 to destroy."),
				summary(ok(StepImportApply, 4, Requests{Total: 6, List: 5, OtherGet: 1}), "Apply complete! Resources: 500 imported, 0 added, 0 changed, 0 destroyed."),
				ok(StepRefresh, 2, Requests{Total: 6, List: 5, Show: 1}),
			}},
			{Pass: PassAdoptThrottled, Kind: KindWebsite, N: 500, Steps: []*Step{
				lower(waited(ok(StepImportPlan, 3, Requests{Total: 6, List: 5, OtherGet: 1}), 0)),
				lower(waited(ok(StepImportApply, 6, Requests{Total: 8, List: 5, OtherGet: 1, Throttled: 2}), 2.5)),
				lower(ok(StepRefresh, 2, Requests{Total: 6, List: 5, Show: 1})),
			}},
		},
		Profile: &Profile{N: 500, Wall: 14, Processes: 3, Files: 3, Samples: 4,
			Top:        []ProfileFunc{{Name: "runtime.mallocgc", Flat: 0.5, Cum: 1}},
			Components: []ProfileComponent{{Name: "Go runtime (GC, scheduler, allocation)", Self: 2, Attributed: 1, Stack: 2.1}},
			Dir:        ".bench/profiles"},
	}
}

// addRound appends round r of create, update and destroy at N=500 with the
// given wall times of websites, time_static and terraform_data.
func addRound(res *Results, r int, site, tm, data [3]float64) {
	steps := []string{StepCreate, StepUpdate, StepDestroy}
	kinds := []string{KindWebsite, KindTime, KindData}
	for k, walls := range [][3]float64{site, tm, data} {
		run := &Run{Pass: PassRound, Kind: kinds[k], N: CompareN, Round: r}
		for i, name := range steps {
			run.Steps = append(run.Steps, &Step{Name: name, Wall: walls[i], CPU: walls[i]})
		}
		res.Runs = append(res.Runs, run)
	}
}

func targets(res *Results) map[string]Target {
	out := map[string]Target{}
	for _, tg := range evaluate(res) {
		out[tg.Name] = tg
	}
	return out
}

const (
	tgRefresh      = "Refresh of 500 managed websites"
	tgAdopt        = "Adopting 500 websites (import blocks, by domain): plan + apply"
	tgAdoptThrottl = "Adopting 500 websites under the real 60 requests/minute throttle: throttle time of plan + apply"
	tgCreateTime   = "Create of 500 websites vs 500 time_static"
	tgUpdateTime   = "Update of 500 websites vs 500 time_static"
	tgDestroyTime  = "Destroy of 500 websites vs 500 time_static"
	tgCreateData   = "Create of 500 websites vs 500 terraform_data"
	tgThrottledErr = "Throttled pass (N=100): errors"
	tgThrottledT   = "Throttled pass (N=100): time vs the throttle's lower bound"
)

func TestEvaluate(t *testing.T) {
	t.Parallel()
	res := sampleResults()
	got := targets(res)
	for _, name := range []string{
		"API requests per create / update / delete", tgRefresh, "Refresh of 1 managed website among 5,000",
		tgAdopt, tgAdoptThrottl, tgCreateTime, tgUpdateTime, tgDestroyTime, tgCreateData, tgThrottledErr, tgThrottledT,
		"Whole benchmark (after building the bench)",
	} {
		if tg, ok := got[name]; !ok || !tg.Met {
			t.Errorf("target %q: %+v (present %t), want met", name, tg, ok)
		}
	}
	if len(got) != 12 {
		t.Errorf("%d targets, want 12: %v", len(got), got)
	}
	for name, want := range map[string]string{
		tgAdopt:        "12 requests: plan 6 + apply 6 (10 list pages, 2 other GET)",
		tgAdoptThrottl: "≈ 25 s (2.5 s waited at the 6 s window, × 10; 2 answers were 429; 14 requests",
		tgRefresh:      "6 requests (5 list pages, 1 single reads)",
		tgCreateTime:   "median of 1 rounds: 14.00 s vs 20.00 s, 0.70 ×",
		tgUpdateTime:   "0.62 ×",
		tgCreateData:   "1.40 ×",
	} {
		if !strings.Contains(got[name].Measured, want) {
			t.Errorf("target %q measured %q, want it to contain %q", name, got[name].Measured, want)
		}
	}

	res.Runs[2].Steps[0].Wall = 17                  // 1.7 times terraform_data, 0.85 times time_static
	res.Runs[2].Steps[1].Requests.Total = 7         // refresh
	res.Runs[4].Steps[2].Error = "terraform exited" // throttled update
	res.Runs[5].Steps[0].Requests.Total = 17        // adoption plan: 23 in all
	res.Runs[6].Steps[1].ThrottleWait = 3.1         // 31 s at the real window
	got = targets(res)
	for _, name := range []string{tgRefresh, tgAdopt, tgAdoptThrottl, tgCreateTime, tgCreateData, tgThrottledErr, tgThrottledT} {
		if got[name].Met {
			t.Errorf("target %q met: %s", name, got[name].Measured)
		}
	}
	if !got[tgUpdateTime].Met {
		t.Errorf("target %q missed: %s", tgUpdateTime, got[tgUpdateTime].Measured)
	}

	// A failed adoption step fails its target.
	res = sampleResults()
	res.Runs[5].Steps[1].Error = "summary"
	if tg := targets(res)[tgAdopt]; tg.Met || tg.Measured != "failed" {
		t.Errorf("adoption with a failed apply: %+v", tg)
	}
	// Without a time_static baseline there are no time_static targets.
	res.Runs = slices.DeleteFunc(res.Runs, func(r *Run) bool { return r.Kind == KindTime })
	if _, ok := targets(res)[tgCreateTime]; ok {
		t.Error("time_static target without a time_static run")
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	res := sampleResults()
	res.Targets = []Target{{Name: "missed", Goal: "g", Measured: "m"}, {Name: "met", Goal: "g", Measured: "m", Met: true}}
	md := Markdown(res)
	for _, want := range []string{
		"### Targets", "terraform-provider-time v0.14.2", "| missed | g | m | **no** |", "| met | g | m | yes |",
		"| 500 | create (apply) | 14.00 s | 20.00 s | 10.00 s | 0.70 | 1.40 | 500 |",
		"| 500 | update all (apply) | 25.00 s | 40.00 s | 20.00 s | 0.62 | 1.25 |",
		"One managed website among 5,000", "60 requests per 6 s", "| **total** | 35.0 s | | 1 | 0.5 s |",
		"### Adoption: N websites made through the API, then imported by domain",
		"| 500 | none | plan (imports) | 3.00 s | 6 | 5 | 0 | 0 | 1 | 0 / 0 / 0 | 0 | – | Plan: 500 to import, 0 to add, 0 to change, 0 to destroy. | ok |",
		"| 500 | 60 / 6 s | apply (imports) | 6.00 s | 8 | 5 | 0 | 0 | 1 | 0 / 0 / 0 | 2 | 2.5 s (≈ 25 s) |",
		"| 500 | 60 / 6 s | **plan + apply** | 9.00 s | 14 |",
		"### Where the provider's CPU time goes: create of 500 websites",
		"| Go runtime (GC, scheduler, allocation) | 2.00 s (50.0 %) | 1.00 s (25.0 %) | 2.10 s (52.5 %) |",
		"| 0.50 s | 12.5 % | 1.00 s | 25.0 % | `runtime.mallocgc` |",
		"`go tool pprof -top .bench/profiles/*.pprof`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "rounds (interleaved") {
		t.Error("a rounds table for a single round")
	}
}

func TestOtherRoutes(t *testing.T) {
	t.Parallel()
	q := Requests{Total: 8, List: 5, Show: 1, ByRoute: map[string]int{
		"GET /api/v1/websites": 5, "GET /api/v1/websites/{id}": 1, "GET /api/v1/account": 1, "DELETE /api/v1/websites/{id}": 1, "PUT /x": 0,
	}}
	if got := otherRoutes(q); got != ", 1 DELETE /api/v1/websites/{id}, 1 GET /api/v1/account" {
		t.Errorf("otherRoutes = %q", got)
	}
	if got := otherRoutes(Requests{Total: 3, List: 2}); got != ", 1 other" {
		t.Errorf("otherRoutes without routes = %q", got)
	}
	if got := otherRoutes(Requests{Total: 2, List: 2}); got != "" {
		t.Errorf("otherRoutes of list pages only = %q", got)
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{5: "5", 999: "999", 5000: "5,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRoundsMedian(t *testing.T) {
	t.Parallel()
	res := sampleResults()
	// Create vs time_static: 0.70 in round 1, then 1.00 and 0.60: median
	// 0.70. Create vs terraform_data: 1.40, 2.00, 1.20: median 1.40.
	addRound(res, 2, [3]float64{20, 25, 20}, [3]float64{20, 40, 25}, [3]float64{10, 20, 12})
	addRound(res, 3, [3]float64{12, 25, 20}, [3]float64{20, 40, 25}, [3]float64{10, 20, 12})
	if c := res.comparisons(StepCreate); len(c) != 3 || c[0].round != 1 || c[2].round != 3 || c[1].time == nil {
		t.Fatalf("comparisons: %+v", c)
	}
	got := targets(res)
	if tg := got[tgCreateTime]; !tg.Met || !strings.Contains(tg.Measured, "0.70 × (rounds: 0.70, 1.00, 0.60") {
		t.Errorf("%s: %+v; want the median 0.70", tgCreateTime, tg)
	}
	if tg := got[tgCreateData]; !tg.Met || !strings.Contains(tg.Measured, "1.40 × (rounds: 1.40, 2.00, 1.20") {
		t.Errorf("%s: %+v; want the median 1.40", tgCreateData, tg)
	}
	md := Markdown(res)
	for _, want := range []string{
		"### Create, update and destroy of 500: rounds",
		"| create | 2 | 20.00 s | 20.00 s | 10.00 s | 1.00 | 2.00 |",
		"| create | **median** | | | | **0.70** | **1.40** | |",
		"| destroy | 3 | 20.00 s | 25.00 s | 12.00 s | 0.80 | 1.67 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}

	// A failed round is left out of the median.
	res.Runs[len(res.Runs)-3].Steps[0].Error = "failed" // round 3's websites
	if tg := targets(res)[tgCreateTime]; !strings.Contains(tg.Measured, "median of 2 rounds") {
		t.Errorf("with a failed round: %s", tg.Measured)
	}
}

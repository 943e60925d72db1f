package bench

import (
	"bufio"
	"strings"
	"testing"
	"time"
)

func TestParseVmHWM(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status string
		want   int64
	}{
		{"Name:\tterraform-provi\nVmPeak:\t 1275640 kB\nVmHWM:\t   66212 kB\nVmRSS:\t   60000 kB\n", 66212},
		{"Name:\tx\n", 0},
		{"VmHWM:\n", 0},
	} {
		if got := parseVmHWM(bufio.NewScanner(strings.NewReader(tc.status))); got != tc.want {
			t.Errorf("parseVmHWM(%q) = %d, want %d", tc.status, got, tc.want)
		}
	}
}

func TestParseStatCPU(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stat string
		want float64
		ok   bool
	}{
		{"4242 (terraform-provi) S 4200 4242 4200 0 -1 4194560 2000 0 0 0 150 25 0 0 20 0 12 0 100 0 0", 1.75, true},
		{"4242 (odd ) name) R 1 2 3 4 5 6 7 8 9 10 300 100 0 0", 4, true},
		{"garbage", 0, false},
	} {
		got, ok := parseStatCPU(tc.stat)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseStatCPU(%q) = %v, %t; want %v, %t", tc.stat, got, ok, tc.want, tc.ok)
		}
	}
}

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
	} {
		got := Configuration(tc.kind, 500, tc.updated)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("Configuration(%s, updated %t) lacks %q:\n%s", tc.kind, tc.updated, w, got)
			}
		}
	}
	if c := cliConfig("/tmp/p"); !strings.Contains(c, `"registry.terraform.io/analytics-tf/analytics" = "/tmp/p"`) {
		t.Errorf("cliConfig: %s", c)
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

// sampleResults is a small, complete run.
func sampleResults() *Results {
	ok := func(name string, wall float64, r Requests) *Step {
		r.ByStatus = map[string]int{"200": r.Total - r.Throttled, "429": r.Throttled}
		return &Step{Name: name, Wall: wall, CPU: wall, Requests: r}
	}
	lower := func(s *Step) *Step {
		s.LowerBound = float64(s.Requests.Successful()) / 60 * 6
		return s
	}
	return &Results{
		Config:   RunConfig{Sizes: []int{500}, Parallelism: 10, RateLimit: 60, RateWindowSec: 6},
		Started:  time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Duration: 200,
		Runs: []*Run{
			{Pass: PassMain, Kind: KindData, N: 500, Steps: []*Step{
				ok(StepCreate, 10, Requests{}), ok(StepRefresh, 2, Requests{}), ok(StepUpdate, 20, Requests{}), ok(StepDestroy, 12, Requests{}),
			}},
			{Pass: PassMain, Kind: KindWebsite, N: 500, Steps: []*Step{
				ok(StepCreate, 14, Requests{Total: 500, Post: 500}),
				ok(StepRefresh, 5, Requests{Total: 7, List: 5, Show: 2}),
				ok(StepUpdate, 25, Requests{Total: 507, List: 5, Show: 2, Put: 500}),
				ok(StepDestroy, 20, Requests{Total: 514, List: 10, Show: 4, Delete: 500}),
			}},
			{Pass: PassAmong, Kind: KindWebsite, N: 1, Seeded: 4999, Steps: []*Step{
				ok(StepCreate, 1, Requests{Total: 1, Post: 1}), ok(StepRefresh, 1, Requests{Total: 1, Show: 1}),
			}},
			{Pass: PassThrottled, Kind: KindWebsite, N: 100, Steps: []*Step{
				lower(ok(StepCreate, 11, Requests{Total: 101, Post: 101, Throttled: 1})),
				lower(ok(StepRefresh, 1, Requests{Total: 3, List: 1, Show: 2})),
				lower(ok(StepUpdate, 11, Requests{Total: 103, List: 1, Show: 2, Put: 100})),
				lower(ok(StepDestroy, 12, Requests{Total: 103, List: 1, Show: 2, Delete: 100})),
			}},
		},
	}
}

func TestEvaluate(t *testing.T) {
	t.Parallel()
	res := sampleResults()
	got := map[string]bool{}
	for _, tg := range evaluate(res) {
		got[tg.Name] = tg.Met
	}
	want := map[string]bool{
		"API requests per create / update / delete":                  true,
		"Refresh of 500 managed websites":                            true,
		"Refresh of 1 managed website among 5,000":                   true,
		"Apply (create) of 500 websites vs 500 terraform_data":       true,
		"Throttled pass (N=100): errors":                             true,
		"Throttled pass (N=100): time vs the throttle's lower bound": true,
		"Whole benchmark (after building the bench)":                 true,
	}
	for name, met := range want {
		if m, ok := got[name]; !ok || m != met {
			t.Errorf("target %q: met %t (present %t), want %t", name, m, ok, met)
		}
	}

	res.Runs[1].Steps[0].Wall = 16 // 1.6 times terraform_data
	res.Runs[3].Steps[2].Error = "terraform exited with code 1"
	for _, tg := range evaluate(res) {
		switch tg.Name {
		case "Apply (create) of 500 websites vs 500 terraform_data", "Throttled pass (N=100): errors",
			"Throttled pass (N=100): time vs the throttle's lower bound":
			if tg.Met {
				t.Errorf("target %q met: %s", tg.Name, tg.Measured)
			}
		}
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	md := Markdown(sampleResults())
	for _, want := range []string{
		"### Targets", "| 500 | create (apply) | 14.00 s | 10.00 s | 1.40 | 500 |",
		"One managed website among 5,000", "60 requests per 6 s", "| **total** |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
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

func TestCreateRoundsMedian(t *testing.T) {
	t.Parallel()
	res := sampleResults()
	create := func(kind, pass string, wall float64) *Run {
		return &Run{Pass: pass, Kind: kind, N: CompareN, Steps: []*Step{{Name: StepCreate, Wall: wall, CPU: wall}}}
	}
	// Rounds 2 and 3: 2.0 and 1.2; with the main pass's 1.4 the median is 1.4.
	res.Runs = append(res.Runs,
		create(KindData, PassRound, 10), create(KindWebsite, PassRound, 20),
		create(KindData, PassRound, 10), create(KindWebsite, PassRound, 12))
	rounds := res.createRounds()
	if len(rounds) != 3 {
		t.Fatalf("%d rounds, want 3", len(rounds))
	}
	for _, tg := range evaluate(res) {
		if strings.HasPrefix(tg.Name, "Apply (create)") {
			if !tg.Met || !strings.Contains(tg.Measured, "1.40 ×") {
				t.Errorf("%s: met %t, %s; want the median 1.40", tg.Name, tg.Met, tg.Measured)
			}
		}
	}
	if md := Markdown(res); !strings.Contains(md, "| 2 | 20.00 s | 10.00 s | 2.00 |") {
		t.Errorf("Markdown lacks the rounds table:\n%s", md)
	}
}

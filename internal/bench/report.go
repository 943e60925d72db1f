package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Machine describes where the benchmark ran.
type Machine struct {
	CPU       string  `json:"cpu"`
	Cores     int     `json:"cores"`
	MemoryGiB float64 `json:"memory_gib"`
	OS        string  `json:"os"`
	Kernel    string  `json:"kernel,omitempty"`
	Go        string  `json:"go"`
	Terraform string  `json:"terraform"`
	Commit    string  `json:"commit,omitempty"`
	// Dirty reports uncommitted changes in the working tree.
	Dirty bool `json:"dirty,omitempty"`
	// LoadStart and LoadEnd are the 1, 5 and 15 minute load averages
	// when the measurements started and ended: other work on the machine
	// makes wall times noisy.
	LoadStart string `json:"load_average_start,omitempty"`
	LoadEnd   string `json:"load_average_end,omitempty"`
}

// loadAverage returns the first three fields of /proc/loadavg.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func machineInfo(ctx context.Context, root string) Machine {
	m := Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, Go: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		_ = f.Close()
	}
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(raw)) {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				if f := strings.Fields(rest); len(f) > 0 {
					kib, _ := strconv.ParseFloat(f[0], 64)
					m.MemoryGiB = float64(int(kib/(1<<20)*10+0.5)) / 10
				}
			}
		}
	}
	if raw, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(raw))
	}
	git := func(args ...string) string {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	m.Commit = git("rev-parse", "--short", "HEAD")
	m.Dirty = git("status", "--porcelain", "--untracked-files=no") != ""
	return m
}

// Target is one of the performance goals and how the run did.
type Target struct {
	Name     string `json:"name"`
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// MaxDuration is the budget of the whole `make bench`.
const MaxDuration = 20 * time.Minute

// CompareN is the size at which the kinds are compared, in Config.Rounds
// rounds, and at which the adoption and refresh targets apply.
const CompareN = 500

// The goals (issues 5 and 10).
const (
	RefreshMaxRequests   = 6
	AmongMaxRequests     = 2
	AdoptMaxRequests     = 12
	AdoptMaxThrottleWait = 30 * time.Second // at the real window
	TimeRatioMax         = 0.8
	DataRatioMax         = 1.5
	ThrottledRatioMax    = 1.2
)

// compared is one round of one step at CompareN: the step of each kind.
type compared struct {
	round            int
	site, time, data *Step
}

// ratio returns a.Wall / b.Wall when both steps passed.
func ratio(a, b *Step) (float64, bool) {
	if a == nil || b == nil || !a.OK() || !b.OK() || b.Wall <= 0 {
		return 0, false
	}
	return a.Wall / b.Wall, true
}

// cpuRatio returns a.CPU / b.CPU when both steps passed.
func cpuRatio(a, b *Step) (float64, bool) {
	if a == nil || b == nil || !a.OK() || !b.OK() || b.CPU <= 0 {
		return 0, false
	}
	return a.CPU / b.CPU, true
}

// comparisons returns the rounds of step at CompareN, by round.
func (res *Results) comparisons(step string) []compared {
	byRound := map[int]*compared{}
	for _, r := range res.Runs {
		if r == nil || r.N != CompareN || r.Round == 0 || (r.Pass != PassMain && r.Pass != PassRound) {
			continue
		}
		c := byRound[r.Round]
		if c == nil {
			c = &compared{round: r.Round}
			byRound[r.Round] = c
		}
		s := r.step(step)
		switch r.Kind {
		case KindWebsite:
			c.site = s
		case KindTime:
			c.time = s
		case KindData:
			c.data = s
		}
	}
	out := make([]compared, 0, len(byRound))
	for _, c := range byRound {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b compared) int { return a.round - b.round })
	return out
}

// ratioTarget compares websites with a baseline (base picks its step) over
// the rounds of step.
func (res *Results) ratioTarget(name, step string, limit float64, base func(compared) *Step) Target {
	t := Target{Name: name, Goal: fmt.Sprintf("≤ %.1f × (wall time, median of the rounds)", limit)}
	var ratios, cpus, sites, bases []float64
	for _, c := range res.comparisons(step) {
		r, ok := ratio(c.site, base(c))
		if !ok {
			continue
		}
		ratios = append(ratios, r)
		sites = append(sites, c.site.Wall)
		bases = append(bases, base(c).Wall)
		if cr, ok := cpuRatio(c.site, base(c)); ok {
			cpus = append(cpus, cr)
		}
	}
	if len(ratios) == 0 {
		t.Measured = "not measured (failed or skipped)"
		return t
	}
	t.Measured = fmt.Sprintf("median of %d rounds: %.2f s vs %.2f s, %.2f × (rounds: %s; CPU time: %.2f ×)",
		len(ratios), median(sites), median(bases), median(ratios), joinFloats(ratios), median(cpus))
	t.Met = median(ratios) <= limit
	return t
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *Run) step(name string) *Step {
	for _, s := range r.Steps {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func (res *Results) run(pass, kind string, n int) *Run {
	for _, r := range res.Runs {
		if r != nil && r.Pass == pass && r.Kind == kind && (n == 0 || r.N == n) {
			return r
		}
	}
	return nil
}

// refreshTarget is a refresh's requests against a limit.
func refreshTarget(name string, r *Run, limit int) Target {
	s := r.step(StepRefresh)
	t := Target{Name: name, Goal: fmt.Sprintf("≤ %d requests", limit)}
	if s != nil && s.OK() {
		q := s.Requests
		t.Measured = fmt.Sprintf("%d requests (%d list pages, %d single reads%s)", q.Total, q.List, q.Show, otherRoutes(q))
		t.Met = q.Total <= limit
	} else {
		t.Measured = "failed"
	}
	return t
}

// evaluate checks the run against the goals of issues 5 and 10.
func evaluate(res *Results) []Target {
	if res.Config.QueryOnly {
		return queryTargets(res)
	}
	if res.Config.ExportOnly {
		return exportTargets(res)
	}
	var out []Target

	// One request per create, update and delete, in the normal case (no
	// throttle: under one, refused requests are repeated, and counted).
	t := Target{Name: "API requests per create / update / delete", Goal: "1.0 / 1.0 / 1.0", Met: true}
	var parts []string
	for _, r := range res.Runs {
		if r == nil || r.Kind != KindWebsite || r.Pass != PassMain {
			continue
		}
		c, u, d := r.step(StepCreate), r.step(StepUpdate), r.step(StepDestroy)
		if c == nil || u == nil || d == nil || !c.OK() || !u.OK() || !d.OK() {
			t.Met = false
			parts = append(parts, fmt.Sprintf("N=%d (%s): failed", r.N, r.Pass))
			continue
		}
		n := float64(r.N)
		pc, pu, pd := float64(c.Requests.Post)/n, float64(u.Requests.Put)/n, float64(d.Requests.Delete)/n
		t.Met = t.Met && c.Requests.Post == r.N && u.Requests.Put == r.N && d.Requests.Delete == r.N
		parts = append(parts, fmt.Sprintf("N=%d: %.2f / %.2f / %.2f", r.N, pc, pu, pd))
	}
	t.Measured = strings.Join(parts, "; ")
	out = append(out, t)

	if r := res.run(PassMain, KindWebsite, CompareN); r != nil {
		out = append(out, refreshTarget(fmt.Sprintf("Refresh of %d managed websites", CompareN), r, RefreshMaxRequests))
	}
	if r := res.run(PassAmong, KindWebsite, 0); r != nil {
		out = append(out, refreshTarget(fmt.Sprintf("Refresh of 1 managed website among %s", thousands(r.Seeded+r.N)), r, AmongMaxRequests))
	}

	if r := res.run(PassAdopt, KindWebsite, CompareN); r != nil {
		t := Target{Name: fmt.Sprintf("Adopting %d websites (import blocks, by domain): plan + apply", CompareN),
			Goal: fmt.Sprintf("≤ %d API requests", AdoptMaxRequests)}
		req, _, _, ok := adoptTotals(r)
		if ok {
			plan, apply := r.step(StepImportPlan).Requests.Total, r.step(StepImportApply).Requests.Total
			t.Measured = fmt.Sprintf("%d requests: plan %d + apply %d (%s)", req.Total, plan, apply, requestMix(req))
			t.Met = req.Total <= AdoptMaxRequests
		} else {
			t.Measured = "failed"
		}
		out = append(out, t)
	}
	if r := res.run(PassAdoptThrottled, KindWebsite, CompareN); r != nil {
		window := res.Config.RateWindowSec
		t := Target{Name: fmt.Sprintf("Adopting %d websites under the real %d requests/minute throttle: throttle time of plan + apply",
			CompareN, res.Config.RateLimit), Goal: fmt.Sprintf("< %.0f s", AdoptMaxThrottleWait.Seconds())}
		req, wall, wait, ok := adoptTotals(r)
		if ok {
			atReal := toRealWindow(wait, window)
			t.Measured = fmt.Sprintf("≈ %.0f s (%.1f s waited at the %g s window, × %g; %d answers were 429; %d requests; wall %.1f s at the %g s window)",
				atReal, wait, window, toRealWindow(1, window), req.Throttled, req.Total, wall, window)
			t.Met = atReal < AdoptMaxThrottleWait.Seconds()
		} else {
			t.Measured = "failed"
		}
		out = append(out, t)
	}

	out = append(out, queryTargets(res)...)
	out = append(out, exportTargets(res)...)
	if t, ok := destroyPlanTarget(res); ok {
		out = append(out, t)
	}
	out = append(out, statisticsTargets(res)...)

	if res.run(PassMain, KindTime, CompareN) != nil {
		for _, step := range []string{StepCreate, StepUpdate, StepDestroy} {
			out = append(out, res.ratioTarget(fmt.Sprintf("%s of %d websites vs %d time_static", capitalize(stepVerb(step)), CompareN, CompareN),
				step, TimeRatioMax, func(c compared) *Step { return c.time }))
		}
	}
	if res.run(PassMain, KindWebsite, CompareN) != nil && res.run(PassMain, KindData, CompareN) != nil {
		out = append(out, res.ratioTarget(fmt.Sprintf("Create of %d websites vs %d terraform_data", CompareN, CompareN),
			StepCreate, DataRatioMax, func(c compared) *Step { return c.data }))
	}

	if r := res.run(PassThrottled, KindWebsite, 0); r != nil {
		wall, bound, _, throttled, errs := throttledTotals(r)
		t := Target{Name: fmt.Sprintf("Throttled pass (N=%d): errors", r.N), Goal: "0"}
		t.Measured = fmt.Sprintf("%d failed steps (%d answers were 429)", errs, throttled)
		t.Met = errs == 0
		out = append(out, t)
		t = Target{Name: fmt.Sprintf("Throttled pass (N=%d): time vs the throttle's lower bound", r.N), Goal: fmt.Sprintf("≤ %.1f ×", ThrottledRatioMax)}
		if errs == 0 && bound > 0 {
			t.Measured = fmt.Sprintf("%.1f s vs %.1f s = %.2f ×", wall, bound, wall/bound)
			t.Met = wall <= ThrottledRatioMax*bound
		} else {
			t.Measured = "not measurable: steps failed"
		}
		out = append(out, t)
	}

	out = append(out, Target{
		Name: "Whole benchmark (after building the bench)", Goal: fmt.Sprintf("< %.0f min on 2 cores", MaxDuration.Minutes()),
		Measured: (time.Duration(res.Duration) * time.Second).String(),
		Met:      res.Duration < MaxDuration.Seconds(),
	})
	return out
}

// otherRoutes lists the requests that are neither list pages nor single
// reads, by route: ", 1 GET /api/v1/account".
func otherRoutes(q Requests) string {
	var routes []string
	for route := range q.ByRoute {
		if route != "GET /api/v1/websites" && route != "GET /api/v1/websites/{id}" && q.ByRoute[route] > 0 {
			routes = append(routes, route)
		}
	}
	slices.Sort(routes)
	var out string
	for _, r := range routes {
		out += fmt.Sprintf(", %d %s", q.ByRoute[r], r)
	}
	if out == "" && q.Total > q.List+q.Search+q.Show {
		out = fmt.Sprintf(", %d other", q.Total-q.List-q.Search-q.Show)
	}
	return out
}

// requestMix lists the kinds of requests that were sent.
func requestMix(q Requests) string {
	var parts []string
	for _, p := range []struct {
		name string
		n    int
	}{
		{"list pages", q.List}, {"searches by domain", q.Search}, {"single reads", q.Show}, {"other GET", q.OtherGet},
		{"POST", q.Post}, {"PUT", q.Put}, {"DELETE", q.Delete},
	} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func joinFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(s, ", ")
}

func throttledTotals(r *Run) (wall, bound, wait float64, throttled, failedSteps int) {
	for _, s := range r.Steps {
		wall += s.Wall
		bound += s.LowerBound
		wait += s.ThrottleWait
		throttled += s.Requests.Throttled
		if !s.OK() {
			failedSteps++
		}
	}
	return wall, bound, wait, throttled, failedSteps
}

// Markdown renders the results as the tables of BENCHMARKS.md.
func Markdown(res *Results) string {
	var b strings.Builder
	m := res.Machine
	commit := m.Commit
	if commit == "" {
		commit = "unknown"
	}
	if m.Dirty {
		commit += " with uncommitted changes"
	}
	timeVersion := ""
	if v := res.Config.TimeProviderVersion; v != "" {
		timeVersion = ", terraform-provider-time " + v
	}
	if v := res.Config.QueryTerraformVersion; v != "" {
		timeVersion += ", Terraform " + v + " for the query pass"
	}
	fmt.Fprintf(&b, "Measured %s on %s (%d cores, %.1f GiB RAM, %s, Linux %s); Go %s, Terraform %s%s; commit %s. "+
		"The run took %s. Load average (1, 5, 15 min) at the start: %s; at the end: %s.\n\n",
		res.Started.Format("2006-01-02 15:04 MST"), orUnknown(m.CPU), m.Cores, m.MemoryGiB, m.OS, orUnknown(m.Kernel),
		strings.TrimPrefix(m.Go, "go"), m.Terraform, timeVersion, commit, (time.Duration(res.Duration) * time.Second).String(),
		orUnknown(m.LoadStart), orUnknown(m.LoadEnd))

	fmt.Fprintf(&b, "### Targets\n\n| target | goal | measured | met |\n|---|---|---|---|\n")
	for _, t := range res.Targets {
		met := "yes"
		if !t.Met {
			met = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.Name, t.Goal, t.Measured, met)
	}

	writeMainTable(&b, res)
	writeRounds(&b, res)
	writeAmong(&b, res)
	writeThrottled(&b, res)
	writeAdoption(&b, res)
	writeQuery(&b, res)
	writeDestroyPlan(&b, res)
	writeStatistics(&b, res)
	writeExport(&b, res)
	writeProfile(&b, res.Profile)

	var failures []string
	for _, r := range res.Runs {
		if r == nil {
			continue
		}
		for _, s := range r.Steps {
			if s.Error != "" {
				failures = append(failures, fmt.Sprintf("- %s pass, %s N=%d, %s: %s", r.Pass, r.Kind, r.N, s.Name, s.Error))
			}
		}
	}
	if len(failures) > 0 {
		fmt.Fprintf(&b, "\n### Failures\n\n%s\n", strings.Join(failures, "\n"))
	}
	return b.String()
}

// ratioCell is a / b, or "–".
func ratioCell(a, b *Step) string {
	if r, ok := ratio(a, b); ok {
		return fmt.Sprintf("%.2f", r)
	}
	return "–"
}

// stepCell is a step's wall time, or "–" when the kind was not measured.
func stepCell(s *Step) string {
	if s == nil {
		return "–"
	}
	return wallCell(s)
}

func cpuCell(s *Step, withProvider bool) string {
	switch {
	case s == nil:
		return "–"
	case withProvider:
		return fmt.Sprintf("%.1f s (%.1f s)", s.CPU, s.ProviderCPU)
	}
	return fmt.Sprintf("%.1f s", s.CPU)
}

func rssCell(s *Step, provider bool) string {
	switch {
	case s == nil:
		return "–"
	case provider:
		return mib(s.ProviderPeakRSS)
	}
	return mib(s.TerraformPeakRSS)
}

func writeMainTable(b *strings.Builder, res *Results) {
	if res.Config.QueryOnly || res.Config.ExportOnly {
		return
	}
	fmt.Fprintf(b, "\n### N websites vs N `time_static` vs N `terraform_data` (emulator latency 0, no throttle, `-parallelism=%d`)\n\n", res.Config.Parallelism)
	b.WriteString("`time_static` (hashicorp/time) is a stock framework provider in its own plugin process that does no I/O; " +
		"`terraform_data` is built into Terraform (no plugin). An update of `time_static` changes a `triggers` value, which " +
		"replaces it (it has nothing that changes in place); the websites and `terraform_data` are updated in place.\n\n")
	b.WriteString("| N | step | `analytics_website` | `time_static` | `terraform_data` | ÷ `time_static` | ÷ `terraform_data` | API requests | GET list | GET one | POST | PUT | DELETE | CPU (of it provider): websites / `time_static` / data | provider peak RSS (websites / `time_static`) | Terraform peak RSS (websites / `time_static` / data) |\n")
	b.WriteString("|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, n := range res.Config.Sizes {
		site, tm, data := res.run(PassMain, KindWebsite, n), res.run(PassMain, KindTime, n), res.run(PassMain, KindData, n)
		if site == nil {
			continue
		}
		for _, name := range allSteps {
			s := site.step(name)
			if s == nil {
				continue
			}
			var t, d *Step
			if tm != nil {
				t = tm.step(name)
			}
			if data != nil {
				d = data.step(name)
			}
			r := s.Requests
			fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %s / %s / %s | %s / %s | %s / %s / %s |\n",
				n, stepLabel(name), wallCell(s), stepCell(t), stepCell(d), ratioCell(s, t), ratioCell(s, d),
				r.Total, r.List, r.Show, r.Post, r.Put, r.Delete,
				cpuCell(s, true), cpuCell(t, true), cpuCell(d, false), rssCell(s, true), rssCell(t, true),
				rssCell(s, false), rssCell(t, false), rssCell(d, false))
		}
	}
}

func writeRounds(b *strings.Builder, res *Results) {
	steps := []string{StepCreate, StepUpdate, StepDestroy}
	if len(res.comparisons(StepCreate)) < 2 {
		return
	}
	fmt.Fprintf(b, "\n### Create, update and destroy of %d: rounds (interleaved step by step; round 1 is the table's)\n\n", CompareN)
	b.WriteString("Each round runs every step on the three kinds in turn, starting with a different kind each round.\n\n")
	b.WriteString("| step | round | `analytics_website` | `time_static` | `terraform_data` | ÷ `time_static` | ÷ `terraform_data` | CPU (of it provider): websites / `time_static` / data |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, step := range steps {
		var toTime, toData []float64
		for _, c := range res.comparisons(step) {
			if c.site == nil {
				continue
			}
			if r, ok := ratio(c.site, c.time); ok {
				toTime = append(toTime, r)
			}
			if r, ok := ratio(c.site, c.data); ok {
				toData = append(toData, r)
			}
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s / %s / %s |\n", stepVerb(step), c.round,
				wallCell(c.site), stepCell(c.time), stepCell(c.data), ratioCell(c.site, c.time), ratioCell(c.site, c.data),
				cpuCell(c.site, true), cpuCell(c.time, true), cpuCell(c.data, false))
		}
		fmt.Fprintf(b, "| %s | **median** | | | | **%s** | **%s** | |\n", stepVerb(step), medianCell(toTime), medianCell(toData))
	}
}

func medianCell(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", median(xs))
}

func writeAmong(b *strings.Builder, res *Results) {
	r := res.run(PassAmong, KindWebsite, 0)
	if r == nil {
		return
	}
	fmt.Fprintf(b, "\n### One managed website among %s on the server\n\n", thousands(r.Seeded+r.N))
	b.WriteString("| step | wall | API requests | GET list | GET one | POST | PUT | DELETE | provider peak RSS |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range r.Steps {
		q := s.Requests
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %d | %d | %s |\n",
			stepLabel(s.Name), wallCell(s), q.Total, q.List, q.Show, q.Post, q.Put, q.Delete, mib(s.ProviderPeakRSS))
	}
}

func writeThrottled(b *strings.Builder, res *Results) {
	r := res.run(PassThrottled, KindWebsite, 0)
	if r == nil {
		return
	}
	limit, window := res.Config.RateLimit, res.Config.RateWindowSec
	scale := toRealWindow(1, window)
	fmt.Fprintf(b, "\n### Under the throttle: %d websites, %d requests per %g s\n\n", r.N, limit, window)
	fmt.Fprintf(b, "The real API allows 60 requests per minute; the emulator's window is shortened to %g s, so "+
		"this pass runs %g times faster than against a real installation (multiply its times by %g). The lower bound "+
		"is the successful requests ÷ %d × %g s: no client can be faster on average (the first window's burst "+
		"aside). The throttle wait is the time from each first 429 answer to the next request the throttle let "+
		"through.\n\n", window, scale, scale, limit, window)
	b.WriteString("| step | wall | API requests (2xx) | 429 answers | throttle wait | lower bound | wall ÷ bound | result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|---|\n")
	for _, s := range r.Steps {
		ratio := "–"
		if s.LowerBound > 0 && s.OK() {
			ratio = fmt.Sprintf("%.2f", s.Wall/s.LowerBound)
		}
		fmt.Fprintf(b, "| %s | %s | %d | %d | %.1f s | %.1f s | %s | %s |\n",
			stepLabel(s.Name), wallCell(s), s.Requests.Successful(), s.Requests.Throttled, s.ThrottleWait, s.LowerBound, ratio, result(s))
	}
	wall, bound, wait, throttled, errs := throttledTotals(r)
	ratio := "–"
	if bound > 0 && errs == 0 {
		ratio = fmt.Sprintf("%.2f", wall/bound)
	}
	fmt.Fprintf(b, "| **total** | %.1f s | | %d | %.1f s | %.1f s | %s | %d failed |\n", wall, throttled, wait, bound, ratio, errs)
}

func writeAdoption(b *strings.Builder, res *Results) {
	var runs []*Run
	for _, r := range res.Runs {
		if r != nil && (r.Pass == PassAdopt || r.Pass == PassAdoptThrottled) {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return
	}
	window := res.Config.RateWindowSec
	b.WriteString("\n### Adoption: N websites made through the API, then imported by domain\n\n")
	fmt.Fprintf(b, "The websites are created with `POST /websites` before Terraform runs; the configuration imports them with "+
		"an `import` block with `for_each` (`id` = the domain) and a matching `analytics_website` with `for_each`. The plan "+
		"must show N imports and nothing else, the apply must import them without a write request, and a refresh "+
		"afterwards must find no change. Under the throttle (%d requests per %g s), the throttle wait is the time from "+
		"each first 429 answer to the next request let through; × %g gives the real 60 s window.\n\n",
		res.Config.RateLimit, window, toRealWindow(1, window))
	b.WriteString("| N | throttle | step | wall | API requests | GET list | GET search | GET one | GET other | POST / PUT / DELETE | 429 | throttle wait (≈ at 60 s) | Terraform says | result |\n")
	b.WriteString("|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|\n")
	for _, r := range runs {
		throttle := "none"
		if r.Pass == PassAdoptThrottled {
			throttle = fmt.Sprintf("%d / %g s", res.Config.RateLimit, window)
		}
		row := func(label, wall string, q Requests, wait float64, summary, result string) {
			waitCell := "–"
			if r.Pass == PassAdoptThrottled {
				waitCell = fmt.Sprintf("%.1f s (≈ %.0f s)", wait, toRealWindow(wait, window))
			}
			fmt.Fprintf(b, "| %d | %s | %s | %s | %d | %d | %d | %d | %d | %d / %d / %d | %d | %s | %s | %s |\n",
				r.N, throttle, label, wall, q.Total, q.List, q.Search, q.Show, q.OtherGet, q.Post, q.Put, q.Delete,
				q.Throttled, waitCell, summary, result)
		}
		for _, s := range r.Steps {
			row(stepLabel(s.Name), wallCell(s), s.Requests, s.ThrottleWait, s.Summary, result(s))
		}
		if q, wall, wait, ok := adoptTotals(r); ok {
			row("**plan + apply**", fmt.Sprintf("%.2f s", wall), q, wait, "", "ok")
		}
	}
}

func writeProfile(b *strings.Builder, p *Profile) {
	if p == nil {
		return
	}
	fmt.Fprintf(b, "\n### Where the provider's CPU time goes: create of %d websites\n\n", p.N)
	fmt.Fprintf(b, "CPU profiles (`%s`) of the %d provider processes of one create of %d websites "+
		"(a run of its own, %.2f s wall, not one of the compared rounds): %.2f s of CPU time sampled in %d profiles",
		cpuProfileDirEnv, p.Processes, p.N, p.Wall, p.Samples, p.Files)
	if p.Unreadable > 0 {
		fmt.Fprintf(b, " (%d more were not flushed)", p.Unreadable)
	}
	b.WriteString(".")
	if p.Dir != "" {
		fmt.Fprintf(b, " The profiles are kept in `%s` (`go tool pprof -top %s/*.pprof`).", p.Dir, p.Dir)
	}
	b.WriteString("\n\nBy component, three ways: *own* counts each sample for the code of its innermost function; " +
		"*charged to* counts it for the innermost function outside the standard library and the Go runtime, i.e. the code " +
		"that made the runtime allocate, collect garbage or do I/O (samples with no such function, such as the garbage " +
		"collector's own workers, stay with the runtime); *on the stack* counts it for every component anywhere on its " +
		"stack, so that column adds up to more than the total.\n\n")
	b.WriteString("| component | own | charged to | on the stack |\n|---|--:|--:|--:|\n")
	for _, c := range p.Components {
		fmt.Fprintf(b, "| %s | %.2f s (%s) | %.2f s (%s) | %.2f s (%s) |\n", c.Name, c.Self, percent(c.Self, p.Samples),
			c.Attributed, percent(c.Attributed, p.Samples), c.Stack, percent(c.Stack, p.Samples))
	}
	writeTop(b, fmt.Sprintf("Top %d functions by own time (`go tool pprof -top`):", len(p.Top)), p.Top, p.Samples)
	writeTop(b, fmt.Sprintf("Top %d functions by own time with the Go runtime hidden (`go tool pprof -top -hide='%s'`: "+
		"what the runtime did, allocation and garbage collection assists included, is charged to its caller; the "+
		"collector's background work is not shown):", len(p.TopOutsideRuntime), hideRuntime), p.TopOutsideRuntime, p.Samples)
}

func writeTop(b *strings.Builder, title string, funcs []ProfileFunc, total float64) {
	if len(funcs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n\n| flat | flat %% | cum | cum %% | function |\n|--:|--:|--:|--:|---|\n", title)
	for _, f := range funcs {
		fmt.Fprintf(b, "| %.2f s | %s | %.2f s | %s | `%s` |\n", f.Flat, percent(f.Flat, total), f.Cum, percent(f.Cum, total), f.Name)
	}
}

func percent(x, total float64) string {
	if total <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*x/total)
}

// stepVerb is a step's name in a sentence.
func stepVerb(name string) string {
	switch name {
	case StepCreate:
		return "create"
	case StepUpdate:
		return "update"
	case StepDestroy:
		return "destroy"
	}
	return name
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func stepLabel(name string) string {
	switch name {
	case StepCreate:
		return "create (apply)"
	case StepRefresh:
		return "refresh (plan, no changes)"
	case StepUpdate:
		return "update all (apply)"
	case StepDestroy:
		return "destroy"
	case StepImportPlan:
		return "plan (imports)"
	case StepImportApply:
		return "apply (imports)"
	case StepDestroyPlan:
		return "plan -destroy"
	}
	return name
}

func wallCell(s *Step) string {
	switch {
	case s.Skipped:
		return "skipped"
	case s.Error != "":
		return fmt.Sprintf("%.2f s (failed)", s.Wall)
	}
	return fmt.Sprintf("%.2f s", s.Wall)
}

func result(s *Step) string {
	switch {
	case s.Skipped:
		return "skipped"
	case s.Error != "":
		return "**failed**"
	}
	return "ok"
}

func mib(kib int64) string {
	if kib <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f MiB", float64(kib)/1024)
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// Markers of the generated part of BENCHMARKS.md.
const (
	BeginMarker = "<!-- bench:begin -->"
	EndMarker   = "<!-- bench:end -->"
)

// ReplaceBetweenMarkers returns doc with the text between BeginMarker and
// EndMarker replaced by body.
func ReplaceBetweenMarkers(doc []byte, body string) ([]byte, error) {
	i := bytes.Index(doc, []byte(BeginMarker))
	j := bytes.Index(doc, []byte(EndMarker))
	if i < 0 || j < i {
		return nil, errors.New("the document has no " + BeginMarker + " ... " + EndMarker + " section")
	}
	var out bytes.Buffer
	out.Write(doc[:i+len(BeginMarker)])
	out.WriteString("\n")
	out.WriteString(strings.TrimSpace(body))
	out.WriteString("\n")
	out.Write(doc[j:])
	return out.Bytes(), nil
}

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
const MaxDuration = 15 * time.Minute

// CompareN is the size at which create is compared with terraform_data, in
// Config.Rounds rounds.
const CompareN = 500

// createRound is one comparison of create at CompareN.
type createRound struct {
	site, data *Step
}

func (c createRound) ratio() float64    { return c.site.Wall / c.data.Wall }
func (c createRound) cpuRatio() float64 { return c.site.CPU / c.data.CPU }

// createRounds returns the successful create comparisons at CompareN, the
// main pass's first.
func (res *Results) createRounds() []createRound {
	var out []createRound
	var data *Step
	for _, r := range res.Runs {
		if r == nil || r.N != CompareN || (r.Pass != PassMain && r.Pass != PassRound) {
			continue
		}
		s := r.step(StepCreate)
		switch {
		case s == nil || !s.OK():
			data = nil
		case r.Kind == KindData:
			data = s
		case data != nil && data.Wall > 0 && data.CPU > 0:
			out = append(out, createRound{site: s, data: data})
			data = nil
		}
	}
	return out
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

// evaluate checks the run against the goals of issue 5.
func evaluate(res *Results) []Target {
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
		s := r.step(StepRefresh)
		t := Target{Name: "Refresh of 500 managed websites", Goal: "≤ 10 requests"}
		if s != nil && s.OK() {
			t.Measured = fmt.Sprintf("%d requests (%d list pages, %d single reads)", s.Requests.Total, s.Requests.List, s.Requests.Show)
			t.Met = s.Requests.Total <= 10
		} else {
			t.Measured = "failed"
		}
		out = append(out, t)
	}

	if r := res.run(PassAmong, KindWebsite, 0); r != nil {
		s := r.step(StepRefresh)
		t := Target{Name: fmt.Sprintf("Refresh of 1 managed website among %s", thousands(r.Seeded+r.N)), Goal: "≤ 2 requests"}
		if s != nil && s.OK() {
			t.Measured = fmt.Sprintf("%d requests (%d list pages, %d single reads)", s.Requests.Total, s.Requests.List, s.Requests.Show)
			t.Met = s.Requests.Total <= 2
		} else {
			t.Measured = "failed"
		}
		out = append(out, t)
	}

	if res.run(PassMain, KindWebsite, CompareN) != nil {
		t := Target{Name: fmt.Sprintf("Apply (create) of %d websites vs %d terraform_data", CompareN, CompareN), Goal: "≤ 1.5 × (wall time)"}
		rounds := res.createRounds()
		if len(rounds) > 0 {
			var ratios, cpu, sites, datas []float64
			for _, r := range rounds {
				ratios = append(ratios, r.ratio())
				cpu = append(cpu, r.cpuRatio())
				sites = append(sites, r.site.Wall)
				datas = append(datas, r.data.Wall)
			}
			t.Measured = fmt.Sprintf("median of %d rounds: %.2f s vs %.2f s, %.2f × (rounds: %s; CPU time: %.2f ×)",
				len(rounds), median(sites), median(datas), median(ratios), joinFloats(ratios), median(cpu))
			t.Met = median(ratios) <= 1.5
		} else {
			t.Measured = "failed"
		}
		out = append(out, t)
	}

	if r := res.run(PassThrottled, KindWebsite, 0); r != nil {
		wall, bound, throttled, errs := throttledTotals(r)
		t := Target{Name: fmt.Sprintf("Throttled pass (N=%d): errors", r.N), Goal: "0"}
		t.Measured = fmt.Sprintf("%d failed steps (%d answers were 429)", errs, throttled)
		t.Met = errs == 0
		out = append(out, t)
		t = Target{Name: fmt.Sprintf("Throttled pass (N=%d): time vs the throttle's lower bound", r.N), Goal: "≤ 1.2 ×"}
		if errs == 0 && bound > 0 {
			t.Measured = fmt.Sprintf("%.1f s vs %.1f s = %.2f ×", wall, bound, wall/bound)
			t.Met = wall <= 1.2*bound
		} else {
			t.Measured = "not measurable: steps failed"
		}
		out = append(out, t)
	}

	out = append(out, Target{
		Name: "Whole benchmark (after building the bench)", Goal: "< 15 min on 2 cores",
		Measured: (time.Duration(res.Duration) * time.Second).String(),
		Met:      res.Duration < MaxDuration.Seconds(),
	})
	return out
}

func joinFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(s, ", ")
}

func throttledTotals(r *Run) (wall, bound float64, throttled, failedSteps int) {
	for _, s := range r.Steps {
		wall += s.Wall
		bound += s.LowerBound
		throttled += s.Requests.Throttled
		if !s.OK() {
			failedSteps++
		}
	}
	return wall, bound, throttled, failedSteps
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
	fmt.Fprintf(&b, "Measured %s on %s (%d cores, %.1f GiB RAM, %s, Linux %s); Go %s, Terraform %s; commit %s. "+
		"The run took %s. Load average (1, 5, 15 min) at the start: %s; at the end: %s.\n\n",
		res.Started.Format("2006-01-02 15:04 MST"), orUnknown(m.CPU), m.Cores, m.MemoryGiB, m.OS, orUnknown(m.Kernel),
		strings.TrimPrefix(m.Go, "go"), m.Terraform, commit, (time.Duration(res.Duration) * time.Second).String(),
		orUnknown(m.LoadStart), orUnknown(m.LoadEnd))

	fmt.Fprintf(&b, "### Targets\n\n| target | goal | measured | met |\n|---|---|---|---|\n")
	for _, t := range res.Targets {
		met := "yes"
		if !t.Met {
			met = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.Name, t.Goal, t.Measured, met)
	}

	fmt.Fprintf(&b, "\n### N websites vs N `terraform_data` (emulator latency 0, no throttle, `-parallelism=%d`)\n\n", res.Config.Parallelism)
	b.WriteString("| N | step | `analytics_website` | `terraform_data` | ratio | API requests | GET list | GET one | POST | PUT | DELETE | mutations per website | CPU websites (of it provider) / data | provider peak RSS | Terraform peak RSS (websites / data) |\n")
	b.WriteString("|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, n := range res.Config.Sizes {
		site, data := res.run(PassMain, KindWebsite, n), res.run(PassMain, KindData, n)
		if site == nil || data == nil {
			continue
		}
		for _, name := range []string{StepCreate, StepRefresh, StepUpdate, StepDestroy} {
			s, d := site.step(name), data.step(name)
			if s == nil || d == nil {
				continue
			}
			ratio := "–"
			if s.OK() && d.OK() && d.Wall > 0 {
				ratio = fmt.Sprintf("%.2f", s.Wall/d.Wall)
			}
			r := s.Requests
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %s | %.1f s (%.1f s) / %.1f s | %s | %s / %s |\n",
				n, stepLabel(name), wallCell(s), wallCell(d), ratio, r.Total, r.List, r.Show, r.Post, r.Put, r.Delete,
				perWebsite(s, n), s.CPU, s.ProviderCPU, d.CPU, mib(s.ProviderPeakRSS), mib(s.TerraformPeakRSS), mib(d.TerraformPeakRSS))
		}
	}

	if rounds := res.createRounds(); len(rounds) > 1 {
		fmt.Fprintf(&b, "\n### Create of %d: rounds (interleaved, the first is the table's)\n\n", CompareN)
		b.WriteString("| round | `analytics_website` | `terraform_data` | ratio | CPU websites (of it provider) / data | CPU ratio |\n")
		b.WriteString("|--:|--:|--:|--:|--:|--:|\n")
		for i, r := range rounds {
			fmt.Fprintf(&b, "| %d | %.2f s | %.2f s | %.2f | %.1f s (%.1f s) / %.1f s | %.2f |\n",
				i+1, r.site.Wall, r.data.Wall, r.ratio(), r.site.CPU, r.site.ProviderCPU, r.data.CPU, r.cpuRatio())
		}
	}

	if r := res.run(PassAmong, KindWebsite, 0); r != nil {
		fmt.Fprintf(&b, "\n### One managed website among %s on the server\n\n", thousands(r.Seeded+r.N))
		b.WriteString("| step | wall | API requests | GET list | GET one | POST | PUT | DELETE | provider peak RSS |\n")
		b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, s := range r.Steps {
			q := s.Requests
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %s |\n",
				stepLabel(s.Name), wallCell(s), q.Total, q.List, q.Show, q.Post, q.Put, q.Delete, mib(s.ProviderPeakRSS))
		}
	}

	if r := res.run(PassThrottled, KindWebsite, 0); r != nil {
		limit, window := res.Config.RateLimit, res.Config.RateWindowSec
		scale := 60 / window
		fmt.Fprintf(&b, "\n### Under the throttle: %d websites, %d requests per %g s\n\n", r.N, limit, window)
		fmt.Fprintf(&b, "The real API allows 60 requests per minute; the emulator's window is shortened to %g s, so "+
			"this pass runs %g times faster than against a real installation (multiply its times by %g). The lower bound "+
			"is the successful requests ÷ %d × %g s: no client can be faster on average (the first window's burst "+
			"aside).\n\n", window, scale, scale, limit, window)
		b.WriteString("| step | wall | API requests (2xx) | 429 answers | lower bound | wall ÷ bound | result |\n")
		b.WriteString("|---|--:|--:|--:|--:|--:|---|\n")
		for _, s := range r.Steps {
			ratio := "–"
			if s.LowerBound > 0 && s.OK() {
				ratio = fmt.Sprintf("%.2f", s.Wall/s.LowerBound)
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f s | %s | %s |\n",
				stepLabel(s.Name), wallCell(s), s.Requests.Successful(), s.Requests.Throttled, s.LowerBound, ratio, result(s))
		}
		wall, bound, throttled, errs := throttledTotals(r)
		ratio := "–"
		if bound > 0 && errs == 0 {
			ratio = fmt.Sprintf("%.2f", wall/bound)
		}
		fmt.Fprintf(&b, "| **total** | %.1f s | | %d | %.1f s | %s | %d failed |\n", wall, throttled, bound, ratio, errs)
	}

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

// perWebsite is the step's own mutations per website: POST for create,
// PUT for update, DELETE for destroy.
func perWebsite(s *Step, n int) string {
	var k int
	switch s.Name {
	case StepCreate:
		k = s.Requests.Post
	case StepUpdate:
		k = s.Requests.Put
	case StepDestroy:
		k = s.Requests.Delete
	default:
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(k)/float64(n))
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

package bench

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/tools/bench/internal/cpuprofile"
)

//go:embed markdown.tmpl
var markdownTemplate string

// sections are the sections of markdown.tmpl.
var sections = template.Must(template.New("").Funcs(template.FuncMap{
	"add": func(a, b int) int { return a + b }, "sub": func(a int, b ...int) int {
		for _, x := range b {
			a -= x
		}
		return a
	},
	"thousands": thousands, "label": stepLabel, "statisticsLabel": statisticsLabel, "wall": wallCell, "mib": mib,
	"result": result, "toRealWindow": toRealWindow, "stats": func(q Requests) int { return q.ByRoute[statisticsRoute] },
	"statisticsRoute": func() string { return statisticsRoute }, "maxStatisticsRequests": func() int { return maxStatisticsRequests },
	"exportAction": func() string { return exportAction }, "queryGenerated": func() string { return queryGenerated },
	"throttledTotals": throttledTotals, "div": func(a, b float64) float64 { return a / b },
	"append": func(steps []*Step, s *Step) []*Step {
		if s == nil {
			return steps
		}
		return append(slices.Clone(steps), s)
	},
	// totals is the row of the totals of steps, named name (nil unless
	// each ran and passed).
	"totals": func(r *Run, name string, steps ...string) *Step {
		q, wall, wait, ok := totals(r, steps...)
		if !ok {
			return nil
		}
		return &Step{Name: name, Requests: q, Wall: wall, ThrottleWait: wait}
	},
}).Parse(markdownTemplate))

// writeSection writes the section name of markdown.tmpl of the runs of
// passes (Run is the first), if there are any.
func writeSection(b *strings.Builder, name string, res *Results, passes ...string) {
	var runs []*Run
	for _, r := range res.Runs {
		if r != nil && slices.Contains(passes, r.Pass) {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return
	}
	if err := sections.ExecuteTemplate(b, name, struct {
		*Results
		Run  *Run
		Runs []*Run
	}{res, runs[0], runs}); err != nil {
		panic(err) // a defect of markdown.tmpl
	}
}

func writeAmong(b *strings.Builder, res *Results) { writeSection(b, "among", res, PassAmong) }
func writeDestroyPlan(b *strings.Builder, res *Results) {
	writeSection(b, "destroy-plan", res, PassDestroyPlan)
}
func writeStatistics(b *strings.Builder, res *Results) {
	writeSection(b, "statistics", res, PassStatistics)
}
func writeExport(b *strings.Builder, res *Results) { writeSection(b, "export", res, PassExport) }
func writeQuery(b *strings.Builder, res *Results)  { writeSection(b, "query", res, PassQuery) }
func writeThrottled(b *strings.Builder, res *Results) {
	writeSection(b, "throttled", res, PassThrottled)
}
func writeAdoption(b *strings.Builder, res *Results) {
	writeSection(b, "adoption", res, PassAdopt, PassAdoptThrottled)
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
				n, stepLabel(name), wallCell(s), wallCell(t), wallCell(d), ratioCell(s, t), ratioCell(s, d),
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
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s / %s / %s |\n", step, c.round,
				wallCell(c.site), wallCell(c.time), wallCell(c.data), ratioCell(c.site, c.time), ratioCell(c.site, c.data),
				cpuCell(c.site, true), cpuCell(c.time, true), cpuCell(c.data, false))
		}
		fmt.Fprintf(b, "| %s | **median** | | | | **%s** | **%s** | |\n", step, medianCell(toTime), medianCell(toData))
	}
}

func writeProfile(b *strings.Builder, p *Profile) {
	if p == nil {
		return
	}
	fmt.Fprintf(b, "\n### Where the provider's CPU time goes: create of %d websites\n\n", p.N)
	fmt.Fprintf(b, "CPU profiles (`%s`) of the %d provider processes of one create of %d websites "+
		"(a run of its own, %.2f s wall, not one of the compared rounds): %.2f s of CPU time sampled in %d profiles",
		cpuprofile.DirEnv, p.Processes, p.N, p.Wall, p.Samples, p.Files)
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

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
	"run": func(res *Results, pass, kind string, n int) *Run { return res.run(pass, kind, n) },
	"step": func(r *Run, name string) *Step {
		if r == nil {
			return nil
		}
		return r.step(name)
	},
	"trimGo":   func(v string) string { return strings.TrimPrefix(v, "go") },
	"allSteps": func() []string { return allSteps }, "ratio": ratioCell, "cpu": cpuCell, "rss": rssCell,
	"duration":        func(seconds float64) string { return (time.Duration(seconds) * time.Second).String() },
	"throttledTotals": throttledTotals, "percent": percent, "hideRuntime": func() string { return hideRuntime },
	"dirEnv": func() string { return cpuprofile.DirEnv }, "div": func(a, b float64) float64 { return a / b },
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
	execute(b, name, struct {
		*Results
		Run  *Run
		Runs []*Run
	}{res, runs[0], runs})
}

func execute(b *strings.Builder, name string, data any) {
	if err := sections.ExecuteTemplate(b, name, data); err != nil {
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
func writeProfile(b *strings.Builder, p *Profile) {
	if p != nil {
		execute(b, "profile", p)
	}
}

func writeAdoption(b *strings.Builder, res *Results) {
	writeSection(b, "adoption", res, PassAdopt, PassAdoptThrottled)
}

// Markdown renders the results as the tables of BENCHMARKS.md.
func Markdown(res *Results) string {
	var b strings.Builder
	execute(&b, "head", res)
	execute(&b, "main", res)
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

// The cells and labels of the Markdown tables.

package bench

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ratioCell is a / b, or "–".
func ratioCell(a, b *Step) string {
	if r, ok := ratio(a, b); ok {
		return fmt.Sprintf("%.2f", r)
	}
	return "–"
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

func medianCell(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", median(xs))
}

// wallCell is a step's wall time, or "–" when the kind was not measured.
func wallCell(s *Step) string {
	switch {
	case s == nil:
		return "–"
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

func percent(x, total float64) string {
	if total <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*x/total)
}

func thousands(n int) string { return message.NewPrinter(language.English).Sprint(n) }

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
	case StepQuery:
		return "query (-generate-config-out)"
	case StepExport:
		return "export into a folder (apply -invoke)"
	case StepExportBucket:
		return "export into a bucket (S3-compatible store on loopback)"
	case StepExportThrottled:
		return "export under the throttle"
	}
	return name
}

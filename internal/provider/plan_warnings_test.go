package provider

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
)

// The warnings of a plan, as the tests that drive the CLI themselves read
// them: from `plan -json` (the human output merges warnings that share a
// summary). Shared by the statistics tests on the in-process emulator
// (statistics_test.go) and those that also run on an installation
// (statistics_acc_test.go).

// Summaries of the warnings a plan that destroys or replaces a website
// gives (diagnostics_statistics.go).
const (
	lossDestroy = "Destroying the Website Deletes Its Statistics"
	lossReplace = "Replacing the Website Deletes Its Statistics"
	notChecked  = "Statistics Not Checked"
	budgetSpent = "Statistics of Some Websites Not Checked"
	keptSummary = "Website Will Be Kept on the Server"
)

// planDiag is a diagnostic of `plan -json`.
type planDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Address  string `json:"address"`
}

// planDiags runs `plan -json args...`, wants exit code 0 and returns its
// diagnostics but the CLI's own about dev_overrides.
func (w *cliWorkdir) planDiags(args ...string) []planDiag {
	w.t.Helper()
	out := w.mustRun(0, append([]string{"plan", "-json"}, args...)...)
	var diags []planDiag
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string    `json:"type"`
			Diagnostic *planDiag `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "diagnostic" && line.Diagnostic != nil &&
			!strings.HasPrefix(line.Diagnostic.Summary, "Provider development overrides") { // the tests' dev_overrides
			diags = append(diags, *line.Diagnostic)
		}
	}
	return diags
}

func withSummary(diags []planDiag, summary string) []planDiag {
	var out []planDiag
	for _, d := range diags {
		if d.Summary == summary {
			out = append(out, d)
		}
	}
	return out
}

func websiteBlock(name, domain, extra string) string {
	return fmt.Sprintf("resource \"analytics_website\" %q {\n  domain = %q\n%s}\n", name, domain, extra)
}

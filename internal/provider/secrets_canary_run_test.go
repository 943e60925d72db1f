package provider

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/hostiletest"
)

// How TestAccSecrets_canaries runs a step and where it looks for the
// canaries.

// canaryRun is one canary test's working directory and what it found.
type canaryRun struct {
	t        *testing.T
	w        *acctest.Workdir
	hostile  *hostiletest.Server
	c        canaries
	traceLog string
	importID string // an import block's ID, which the CLI itself repeats
	leaks    []hostiletest.Leak
	steps    []string // a line per step: its name, exit code and answers served
}

// expect is what a step of the canary test must do besides not leaking.
type expect int

const (
	succeeds expect = iota // it gets no hostile answer and exits 0
	answered               // every answer scheduled is served; any exit code
	anyExit                // it may fail before any request; any exit code
)

// step runs the CLI with args against the schedule rules, then looks for
// the canaries in everything it left.
func (r *canaryRun) step(name string, want expect, rules []hostiletest.Rule, args ...string) {
	r.t.Helper()
	_ = os.Remove(r.traceLog)
	r.hostile.Set(rules...)
	before := len(r.hostile.Served())
	stdout, stderr, code := r.w.RunSplit(args...)
	var answers []string
	for _, s := range r.hostile.Served()[before:] {
		answers = append(answers, s.Method+" "+s.Route+": "+string(s.Answer))
	}
	r.steps = append(r.steps, fmt.Sprintf("%s: exit %d; hostile answers: %v; errors: %v", name, code, answers,
		errorSummaries(hostiletest.Mask(stderr, r.c.all()))))
	if want == succeeds && code != 0 {
		r.t.Fatalf("%s: exit code %d without hostile answers:\n%s%s", name, code,
			hostiletest.Mask(stdout, r.c.all()), hostiletest.Mask(stderr, r.c.all()))
	}
	if unspent := r.hostile.Unspent(); want == answered && len(unspent) > 0 {
		r.t.Errorf("%s: scheduled answers never served (the schedule misses the requests it was written for): %v", name, unspent)
	}
	if r.importID != "" {
		// The CLI's own line about an import block, which repeats the ID
		// as the configuration gave it (even from a sensitive variable).
		stdout = strings.ReplaceAll(stdout, "Preparing import... [id="+r.importID+"]", "Preparing import... [id=<the import ID>]")
	}
	r.find(name+": standard output", stdout)
	r.find(name+": standard error", stderr)
	trace, err := os.ReadFile(r.traceLog)
	if err != nil {
		r.t.Fatalf("%s: the trace log: %v", name, err)
	}
	if !strings.Contains(string(trace), providerLogger) {
		r.t.Errorf("%s: the trace log holds no line of the provider (%s)", name, providerLogger)
	}
	r.findTrace(name+": trace log", string(trace))
	r.checkState(name)
}

func (r *canaryRun) find(channel, text string) {
	r.leaks = append(r.leaks, hostiletest.Find(channel, text, r.c.all())...)
}

// findTrace looks for the canaries in the trace log, a line at a time, so
// that a report names the line's source.
func (r *canaryRun) findTrace(channel, text string) {
	for _, line := range strings.Split(text, "\n") {
		for _, l := range hostiletest.Find(channel, line, r.c.all()) {
			if !r.seen(l) {
				r.leaks = append(r.leaks, l)
			}
		}
	}
}

// seen reports whether the canary already leaked on the channel.
func (r *canaryRun) seen(l hostiletest.Leak) bool {
	for _, o := range r.leaks {
		if o.Canary == l.Canary && o.Channel == l.Channel {
			return true
		}
	}
	return false
}

// checkState looks for the canaries in the state file, but in the website's
// password attribute, and in the provider's private state it carries.
func (r *canaryRun) checkState(name string) {
	raw, err := os.ReadFile(filepath.Join(r.w.Dir(), "terraform.tfstate"))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		r.t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(raw, &state); err != nil {
		r.t.Fatalf("%s: the state: %v", name, err)
	}
	resources, _ := state["resources"].([]any)
	for _, res := range resources {
		res, _ := res.(map[string]any)
		instances, _ := res["instances"].([]any)
		for _, inst := range instances {
			inst, _ := inst.(map[string]any)
			if attrs, ok := inst["attributes"].(map[string]any); ok && res["type"] == "analytics_website" {
				delete(attrs, "password")
			}
			if p, ok := inst["private"].(string); ok {
				if dec, err := base64.StdEncoding.DecodeString(p); err == nil {
					r.find(name+": state (private)", string(dec))
				}
			}
		}
	}
	rest, _ := json.Marshal(state)
	r.find(name+": state", string(rest))
}

// show runs terraform show -json and looks for the canaries in it, but in
// its configuration section and the website's password attribute.
func (r *canaryRun) show(name string) {
	r.t.Helper()
	stdout, stderr, code := r.w.RunSplit("show", "-json")
	if code != 0 {
		r.t.Fatalf("%s: terraform show -json: exit code %d\n%s", name, code, hostiletest.Mask(stderr, r.c.all()))
	}
	r.find(name+": terraform show -json's standard error", stderr)
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		r.t.Fatalf("%s: terraform show -json: %v", name, err)
	}
	if values, _ := doc["values"].(map[string]any); values == nil {
		r.t.Fatalf("%s: terraform show -json shows no state: %s", name, hostiletest.Mask(stdout, r.c.all()))
	}
	delete(doc, "configuration")
	dropPasswords(doc)
	rest, _ := json.Marshal(doc)
	r.find(name+": terraform show -json", string(rest))
}

// dropPasswords removes the password of every analytics_website in a
// document of terraform show -json.
func dropPasswords(v any) {
	switch x := v.(type) {
	case map[string]any:
		if x["type"] == "analytics_website" {
			if values, ok := x["values"].(map[string]any); ok {
				delete(values, "password")
			}
		}
		for _, e := range x {
			dropPasswords(e)
		}
	case []any:
		for _, e := range x {
			dropPasswords(e)
		}
	}
}

// providerLogger names the provider's lines in the CLI's log.
const providerLogger = "provider.terraform-provider-analytics"

// report logs the steps run and fails the test for each leak found.
func (r *canaryRun) report() {
	for _, s := range r.steps {
		r.t.Log(s)
	}
	for _, l := range r.leaks {
		r.t.Error(l)
	}
}

// errorSummaries are the summaries of the CLI's error diagnostics in
// stderr, each once, with how many times it came when more than once.
func errorSummaries(stderr string) []string {
	var out []string
	count := map[string]int{}
	for _, line := range strings.Split(stderr, "\n") {
		if summary, ok := strings.CutPrefix(strings.TrimSpace(line), "Error: "); ok {
			if count[summary]++; count[summary] == 1 {
				out = append(out, summary)
			}
		}
	}
	for i, s := range out {
		if n := count[s]; n > 1 {
			out[i] = fmt.Sprintf("%s (%d times)", s, n)
		}
	}
	return out
}

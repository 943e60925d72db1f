package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// workspace is one Terraform working directory.
type workspace struct {
	b    *bench
	kind string
	dir  string
	env  []string
	api  *apiServer // nil for time_static and terraform_data
	// exe is the provider binary whose processes are watched (empty for
	// terraform_data).
	exe string
	// config writes main.tf (Configuration by default).
	config func(n int, updated bool) string
	// tf is the CLI of this workspace; empty means the bench's.
	tf string
}

// newWorkspace makes a working directory for resources of kind; only
// websites talk to api.
func (b *bench) newWorkspace(name, kind string, api *apiServer) (*workspace, error) {
	if kind != KindWebsite {
		api = nil
	}
	dir := filepath.Join(b.tmp, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + b.cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "TF_") && !strings.HasPrefix(k, "ANALYTICS_") &&
			k != "CHECKPOINT_DISABLE" {
			env = append(env, kv)
		}
	}
	if api != nil {
		env = append(env, "ANALYTICS_BASE_URL="+api.url, "ANALYTICS_API_KEY="+emulator.DefaultAPIKey)
	}
	w := &workspace{b: b, kind: kind, dir: dir, env: env, api: api}
	switch kind {
	case KindWebsite:
		w.exe = b.provider
	case KindTime:
		w.exe = b.timeProvider
	}
	w.config = func(n int, updated bool) string { return Configuration(kind, n, updated) }
	return w, nil
}

// analyticsProvider opens every configuration of the provider: its source
// and a provider block that the environment fills in.
const analyticsProvider = `terraform {
  required_providers {
    analytics = {
      source = "analytics-tf/analytics"
    }
  }
}

provider "analytics" {}
`

// Configuration writes main.tf: n resources of kind, in their first or
// updated (changed) form. An update changes the input of terraform_data
// (in place), email_reports of analytics_website (in place, one PUT each)
// and a triggers value of time_static, which replaces it: time_static has
// no attribute that changes in place.
func Configuration(kind string, n int, updated bool) string {
	switch kind {
	case KindData:
		return fmt.Sprintf(`resource "terraform_data" "site" {
  count = %d
  input = {
    domain        = "site-${count.index}.bench-example.com"
    email_reports = %t
  }
}
`, n, updated)
	case KindTime:
		return fmt.Sprintf(`terraform {
  required_providers {
    time = {
      source = "hashicorp/time"
    }
  }
}

resource "time_static" "site" {
  count = %d
  triggers = {
    domain        = "site-${count.index}.bench-example.com"
    email_reports = "%t"
  }
}
`, n, updated)
	}
	return analyticsProvider + fmt.Sprintf(`
resource "analytics_website" "site" {
  count         = %d
  domain        = "site-${count.index}.bench-example.com"
  email_reports = %t
}
`, n, updated)
}

func (w *workspace) configure(n int, updated bool) error {
	return os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(w.config(n, updated)), 0o600)
}

// commandFor returns the Terraform arguments of a step.
func commandFor(step string, parallelism int) []string {
	common := []string{"-input=false", "-no-color", "-parallelism=" + strconv.Itoa(parallelism)}
	switch step {
	case StepRefresh, StepImportPlan:
		return append([]string{"plan", "-detailed-exitcode"}, common...)
	case StepDestroyPlan:
		return append([]string{"plan", "-destroy", "-detailed-exitcode"}, common...)
	case StepDestroy:
		return append([]string{"destroy", "-auto-approve"}, common...)
	case StepQuery: // no -input or -parallelism
		return []string{"query", "-no-color", "-generate-config-out=" + queryGenerated}
	case StepExport, StepExportThrottled:
		return append([]string{"apply", "-auto-approve", "-refresh=false", "-invoke=" + exportAction}, common...)
	case StepExportBucket:
		return append([]string{"apply", "-auto-approve", "-refresh=false", "-invoke=" + exportBucketAction}, common...)
	default:
		return append([]string{"apply", "-auto-approve"}, common...)
	}
}

// run runs one step's command and measures it. The caller checks the
// outcome.
func (w *workspace) run(ctx context.Context, step string) *Step {
	args := commandFor(step, w.b.cfg.Parallelism)
	s := &Step{Name: step, Command: append([]string{"terraform"}, args...)}
	w.b.steps++
	logPath := filepath.Join(w.b.tmp, fmt.Sprintf("%03d-%s-%s.log", w.b.steps, filepath.Base(w.dir), step))
	logFile, err := os.Create(logPath)
	if err != nil {
		s.Error = err.Error()
		return s
	}
	defer logFile.Close()

	if w.api != nil {
		w.api.resetStats()
	}
	ctx, cancel := context.WithTimeout(ctx, w.b.cfg.StepTimeout)
	defer cancel()
	tf := w.b.tf
	if w.tf != "" {
		tf = w.tf
	}
	cmd := exec.CommandContext(ctx, tf, append([]string{"-chdir=" + w.dir}, args...)...)
	cmd.Env = w.env
	var tail, outTail tailBuffer
	cmd.Stdout = io.MultiWriter(logFile, &outTail)
	cmd.Stderr = &tail
	killGroupOnCancel(cmd)

	var watch *procWatcher
	if w.exe != "" {
		watch = watchProcesses(w.exe, tf)
	}
	start := time.Now()
	err = cmd.Run()
	s.Wall = time.Since(start).Seconds()
	if watch != nil {
		s.ProviderPeakRSS, s.ProviderProcesses, s.ProviderCPU = watch.stop()
	}
	_, _ = logFile.Write(tail.Bytes())
	s.Summary = summaryLine(outTail.String())
	if cmd.ProcessState != nil {
		s.ExitCode = cmd.ProcessState.ExitCode()
		s.TerraformPeakRSS, s.CPU = processUsage(cmd.ProcessState)
	}
	if w.api != nil {
		s.Requests = w.api.requests()
		s.ThrottleWait = w.api.log.throttleWait(time.Now()).Seconds()
	}
	var exitErr *exec.ExitError
	switch {
	case (step == StepImportPlan || step == StepDestroyPlan) && s.ExitCode == 2:
		err = nil // changes: the imports or the destroys (checked by the caller)
	case step == StepImportPlan && err == nil:
		s.Error = "the adoption plan is empty (exit code 0): nothing to import; see " + logPath
	}
	switch {
	case s.Error != "":
	case err == nil:
	case errors.As(err, &exitErr) && step == StepRefresh && s.ExitCode == 2:
		s.Error = "the plan after apply was not empty (exit code 2); see " + logPath
	case errors.As(err, &exitErr):
		s.Error = fmt.Sprintf("terraform exited with code %d: %s (log: %s)", s.ExitCode, lastError(tail.String()), logPath)
	default:
		s.Error = fmt.Sprintf("running terraform: %v (log: %s)", err, logPath)
	}
	return s
}

// tailBuffer keeps the last 64 KiB written to it.
type tailBuffer struct{ bytes.Buffer }

func (t *tailBuffer) Write(p []byte) (int, error) {
	n, err := t.Buffer.Write(p)
	if over := t.Len() - 64<<10; over > 0 {
		t.Next(over)
	}
	return n, err
}

// lastError returns the first "Error:" paragraph of Terraform's stderr, or
// its last line.
func lastError(stderr string) string {
	if i := strings.Index(stderr, "Error: "); i >= 0 {
		msg := stderr[i:]
		if j := strings.Index(msg, "\n\n"); j >= 0 {
			msg = msg[:j]
		}
		return strings.Join(strings.Fields(msg), " ")
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// check records in s.Error what is wrong with the server after the step.
func (w *workspace) check(s *Step, n, seeded int) {
	if s.Error != "" || w.api == nil {
		return
	}
	want := seeded
	if s.Name != StepDestroy {
		want += n
	}
	if got := len(w.api.emu.Websites()); got != want {
		s.Error = fmt.Sprintf("the server holds %d websites after %s, want %d", got, s.Name, want)
	}
}

// cleanUp destroys what a failed run left, without a throttle.
func (w *workspace) cleanUp(ctx context.Context) {
	if w.api != nil {
		w.api.emu.SetRateLimit(0, 0)
	}
	s := w.run(ctx, StepDestroy)
	if s.Error != "" {
		logf(w.b.cfg.Log, "cleaning up %s: %s", w.dir, s.Error)
	}
}

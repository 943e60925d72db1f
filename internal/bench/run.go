package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// providerSource is the provider's registry address, overridden to the
// local build by the CLI configuration.
const providerSource = "registry.terraform.io/analytics-tf/analytics"

// bench is the state shared by the passes of one run.
type bench struct {
	cfg       Config
	tmp       string
	tf        string
	tfVersion string
	// provider is the path of the built provider binary.
	provider  string
	cliConfig string
	steps     int // commands run, for log file names
}

func newBench(ctx context.Context, cfg Config) (*bench, error) {
	tmp, err := os.MkdirTemp("", "analytics-bench-")
	if err != nil {
		return nil, err
	}
	b := &bench{cfg: cfg, tmp: tmp}
	if err := b.setUp(ctx); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

func (b *bench) setUp(ctx context.Context) error {
	b.tf = b.cfg.Terraform
	if b.tf == "" {
		b.tf = filepath.Join(b.cfg.Root, ".tools", "bin", "terraform")
		if _, err := os.Stat(b.tf); err != nil {
			logf(b.cfg.Log, "building Terraform with scripts/install-tools.sh (a few minutes, once)")
			cmd := exec.CommandContext(ctx, filepath.Join(b.cfg.Root, "scripts", "install-tools.sh"), "terraform")
			cmd.Dir, cmd.Stdout, cmd.Stderr = b.cfg.Root, b.cfg.Log, b.cfg.Log
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("building Terraform: %w", err)
			}
		}
	}
	out, err := exec.CommandContext(ctx, b.tf, "version", "-json").Output()
	if err != nil {
		return fmt.Errorf("%s version: %w", b.tf, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return fmt.Errorf("%s version -json: %w", b.tf, err)
	}
	b.tfVersion = v.Version

	logf(b.cfg.Log, "building the provider into %s", b.tmp)
	plugins := filepath.Join(b.tmp, "plugins")
	b.provider = filepath.Join(plugins, "terraform-provider-analytics")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-X main.version=0.0.0-bench", "-o", b.provider, ".")
	build.Dir, build.Stdout, build.Stderr = b.cfg.Root, b.cfg.Log, b.cfg.Log
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the provider: %w", err)
	}
	b.cliConfig = filepath.Join(b.tmp, "terraformrc")
	return os.WriteFile(b.cliConfig, []byte(cliConfig(plugins)), 0o600)
}

func (b *bench) close() {
	if b.cfg.Keep {
		logf(b.cfg.Log, "kept %s", b.tmp)
		return
	}
	_ = os.RemoveAll(b.tmp)
}

// cliConfig is a Terraform CLI configuration that runs the provider from
// dir without `terraform init`.
func cliConfig(dir string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    %q = %q
  }
  direct {}
}
`, providerSource, dir)
}

// apiServer is an emulator served on a local port.
type apiServer struct {
	emu *emulator.Emulator
	srv *http.Server
	url string
}

func startAPI(opts emulator.Options) (*apiServer, error) {
	emu, err := emulator.New(opts)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &apiServer{emu: emu, srv: srv, url: "http://" + ln.Addr().String()}, nil
}

func (s *apiServer) close() { _ = s.srv.Close() }

// seed stores n websites that Terraform does not manage.
func (s *apiServer) seed(n int) {
	for i := range n {
		s.emu.Seed(emulator.DefaultAPIKey, emulator.Website{
			Domain: fmt.Sprintf("seeded-%d.bench-example.com", i), Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1),
		})
	}
}

func ptr[T any](v T) *T { return &v }

// workspace is one Terraform working directory.
type workspace struct {
	b    *bench
	kind string
	dir  string
	env  []string
	api  *apiServer // nil for terraform_data
}

func (b *bench) newWorkspace(name, kind string, api *apiServer) (*workspace, error) {
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
	return &workspace{b: b, kind: kind, dir: dir, env: env, api: api}, nil
}

// Configuration writes main.tf: n resources of kind, in their first or
// updated (changed) form.
func Configuration(kind string, n int, updated bool) string {
	if kind == KindData {
		return fmt.Sprintf(`resource "terraform_data" "site" {
  count = %d
  input = {
    domain        = "site-${count.index}.bench-example.com"
    email_reports = %t
  }
}
`, n, updated)
	}
	return fmt.Sprintf(`terraform {
  required_providers {
    analytics = {
      source = "analytics-tf/analytics"
    }
  }
}

provider "analytics" {}

resource "analytics_website" "site" {
  count         = %d
  domain        = "site-${count.index}.bench-example.com"
  email_reports = %t
}
`, n, updated)
}

func (w *workspace) configure(n int, updated bool) error {
	return os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(Configuration(w.kind, n, updated)), 0o600)
}

// commandFor returns the Terraform arguments of a step.
func commandFor(step string, parallelism int) []string {
	common := []string{"-input=false", "-no-color", "-parallelism=" + strconv.Itoa(parallelism)}
	switch step {
	case StepRefresh:
		return append([]string{"plan", "-detailed-exitcode"}, common...)
	case StepDestroy:
		return append([]string{"destroy", "-auto-approve"}, common...)
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
		w.api.emu.ResetStats()
	}
	ctx, cancel := context.WithTimeout(ctx, w.b.cfg.StepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.b.tf, append([]string{"-chdir=" + w.dir}, args...)...)
	cmd.Env = w.env
	var tail tailBuffer
	cmd.Stdout = logFile
	cmd.Stderr = &tail
	killGroupOnCancel(cmd)

	watch := watchProcesses(w.b.provider, w.b.tf)
	start := time.Now()
	err = cmd.Run()
	s.Wall = time.Since(start).Seconds()
	s.ProviderPeakRSS, s.ProviderProcesses, s.ProviderCPU = watch.stop()
	_, _ = logFile.Write(tail.Bytes())
	if cmd.ProcessState != nil {
		s.ExitCode = cmd.ProcessState.ExitCode()
		s.TerraformPeakRSS, s.CPU = processUsage(cmd.ProcessState)
	}
	if w.api != nil {
		s.Requests = requestsFrom(w.api.emu.Stats())
	}
	var exitErr *exec.ExitError
	switch {
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

func requestsFrom(s emulator.Stats) Requests {
	return Requests{
		Total:     s.Total,
		List:      s.ByRoute["GET /api/v1/websites"],
		Show:      s.ByRoute["GET /api/v1/websites/{id}"],
		Post:      s.ByMethod["POST"],
		Put:       s.ByMethod["PUT"] + s.ByMethod["PATCH"],
		Delete:    s.ByMethod["DELETE"],
		Throttled: s.Throttled,
		ByStatus:  s.ByStatus,
	}
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

// allSteps is the lifecycle measured.
var allSteps = []string{StepCreate, StepRefresh, StepUpdate, StepDestroy}

// lifecycle runs the steps on the workspaces in turn, step by step, so that
// each step of every kind runs under the same conditions.
func (b *bench) lifecycle(ctx context.Context, n, seeded int, ws []*workspace, runs []*Run, steps []string) {
	for _, step := range steps {
		for i, w := range ws {
			run := runs[i]
			if failed(run) {
				run.Steps = append(run.Steps, &Step{Name: step, Skipped: true, Command: append([]string{"terraform"}, commandFor(step, b.cfg.Parallelism)...)})
				continue
			}
			if err := w.configure(n, step == StepUpdate || step == StepDestroy); err != nil {
				run.Steps = append(run.Steps, &Step{Name: step, Error: err.Error()})
				continue
			}
			s := w.run(ctx, step)
			w.check(s, n, seeded)
			if run.Pass == PassThrottled {
				s.LowerBound = float64(s.Requests.Successful()) / float64(b.cfg.RateLimit) * b.cfg.RateWindow.Seconds()
			}
			run.Steps = append(run.Steps, s)
			logStep(b.cfg.Log, run, s)
		}
	}
	for i, w := range ws {
		if failed(runs[i]) {
			w.cleanUp(ctx)
		}
	}
}

func failed(r *Run) bool {
	for _, s := range r.Steps {
		if !s.OK() {
			return true
		}
	}
	return false
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

func logStep(log io.Writer, run *Run, s *Step) {
	status := "ok"
	if s.Error != "" {
		status = "FAILED: " + s.Error
	}
	logf(log, "%-9s %-17s N=%-4d %-7s %7.2fs  requests %4d (list %d, one %d, POST %d, PUT %d, DELETE %d, 429 %d)  provider RSS %s  %s",
		run.Pass, run.Kind, run.N, s.Name, s.Wall, s.Requests.Total, s.Requests.List, s.Requests.Show,
		s.Requests.Post, s.Requests.Put, s.Requests.Delete, s.Requests.Throttled, mib(s.ProviderPeakRSS), status)
}

// warmUp runs a small create and destroy of both kinds, not measured, so
// that the first measured step does not pay for cold caches.
func (b *bench) warmUp(ctx context.Context) error {
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return err
	}
	defer api.close()
	for _, kind := range []string{KindData, KindWebsite} {
		var w *workspace
		if kind == KindWebsite {
			w, err = b.newWorkspace("warm-up-website", kind, api)
		} else {
			w, err = b.newWorkspace("warm-up-data", kind, nil)
		}
		if err != nil {
			return err
		}
		for _, step := range []string{StepCreate, StepDestroy} {
			if err := w.configure(10, false); err != nil {
				return err
			}
			if s := w.run(ctx, step); s.Error != "" {
				return errors.New(s.Error)
			}
		}
	}
	return nil
}

// mainPass measures n websites and n terraform_data resources.
func (b *bench) mainPass(ctx context.Context, n int) ([]*Run, error) {
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer api.close()
	data, err := b.newWorkspace(fmt.Sprintf("data-%d", n), KindData, nil)
	if err != nil {
		return nil, err
	}
	site, err := b.newWorkspace(fmt.Sprintf("website-%d", n), KindWebsite, api)
	if err != nil {
		return nil, err
	}
	runs := []*Run{{Pass: PassMain, Kind: KindData, N: n}, {Pass: PassMain, Kind: KindWebsite, N: n}}
	b.lifecycle(ctx, n, 0, []*workspace{data, site}, runs, allSteps)
	return runs, ctx.Err()
}

// round measures create (and destroy, to clean up) of n websites and n
// terraform_data resources once more.
func (b *bench) round(ctx context.Context, n, round int) ([]*Run, error) {
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer api.close()
	data, err := b.newWorkspace(fmt.Sprintf("data-%d-round-%d", n, round), KindData, nil)
	if err != nil {
		return nil, err
	}
	site, err := b.newWorkspace(fmt.Sprintf("website-%d-round-%d", n, round), KindWebsite, api)
	if err != nil {
		return nil, err
	}
	runs := []*Run{{Pass: PassRound, Kind: KindData, N: n}, {Pass: PassRound, Kind: KindWebsite, N: n}}
	b.lifecycle(ctx, n, 0, []*workspace{data, site}, runs, []string{StepCreate, StepDestroy})
	return runs, ctx.Err()
}

// amongPass measures one managed website among total on the server.
func (b *bench) amongPass(ctx context.Context, total int) (*Run, error) {
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer api.close()
	api.seed(total - 1)
	site, err := b.newWorkspace("among", KindWebsite, api)
	if err != nil {
		return nil, err
	}
	run := &Run{Pass: PassAmong, Kind: KindWebsite, N: 1, Seeded: total - 1}
	b.lifecycle(ctx, 1, total-1, []*workspace{site}, []*Run{run}, allSteps)
	return run, ctx.Err()
}

// throttledPass measures n websites under the emulator's throttle.
func (b *bench) throttledPass(ctx context.Context, n int) (*Run, error) {
	api, err := startAPI(emulator.Options{RateLimit: b.cfg.RateLimit, RateWindow: b.cfg.RateWindow})
	if err != nil {
		return nil, err
	}
	defer api.close()
	site, err := b.newWorkspace("throttled", KindWebsite, api)
	if err != nil {
		return nil, err
	}
	run := &Run{Pass: PassThrottled, Kind: KindWebsite, N: n}
	b.lifecycle(ctx, n, 0, []*workspace{site}, []*Run{run}, allSteps)
	return run, ctx.Err()
}

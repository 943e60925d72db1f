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
// local build by the CLI configuration; timeSource is hashicorp/time's,
// overridden to the build of scripts/install-tools.sh.
const (
	providerSource = "registry.terraform.io/analytics-tf/analytics"
	timeSource     = "registry.terraform.io/hashicorp/time"
)

// timeModule is the Go module of terraform-provider-time.
const timeModule = "github.com/hashicorp/terraform-provider-time"

// bench is the state shared by the passes of one run.
type bench struct {
	cfg       Config
	tmp       string
	tf        string
	tfVersion string
	// provider is the path of the built provider binary.
	provider string
	// timeProvider is the path of terraform-provider-time (with symbolic
	// links resolved, as /proc/<pid>/exe shows it; empty: no time_static
	// baseline), timeVersion its module version.
	timeProvider string
	timeVersion  string
	cliConfig    string
	steps        int // commands run, for log file names
	// tfQuery is the CLI of the query pass (empty: no query pass),
	// tfQueryVersion its version.
	tfQuery        string
	tfQueryVersion string
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
	timePlugins := ""
	if !b.cfg.NoTime && !b.cfg.QueryOnly && !b.cfg.ExportOnly {
		if timePlugins, err = b.setUpTime(ctx); err != nil {
			return err
		}
	}
	if len(b.cfg.QuerySizes) > 0 || b.cfg.ExportDays > 0 {
		if err := b.setUpQuery(ctx); err != nil {
			return err
		}
	}
	b.cliConfig = filepath.Join(b.tmp, "terraformrc")
	return os.WriteFile(b.cliConfig, []byte(cliConfig(plugins, timePlugins)), 0o600)
}

// setUpTime finds (or builds) terraform-provider-time and returns the
// directory that the CLI configuration's dev_overrides names for it.
func (b *bench) setUpTime(ctx context.Context) (string, error) {
	bin := b.cfg.TimeProvider
	if bin == "" {
		// Reuses the binary when it is the pinned version (no build).
		bin = filepath.Join(b.cfg.Root, ".tools", "bin", "terraform-provider-time")
		cmd := exec.CommandContext(ctx, filepath.Join(b.cfg.Root, "scripts", "install-tools.sh"), "terraform-provider-time")
		cmd.Dir, cmd.Stdout, cmd.Stderr = b.cfg.Root, b.cfg.Log, b.cfg.Log
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("building terraform-provider-time: %w", err)
		}
	}
	resolved, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "", fmt.Errorf("terraform-provider-time: %w", err)
	}
	if b.timeProvider, err = filepath.Abs(resolved); err != nil {
		return "", err
	}
	if out, err := exec.CommandContext(ctx, "go", "version", "-m", b.timeProvider).Output(); err == nil {
		b.timeVersion = moduleVersion(string(out), timeModule)
	}
	// Terraform looks for terraform-provider-time in the directory that
	// dev_overrides names: a directory of its own holds a link to it.
	dir := filepath.Join(b.tmp, "plugins-time")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, os.Symlink(b.timeProvider, filepath.Join(dir, "terraform-provider-time"))
}

// moduleVersion returns the version of module in `go version -m` output
// (the main module's "mod" line or a "dep" line), or "".
func moduleVersion(goVersionM, module string) string {
	for line := range strings.Lines(goVersionM) {
		f := strings.Fields(line)
		if len(f) >= 3 && (f[0] == "mod" || f[0] == "dep") && f[1] == module {
			return f[2]
		}
	}
	return ""
}

func (b *bench) close() {
	if b.cfg.Keep {
		logf(b.cfg.Log, "kept %s", b.tmp)
		return
	}
	_ = os.RemoveAll(b.tmp)
}

// cliConfig is a Terraform CLI configuration that runs the provider from
// dir, and hashicorp/time from timeDir (unless empty), without `terraform
// init` and without downloading anything.
func cliConfig(dir, timeDir string) string {
	overrides := fmt.Sprintf("    %q = %q\n", providerSource, dir)
	if timeDir != "" {
		overrides += fmt.Sprintf("    %q = %q\n", timeSource, timeDir)
	}
	return "provider_installation {\n  dev_overrides {\n" + overrides + "  }\n  direct {}\n}\n"
}

// apiServer is an emulator served on a local port.
type apiServer struct {
	emu *emulator.Emulator
	// log records every request's arrival and answer, for what the
	// emulator's counters do not tell (searches, the throttle's waits).
	log *requestLog
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
	log := &requestLog{}
	srv := &http.Server{Handler: log.wrap(emu), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &apiServer{emu: emu, log: log, srv: srv, url: "http://" + ln.Addr().String()}, nil
}

// resetStats sets the emulator's counters and the request log back to
// zero.
func (s *apiServer) resetStats() {
	s.emu.ResetStats()
	s.log.reset()
}

// requests returns the step's requests, from the emulator's counters and
// the request log.
func (s *apiServer) requests() Requests {
	r := requestsFrom(s.emu.Stats())
	r.Search = s.log.searches()
	r.List -= r.Search
	return r
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
	api  *apiServer // nil for time_static and terraform_data
	// exe is the provider binary whose processes are watched (empty for
	// terraform_data).
	exe string
	// config writes main.tf (Configuration by default).
	config func(n int, updated bool) string
	// tf is the CLI of this workspace; empty means the bench's.
	tf string
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
	start, self := time.Now(), selfCPU()
	err = cmd.Run()
	s.Wall = time.Since(start).Seconds()
	s.BenchCPU = selfCPU() - self
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

// requestsFrom reads the emulator's counters. GET /websites counts as List
// (the caller separates the searches).
func requestsFrom(s emulator.Stats) Requests {
	r := Requests{
		Total:     s.Total,
		List:      s.ByRoute["GET /api/v1/websites"],
		Show:      s.ByRoute["GET /api/v1/websites/{id}"],
		Post:      s.ByMethod["POST"],
		Put:       s.ByMethod["PUT"] + s.ByMethod["PATCH"],
		Delete:    s.ByMethod["DELETE"],
		Throttled: s.Throttled,
		ByStatus:  s.ByStatus,
		ByRoute:   s.ByRoute,
	}
	r.OtherGet = s.ByMethod["GET"] - r.List - r.Show
	return r
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
				run.Steps = append(run.Steps, skippedStep(step, b.cfg.Parallelism))
				continue
			}
			if err := w.configure(n, step == StepUpdate || step == StepDestroy); err != nil {
				run.Steps = append(run.Steps, &Step{Name: step, Error: err.Error()})
				continue
			}
			s := w.run(ctx, step)
			w.check(s, n, seeded)
			if run.Pass == PassThrottled {
				s.LowerBound = b.lowerBound(s)
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

// lowerBound is the shortest time in which the throttle lets the step's
// successful requests through, on average.
func (b *bench) lowerBound(s *Step) float64 {
	return float64(s.Requests.Successful()) / float64(b.cfg.RateLimit) * b.cfg.RateWindow.Seconds()
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
	q := s.Requests
	logf(log, "%-15s %-17s N=%-4d %-12s %7.2fs  requests %4d (list %d, search %d, one %d, other GET %d, POST %d, PUT %d, DELETE %d, 429 %d)  provider RSS %s  %s",
		run.Pass, run.Kind, run.N, s.Name, s.Wall, q.Total, q.List, q.Search, q.Show, q.OtherGet,
		q.Post, q.Put, q.Delete, q.Throttled, mib(s.ProviderPeakRSS), status)
}

// kinds returns the kinds of resources of the comparison: the baselines
// first.
func (b *bench) kinds() []string {
	if b.timeProvider == "" {
		return []string{KindData, KindWebsite}
	}
	return []string{KindData, KindTime, KindWebsite}
}

// warmUp runs a small create and destroy of every kind, not measured, so
// that the first measured step does not pay for cold caches.
func (b *bench) warmUp(ctx context.Context) error {
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return err
	}
	defer api.close()
	for _, kind := range b.kinds() {
		w, err := b.comparedWorkspace("warm-up-"+kind, kind, api)
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

// comparedWorkspace returns a workspace of the comparison; only websites
// talk to the API.
func (b *bench) comparedWorkspace(name, kind string, api *apiServer) (*workspace, error) {
	if kind != KindWebsite {
		api = nil
	}
	return b.newWorkspace(name, kind, api)
}

// compare runs steps on n resources of every kind, interleaved step by
// step; order rotates the kinds (round r starts with the r-th kind), so
// that no kind always runs first.
func (b *bench) compare(ctx context.Context, pass string, n, round int, steps []string) ([]*Run, error) {
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer api.close()
	kinds := b.kinds()
	if round > 1 {
		k := (round - 1) % len(kinds)
		kinds = append(kinds[k:], kinds[:k]...)
	}
	var ws []*workspace
	var runs []*Run
	for _, kind := range kinds {
		name := fmt.Sprintf("%s-%d", kind, n)
		if round > 1 {
			name += fmt.Sprintf("-round-%d", round)
		}
		w, err := b.comparedWorkspace(name, kind, api)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
		runs = append(runs, &Run{Pass: pass, Kind: kind, N: n, Round: round})
	}
	b.lifecycle(ctx, n, 0, ws, runs, steps)
	return runs, ctx.Err()
}

// mainPass measures n websites and n resources of each baseline.
func (b *bench) mainPass(ctx context.Context, n int) ([]*Run, error) {
	round := 0
	if n == CompareN {
		round = 1
	}
	return b.compare(ctx, PassMain, n, round, allSteps)
}

// round measures create, update and destroy of n websites and of n
// resources of each baseline once more.
func (b *bench) round(ctx context.Context, n, round int) ([]*Run, error) {
	return b.compare(ctx, PassRound, n, round, []string{StepCreate, StepUpdate, StepDestroy})
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

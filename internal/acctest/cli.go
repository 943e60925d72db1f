package acctest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Tests that need what terraform-plugin-testing cannot do (a state written
// by an older release, -generate-config-out, a plan's warnings, terraform
// query) drive the CLI themselves, in a Workdir, with the provider built
// from this tree and installed through dev_overrides.

var providerBuild struct {
	once sync.Once
	dir  string // holds cli.tfrc (and terraform-provider-analytics unless EnvProvider names one)
	err  error
}

// EnvProvider names a build of this tree's provider (its path) that
// BuiltProvider uses instead of building its own: make test builds the
// provider once for all its test binaries, on every CLI.
const EnvProvider = "ANALYTICS_TEST_PROVIDER"

// BuiltProvider builds the provider of this tree once per test binary (or
// takes EnvProvider's) and returns the CLI configuration file that installs
// it through dev_overrides. Main removes the build.
func BuiltProvider(t *testing.T) (cliConfig string) {
	t.Helper()
	providerBuild.once.Do(func() {
		// Shared by every test of the binary, so not one test's TempDir;
		// Main removes it.
		dir, err := os.MkdirTemp("", "analytics-provider-") //nolint:usetesting // see above
		if err != nil {
			providerBuild.err = err
			return
		}
		providerBuild.dir = dir
		binDir, err := providerBinary(t, dir)
		if err != nil {
			providerBuild.err = err
			return
		}
		var overrides strings.Builder
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			for _, ns := range []string{"analytics-tf", "hashicorp"} {
				fmt.Fprintf(&overrides, "    %q = %q\n", host+"/"+ns+"/analytics", binDir)
			}
		}
		providerBuild.err = os.WriteFile(filepath.Join(dir, "cli.tfrc"),
			[]byte("provider_installation {\n  dev_overrides {\n"+overrides.String()+"  }\n  direct {}\n}\n"), 0o600)
	})
	if providerBuild.err != nil {
		t.Fatal(providerBuild.err)
	}
	return filepath.Join(providerBuild.dir, "cli.tfrc")
}

// providerBinary returns the directory of the provider's binary: that of
// EnvProvider's, or dir, where it builds one.
func providerBinary(t *testing.T, dir string) (string, error) {
	t.Helper()
	if p := os.Getenv(EnvProvider); p != "" {
		if filepath.Base(p) != "terraform-provider-analytics" || !filepath.IsAbs(p) {
			return "", fmt.Errorf("%s=%s: want the absolute path of a terraform-provider-analytics", EnvProvider, p)
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s: %w", EnvProvider, err)
		}
		return filepath.Dir(p), nil
	}
	build := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(dir, "terraform-provider-analytics"),
		"github.com/analytics-tf/terraform-provider-analytics")
	build.Env = GoCommandEnv()
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	return dir, nil
}

// Main is the TestMain of a package whose tests use the harness: it clears
// the provider's settings from the environment (ClearProviderSettings), runs
// the tests, or with -sweep the sweepers instead, through
// terraform-plugin-testing's resource.TestMain, then removes the build of
// BuiltProvider and calls atExit (which stops what the tests started, such
// as a store).
func Main(m *testing.M, atExit ...func()) {
	resource.TestMain(runAndClean{m, atExit})
}

type runAndClean struct {
	m      *testing.M
	atExit []func()
}

func (r runAndClean) Run() int {
	ClearProviderSettings()
	lightChildren()
	code := r.m.Run()
	for _, f := range r.atExit {
		f()
	}
	if providerBuild.dir != "" {
		_ = os.RemoveAll(providerBuild.dir)
	}
	return code
}

// lightChildren makes the processes the tests start (the CLI, the provider
// built from this tree) cheaper to run, unless the caller set the variable:
//   - GOGC=off until the heap reaches childMemLimit (GOMEMLIMIT). A package's
//     tests start the CLI thousands of times, each run lives for a fraction
//     of a second, and with Go's default a third of its CPU time went to
//     collecting a heap that dies with it (measured on Terraform 1.8.5: a
//     plan's CLI peaks near 75 MB).
//   - GOMAXPROCS=1. Four tests at once already keep the cores busy; with a P
//     per core, each CLI's runtime spun looking for work between its gRPC
//     calls to the provider (measured: a seventh less CPU and wall time for
//     the same tests). The CLI still calls the provider concurrently: its
//     goroutines run in turn while each waits on the provider.
//
// The test binary keeps its own settings: Go reads them at start. The go
// command gets the caller's GOMAXPROCS back (GoCommandEnv), since it sizes
// its build parallelism from it.
func lightChildren() {
	for k, v := range childSettings {
		if _, set := os.LookupEnv(k); !set {
			_ = os.Setenv(k, v)
			childSet[k] = true
		}
	}
}

// childSettings are the variables lightChildren sets; childSet records
// which it set (the others came from the caller).
var (
	childSettings = map[string]string{"GOGC": "off", "GOMEMLIMIT": childMemLimit, "GOMAXPROCS": "1"}
	childSet      = map[string]bool{}
)

// GoCommandEnv is the environment for running the go command from a test:
// the process's, without the GOMAXPROCS that lightChildren set.
func GoCommandEnv() []string {
	if !childSet["GOMAXPROCS"] {
		return os.Environ()
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			env = append(env, kv)
		}
	}
	return env
}

// childMemLimit bounds the heap of each process the tests start: past it,
// Go collects as usual.
const childMemLimit = "1GiB"

// CLIEnviron is the environment of a CLI that a test runs with the
// provider built from this tree (cliConfig, from BuiltProvider): the
// process's, the CLI configuration, no checkpoint calls and, against the
// in-process emulators, no TLS between the CLI and the provider
// (TF_DISABLE_PLUGIN_TLS, which Terraform and OpenTofu read). The CLI
// starts the provider several times per command; with go-plugin's
// automatic mutual TLS each start made a P-521 key and certificate on
// both sides, which was about half of the CPU time of such a test's CLI
// runs. What the tests check goes over the protocol, which is the same
// with and without TLS. The TLS that users run stays checked where the
// CLI runs as for them: in the live mode (make test's testacc-live-local)
// and in internal/repotest's TestAccMakeInstall.
func CLIEnviron(cliConfig string) []string {
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	if !LiveMode() {
		env = append(env, "TF_DISABLE_PLUGIN_TLS=1")
	}
	return env
}

// Workdir is a working directory in which a test runs the CLI of
// TF_ACC_TERRAFORM_PATH with the provider of this tree.
type Workdir struct {
	CLI string // the CLI's path
	// Env is added to the CLI's environment (and so the provider's), e.g.
	// the credentials of an object store.
	Env       []string
	t         *testing.T
	dir       string
	cliConfig string
}

// NewWorkdir skips the test unless acceptance tests run.
func NewWorkdir(t *testing.T) *Workdir {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	startHarness(t)
	parallel(t)
	PreCheck(t)
	return &Workdir{t: t, CLI: os.Getenv("TF_ACC_TERRAFORM_PATH"), dir: t.TempDir(), cliConfig: BuiltProvider(t)}
}

// IsOpenTofu reports whether the CLI is OpenTofu (its default registry host
// differs, which matters in state files).
func (w *Workdir) IsOpenTofu() bool {
	w.t.Helper()
	requireCLIDependent(w.t, "a test that asks whether the CLI is OpenTofu")
	return versionOf(w.t, w.CLI).tofu
}

// RegistryHost is the host of provider addresses in this CLI's states.
func (w *Workdir) RegistryHost() string {
	if w.IsOpenTofu() {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

// SkipBelowQuery skips the test on CLIs without terraform query.
func (w *Workdir) SkipBelowQuery() {
	w.t.Helper()
	requireCLIDependent(w.t, "a test of terraform query")
	if !CLIHasQuery(w.t, w.CLI) {
		w.t.Skip("terraform query needs Terraform 1.14 or later")
	}
}

// Write writes the file name of the working directory.
func (w *Workdir) Write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// Read reads the file name of the working directory.
func (w *Workdir) Read(name string) string {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join(w.dir, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(data)
}

// Dir is the working directory's path.
func (w *Workdir) Dir() string { return w.dir }

// Run runs the CLI with args and returns its combined output and exit code.
func (w *Workdir) Run(args ...string) (string, int) {
	w.t.Helper()
	cmd := w.command(args)
	out, err := cmd.CombinedOutput()
	return string(out), w.exitCode(args, err)
}

// RunSplit is Run with the CLI's standard output and standard error apart.
func (w *Workdir) RunSplit(args ...string) (stdout, stderr string, code int) {
	w.t.Helper()
	cmd := w.command(args)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	return o.String(), e.String(), w.exitCode(args, err)
}

// command is the CLI run with args (and -no-color) in the working directory.
func (w *Workdir) command(args []string) *exec.Cmd {
	cmd := exec.CommandContext(w.t.Context(), w.CLI, append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)...)
	cmd.Dir = w.dir
	cmd.Env = append(CLIEnviron(w.cliConfig), w.Env...)
	return cmd
}

// exitCode is the exit code of a run that ended with err; it fails the test
// when the CLI could not run.
func (w *Workdir) exitCode(args []string, err error) int {
	w.t.Helper()
	code := 0
	if err != nil {
		exit, ok := err.(*exec.ExitError) //nolint:errorlint // only the direct error carries the exit code
		if !ok {
			w.t.Fatalf("%s %v: %v", filepath.Base(w.CLI), args, err)
		}
		code = exit.ExitCode()
	}
	return code
}

// Stdout runs the CLI and returns what it printed to standard output alone
// (stderr carries the CLI's warning about dev_overrides); it fails the test
// unless the CLI exits with 0.
func (w *Workdir) Stdout(args ...string) []byte {
	w.t.Helper()
	cmd := exec.CommandContext(w.t.Context(), w.CLI, args...)
	cmd.Dir = w.dir
	cmd.Env = append(CLIEnviron(w.cliConfig), w.Env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("%s %s: %v\n%s", filepath.Base(w.CLI), strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// MustRun runs the CLI and fails the test unless it exits with want.
func (w *Workdir) MustRun(want int, args ...string) string {
	w.t.Helper()
	out, code := w.Run(args...)
	if code != want {
		w.t.Fatalf("%s %s: exit code %d, want %d:\n%s", filepath.Base(w.CLI), strings.Join(args, " "), code, want, out)
	}
	return out
}

// PlanDiag is a diagnostic of `plan -json`.
type PlanDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Address  string `json:"address"`
}

// PlanDiags runs `plan -json args...`, wants exit code 0 and returns its
// diagnostics but the CLI's own about dev_overrides.
func (w *Workdir) PlanDiags(args ...string) []PlanDiag {
	w.t.Helper()
	out := w.MustRun(0, append([]string{"plan", "-json"}, args...)...)
	var diags []PlanDiag
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string    `json:"type"`
			Diagnostic *PlanDiag `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "diagnostic" && line.Diagnostic != nil &&
			!strings.HasPrefix(line.Diagnostic.Summary, "Provider development overrides") { // the tests' dev_overrides
			diags = append(diags, *line.Diagnostic)
		}
	}
	return diags
}

// cliVersions caches what each CLI binary's `version` says.
var cliVersions struct {
	sync.Mutex
	m map[string]cliVersion
}

type cliVersion struct {
	v    *version.Version
	tofu bool
}

// versionOf runs `cli version` once per binary and reads its version and
// whether it is OpenTofu.
func versionOf(t *testing.T, cli string) cliVersion {
	t.Helper()
	cliVersions.Lock()
	defer cliVersions.Unlock()
	if cv, ok := cliVersions.m[cli]; ok {
		return cv
	}
	out, err := exec.CommandContext(t.Context(), cli, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", cli, err)
	}
	for _, f := range strings.Fields(string(out)) {
		if v, err := version.NewVersion(strings.TrimPrefix(f, "v")); err == nil && strings.HasPrefix(f, "v") {
			if cliVersions.m == nil {
				cliVersions.m = map[string]cliVersion{}
			}
			cv := cliVersion{v: v, tofu: strings.HasPrefix(string(out), "OpenTofu")}
			cliVersions.m[cli] = cv
			return cv
		}
	}
	t.Fatalf("cannot read a version from %q", out)
	return cliVersion{}
}

// CLIVersion is the version of the Terraform/OpenTofu CLI.
func CLIVersion(t *testing.T, cli string) *version.Version {
	t.Helper()
	requireCLIDependent(t, "a test that asks the CLI's version")
	return versionOf(t, cli).v
}

// CLIAtLeast reports whether the Terraform/OpenTofu CLI is at least min.
func CLIAtLeast(t *testing.T, cli, minimum string) bool {
	t.Helper()
	return CLIVersion(t, cli).GreaterThanOrEqual(version.Must(version.NewVersion(minimum)))
}

// CLIHasQuery reports whether the CLI has list resources and terraform
// query: Terraform 1.14 or later; no OpenTofu release has them yet.
func CLIHasQuery(t *testing.T, cli string) bool {
	t.Helper()
	requireCLIDependent(t, "a test that asks whether the CLI has terraform query")
	return !versionOf(t, cli).tofu && CLIAtLeast(t, cli, "1.14.0")
}

// CLIEnv is an Env whose test drives the CLI itself, in a working
// directory: terraform-plugin-testing does not show a plan's warnings.
type CLIEnv struct {
	*Env
	W *Workdir
}

// NewCLIEnv is New(t) with a Workdir.
func NewCLIEnv(t *testing.T) *CLIEnv {
	t.Helper()
	env := New(t)
	return &CLIEnv{Env: env, W: NewWorkdir(t)}
}

// Write sets the configuration: the provider block and hcl.
func (s *CLIEnv) Write(hcl string) { s.W.Write("main.tf", s.Config(hcl)) }

// Apply sets the configuration and applies it.
func (s *CLIEnv) Apply(hcl string) {
	s.Write(hcl)
	s.W.MustRun(0, "apply", "-auto-approve")
}

// Destroy runs terraform destroy and checks through the API that no
// website of the test is left.
func (s *CLIEnv) Destroy(t *testing.T) {
	t.Helper()
	s.W.MustRun(0, "destroy", "-auto-approve")
	if err := s.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}

// DestroyIfLive runs `destroy -auto-approve`, wanting exit code 0, in the
// live mode only: it ends a test whose subject is not the destroy. An
// installation outlives the test (the Env's cleanup and the sweepers back
// it up); the in-process emulator goes away with the test, and there a
// destroy, which starts the provider five times, would cost the CLI's CPU
// and check nothing the test is about. The provider's Delete stays checked
// by every terraform-plugin-testing test's destroy and CheckDestroy, and by
// the tests whose subject is a destroy, which run it themselves.
func (w *Workdir) DestroyIfLive() {
	w.t.Helper()
	if LiveMode() {
		w.MustRun(0, "destroy", "-auto-approve")
	}
}

// DestroyIfLive is Destroy in the live mode only (see
// Workdir.DestroyIfLive).
func (s *CLIEnv) DestroyIfLive(t *testing.T) {
	t.Helper()
	if LiveMode() {
		s.Destroy(t)
	}
}

// StateID is the id the state holds for the analytics_website called name.
func (s *CLIEnv) StateID(t *testing.T, name string) int64 {
	t.Helper()
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(s.W.Read("terraform.tfstate")), &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		if r.Type == "analytics_website" && r.Name == name && len(r.Instances) == 1 {
			id, err := strconv.ParseInt(r.Instances[0].Attributes.ID, 10, 64)
			if err != nil {
				t.Fatalf("analytics_website.%s: id %q", name, r.Instances[0].Attributes.ID)
			}
			return id
		}
	}
	t.Fatalf("the state has no analytics_website.%s", name)
	return 0
}

package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Tests that need what terraform-plugin-testing cannot do (a state written
// by an older release, -generate-config-out) drive the CLI themselves, with
// the provider built from this tree and installed through dev_overrides.

var providerBuild struct {
	once sync.Once
	dir  string // holds terraform-provider-analytics and cli.tfrc
	err  error
}

// builtProvider builds the provider once per test binary and returns the
// CLI configuration file that installs it through dev_overrides.
func builtProvider(t *testing.T) (cliConfig string) {
	t.Helper()
	providerBuild.once.Do(func() {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			providerBuild.err = err
			return
		}
		// Shared by every test of the binary, so not one test's TempDir;
		// TestMain removes it.
		dir, err := os.MkdirTemp("", "analytics-provider-") //nolint:usetesting // see above
		if err != nil {
			providerBuild.err = err
			return
		}
		build := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-analytics"), ".")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			providerBuild.err = fmt.Errorf("building the provider: %w\n%s", err, out)
			return
		}
		var overrides strings.Builder
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			for _, ns := range []string{"analytics-tf", "hashicorp"} {
				fmt.Fprintf(&overrides, "    %q = %q\n", host+"/"+ns+"/analytics", dir)
			}
		}
		providerBuild.err = os.WriteFile(filepath.Join(dir, "cli.tfrc"),
			[]byte("provider_installation {\n  dev_overrides {\n"+overrides.String()+"  }\n  direct {}\n}\n"), 0o600)
		providerBuild.dir = dir
	})
	if providerBuild.err != nil {
		t.Fatal(providerBuild.err)
	}
	return filepath.Join(providerBuild.dir, "cli.tfrc")
}

// TestMain runs the tests, or with -sweep the sweepers instead
// (sweep_test.go), through terraform-plugin-testing's resource.TestMain.
func TestMain(m *testing.M) {
	resource.TestMain(runAndClean{m})
}

// runAndClean runs the tests, then removes the provider built for them.
type runAndClean struct{ m *testing.M }

func (r runAndClean) Run() int {
	code := r.m.Run()
	if providerBuild.dir != "" {
		_ = os.RemoveAll(providerBuild.dir)
	}
	return code
}

// cliWorkdir is a working directory in which a test runs the CLI of
// TF_ACC_TERRAFORM_PATH with the provider of this tree.
type cliWorkdir struct {
	t         *testing.T
	cli       string
	dir       string
	cliConfig string
}

// newCLIWorkdir skips the test unless acceptance tests run.
func newCLIWorkdir(t *testing.T) *cliWorkdir {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	acctest.PreCheck(t)
	return &cliWorkdir{t: t, cli: os.Getenv("TF_ACC_TERRAFORM_PATH"), dir: t.TempDir(), cliConfig: builtProvider(t)}
}

// isOpenTofu reports whether the CLI is OpenTofu (its default registry host
// differs, which matters in state files).
func (w *cliWorkdir) isOpenTofu() bool {
	return strings.Contains(filepath.Base(w.cli), "tofu")
}

// registryHost is the host of provider addresses in this CLI's states.
func (w *cliWorkdir) registryHost() string {
	if w.isOpenTofu() {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

func (w *cliWorkdir) write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *cliWorkdir) read(name string) string {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join(w.dir, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(data)
}

// run runs the CLI with args and returns its combined output and exit code.
func (w *cliWorkdir) run(args ...string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.cli, append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+w.cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		exit, ok := err.(*exec.ExitError) //nolint:errorlint // only the direct error carries the exit code
		if !ok {
			w.t.Fatalf("%s %v: %v", filepath.Base(w.cli), args, err)
		}
		code = exit.ExitCode()
	}
	return string(out), code
}

// mustRun runs the CLI and fails the test unless it exits with want.
func (w *cliWorkdir) mustRun(want int, args ...string) string {
	w.t.Helper()
	out, code := w.run(args...)
	if code != want {
		w.t.Fatalf("%s %s: exit code %d, want %d:\n%s", filepath.Base(w.cli), strings.Join(args, " "), code, want, out)
	}
	return out
}

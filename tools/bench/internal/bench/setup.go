package bench

import (
	"context"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
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
	var err error
	if b.tf = b.cfg.Terraform; b.tf == "" {
		if b.tf, err = b.tool(ctx, "terraform", "a few minutes"); err != nil {
			return err
		}
	}
	if b.tfVersion, err = terraformVersion(ctx, b.tf); err != nil {
		return err
	}

	// The bench's build of the provider (tools/bench/provider): the
	// release's main with a CPU profile on request.
	logf(b.cfg.Log, "building the provider into %s", b.tmp)
	plugins := filepath.Join(b.tmp, "plugins")
	b.provider = filepath.Join(plugins, "terraform-provider-analytics")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-X main.version=0.0.0-bench", "-o", b.provider, "./provider")
	build.Dir, build.Stdout, build.Stderr = filepath.Join(b.cfg.Root, "tools", "bench"), b.cfg.Log, b.cfg.Log
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

// tool returns Root/.tools/bin/name, built with scripts/install-tools.sh
// (which takes about took, once) when absent.
func (b *bench) tool(ctx context.Context, name, took string) (string, error) {
	bin := filepath.Join(b.cfg.Root, ".tools", "bin", name)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	logf(b.cfg.Log, "building %s with scripts/install-tools.sh (%s, once)", name, took)
	if err := b.installTool(ctx, name); err != nil {
		return "", fmt.Errorf("building %s: %w", name, err)
	}
	return bin, nil
}

// installTool builds tool into .tools/bin with scripts/install-tools.sh.
func (b *bench) installTool(ctx context.Context, tool string) error {
	return b.inRoot(ctx, filepath.Join(b.cfg.Root, "scripts", "install-tools.sh"), tool)
}

// inRoot runs a command in the repository root, its output to the log.
func (b *bench) inRoot(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = b.cfg.Root, b.cfg.Log, b.cfg.Log
	return cmd.Run()
}

// terraformVersion returns the version of the Terraform CLI tf.
func terraformVersion(ctx context.Context, tf string) (string, error) {
	out, err := exec.CommandContext(ctx, tf, "version", "-json").Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %w", tf, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return "", fmt.Errorf("%s version -json: %w", tf, err)
	}
	return v.Version, nil
}

// setUpTime finds (or builds) terraform-provider-time and returns the
// directory that the CLI configuration's dev_overrides names for it.
func (b *bench) setUpTime(ctx context.Context) (string, error) {
	bin := b.cfg.TimeProvider
	if bin == "" {
		// Reuses the binary when it is the pinned version (no build).
		bin = filepath.Join(b.cfg.Root, ".tools", "bin", "terraform-provider-time")
		if err := b.installTool(ctx, "terraform-provider-time"); err != nil {
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
	if info, err := buildinfo.ReadFile(b.timeProvider); err == nil {
		b.timeVersion = moduleVersion(info, timeModule)
	}
	// Terraform looks for terraform-provider-time in the directory that
	// dev_overrides names: a directory of its own holds a link to it.
	dir := filepath.Join(b.tmp, "plugins-time")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, os.Symlink(b.timeProvider, filepath.Join(dir, "terraform-provider-time"))
}

// moduleVersion returns the version of module in a binary's build
// information (what `go version -m` prints): the main module's or a
// dependency's, or "".
func moduleVersion(info *debug.BuildInfo, module string) string {
	if info.Main.Path == module {
		return info.Main.Version
	}
	for _, d := range info.Deps {
		if d.Path == module {
			return d.Version
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

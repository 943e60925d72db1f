// Package bench measures the provider at scale, as `make bench` runs it: the
// provider binary runs as the real plugin process, launched by the real
// Terraform CLI through a CLI configuration with dev_overrides, against the
// API emulator served in this process (whose counters tell how many requests
// each step cost).
//
// For N websites (analytics_website with count = N) it times create
// (apply), refresh (plan -detailed-exitcode, no changes expected), update of
// every website (apply) and destroy, and counts the API requests of each
// step by method and route, the provider process's peak RSS and Terraform's.
// The same steps on N time_static resources (hashicorp/time, a stock
// terraform-plugin-framework provider that does no I/O, launched through
// dev_overrides too) and on N terraform_data resources (built into
// Terraform: no plugin at all), run interleaved with them, are the
// baselines. Config lists the other passes, each in a file of its own.
package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
)

// Config is what to measure. Zero Sizes, Parallelism, RateLimit,
// RateWindow and StepTimeout take the defaults of DefaultConfig; zero
// Among, ThrottledN and AdoptSizes skip their passes. The fields with a
// JSON name are recorded in results.json.
type Config struct {
	// Root is the repository root (where go.mod is).
	Root string `json:"-"`
	// Terraform is the CLI to use; empty means Root/.tools/bin/terraform,
	// built with scripts/install-tools.sh when absent.
	Terraform string `json:"-"`
	// Sizes are the numbers of websites of the main pass.
	Sizes []int `json:"sizes"`
	// Parallelism is Terraform's -parallelism.
	Parallelism int `json:"parallelism"`
	// Among is the number of websites on the server in the "one among
	// many" refresh (0 skips it).
	Among int `json:"among"`
	// ThrottledN is the number of websites of the throttled pass (0 skips
	// it).
	ThrottledN int `json:"throttled_n"`
	// RateLimit requests per RateWindow is the throttle of that pass.
	RateLimit  int           `json:"rate_limit"`
	RateWindow time.Duration `json:"-"`
	// Rounds is how many times create, update and destroy are compared at
	// N=500 (the first round is the main pass's); the targets take the
	// median.
	Rounds int `json:"rounds"`
	// AdoptSizes are the numbers of websites of the adoption pass: made
	// through the API, then imported by domain (none: skipped).
	AdoptSizes []int `json:"adopt_sizes,omitempty"`
	// AdoptThrottled runs the adoption pass again under the throttle of
	// the throttled pass.
	AdoptThrottled bool `json:"adopt_throttled,omitempty"`
	// QuerySizes are the numbers of websites of the query pass: made
	// through the API, then adopted with terraform query (none: skipped).
	QuerySizes []int `json:"query_sizes,omitempty"`
	// QueryTerraform is the CLI of the query pass (Terraform 1.14 or
	// later); empty means the newest Root/.tools/bin/terraform-<version>,
	// built with scripts/install-tools.sh when absent.
	QueryTerraform string `json:"-"`
	// QueryOnly runs the query pass alone (no warm-up, main pass or other
	// passes).
	QueryOnly bool `json:"query_only,omitempty"`
	// DestroyPlanN is the number of websites, each with statistics, of the
	// destroy-plan pass (0 skips it).
	DestroyPlanN int `json:"destroy_plan_n,omitempty"`
	// StatisticsDays is the number of days with a pageview of the website
	// whose statistics the statistics pass reads (0 skips it).
	StatisticsDays int `json:"statistics_days,omitempty"`
	// ExportDays and ExportPages are the history of the website of the
	// export pass: days of daily statistics and distinct pages (ExportDays
	// 0 skips it). It runs on the CLI of the query pass.
	ExportDays  int `json:"export_days,omitempty"`
	ExportPages int `json:"export_pages,omitempty"`
	// ExportOnly runs the export pass alone.
	ExportOnly bool `json:"export_only,omitempty"`
	// TimeProvider is the terraform-provider-time binary of the time_static
	// baseline; empty means Root/.tools/bin/terraform-provider-time, built
	// (or checked) with scripts/install-tools.sh. NoTime skips the
	// baseline.
	TimeProvider string `json:"-"`
	NoTime       bool   `json:"-"`
	// Profile collects CPU profiles of the provider processes during a
	// create of CompareN websites (a step of its own, not compared) and
	// keeps them in ProfileDir (relative to Root unless absolute; empty:
	// not kept).
	Profile    bool   `json:"-"`
	ProfileDir string `json:"-"`
	// StepTimeout bounds one Terraform command.
	StepTimeout time.Duration `json:"-"`
	// Keep keeps the temporary directory (configurations, logs, state).
	Keep bool `json:"-"`
	// Log receives progress lines (nil: none).
	Log io.Writer `json:"-"`
}

// DefaultConfig is `make bench`.
func DefaultConfig() Config {
	return Config{
		Sizes:          []int{10, 100, 500},
		Parallelism:    10,
		Among:          5000,
		ThrottledN:     100,
		RateLimit:      60,
		RateWindow:     6 * time.Second,
		Rounds:         3,
		AdoptSizes:     []int{100, 500},
		AdoptThrottled: true,
		QuerySizes:     []int{500},
		DestroyPlanN:   100,
		StatisticsDays: 365,
		ExportDays:     730,
		ExportPages:    500,
		Profile:        true,
		ProfileDir:     ".bench/profiles",
		StepTimeout:    10 * time.Minute,
	}
}

// Kinds of resources measured.
const (
	KindWebsite = "analytics_website"
	KindTime    = "time_static"
	KindData    = "terraform_data"
)

// Passes.
const (
	PassMain           = "main"
	PassRound          = "round" // more rounds of create, update and destroy at N=500
	PassAmong          = "among"
	PassThrottled      = "throttled"
	PassAdopt          = "adopt"
	PassAdoptThrottled = "adopt-throttled"
	PassDestroyPlan    = "destroy-plan"
	PassProfile        = "profile"
)

// Steps.
const (
	StepCreate  = "create"
	StepRefresh = "refresh"
	StepUpdate  = "update"
	StepDestroy = "destroy"
	// StepImportPlan and StepImportApply adopt existing websites: a plan
	// that must show only imports, and the apply that performs them.
	StepImportPlan  = "import-plan"
	StepImportApply = "import-apply"
	// StepDestroyPlan is `plan -destroy` of websites with statistics.
	StepDestroyPlan = "destroy-plan"
)

// Results is everything one run measured, as written to results.json.
type Results struct {
	Machine  Machine   `json:"machine"`
	Config   RunConfig `json:"config"`
	Started  time.Time `json:"started"`
	Duration float64   `json:"duration_seconds"`
	Runs     []*Run    `json:"runs"`
	Targets  []Target  `json:"targets"`
	// Profile is where the provider's CPU time went during the profiled
	// create (nil when not profiled).
	Profile *Profile `json:"profile,omitempty"`
}

// RunConfig is the configuration as recorded, with the versions of the
// CLIs and of terraform-provider-time (empty: not used).
type RunConfig struct {
	Config
	RateWindowSec         float64 `json:"rate_window_seconds"`
	EmulatorLatency       string  `json:"emulator_latency"`
	TerraformVersion      string  `json:"terraform_version"`
	QueryTerraformVersion string  `json:"query_terraform_version,omitempty"`
	TimeProviderVersion   string  `json:"time_provider_version,omitempty"`
}

// Run is one kind of resource at one size in one pass.
type Run struct {
	Pass string `json:"pass"`
	Kind string `json:"kind"`
	N    int    `json:"n"`
	// Round numbers the comparisons at CompareN (1 is the main pass).
	Round int `json:"round,omitempty"`
	// Seeded is the number of other websites on the server.
	Seeded int     `json:"seeded,omitempty"`
	Steps  []*Step `json:"steps"`
}

// Step is one Terraform command.
type Step struct {
	Name    string   `json:"name"`
	Command []string `json:"command"`
	// Wall is the command's wall time in seconds.
	Wall     float64 `json:"wall_seconds"`
	ExitCode int     `json:"exit_code"`
	// Error says why the step failed (Terraform's exit code, an
	// unexpected plan, a wrong count on the server); empty when it passed.
	Error   string `json:"error,omitempty"`
	Skipped bool   `json:"skipped,omitempty"`
	// Summary is Terraform's summary line ("Plan: ...", "Apply complete!
	// Resources: ...", "No changes.", "Destroy complete! ...").
	Summary  string   `json:"summary,omitempty"`
	Requests Requests `json:"requests"`
	// ProviderPeakRSS is the largest VmHWM seen of the provider processes
	// Terraform started during the step, in KiB (0 for terraform_data).
	ProviderPeakRSS   int64 `json:"provider_peak_rss_kib"`
	ProviderProcesses int   `json:"provider_processes"`
	// TerraformPeakRSS is the Terraform process's peak RSS in KiB.
	TerraformPeakRSS int64 `json:"terraform_peak_rss_kib"`
	// CPU is the user+system CPU time of Terraform and the provider
	// processes it waited for, in seconds.
	CPU float64 `json:"cpu_seconds"`
	// ProviderCPU is the part of CPU spent in the provider processes (as
	// last sampled, so slightly low).
	ProviderCPU float64 `json:"provider_cpu_seconds"`
	// LowerBound is, under a throttle, the successful requests divided by
	// the limit, times the window, in seconds.
	LowerBound float64 `json:"throttle_lower_bound_seconds,omitempty"`
	// ThrottleWait is, under a throttle, the time the server refused the
	// client, in seconds: from each first 429 answer to the next request
	// it let through (see throttleWait).
	ThrottleWait float64 `json:"throttle_wait_seconds,omitempty"`
}

// OK reports whether the step ran and passed.
func (s *Step) OK() bool { return !s.Skipped && s.Error == "" }

// Requests are the emulator's counters for one step.
type Requests struct {
	Total int `json:"total"`
	// List is GET /websites without a search (list pages), Search GET
	// /websites?search=... (look-ups by domain), Show GET /websites/{id},
	// OtherGet any other GET (GET /account).
	List     int `json:"get_list"`
	Search   int `json:"get_search"`
	Show     int `json:"get_one"`
	OtherGet int `json:"get_other"`
	Post     int `json:"post"`
	Put      int `json:"put"`
	Delete   int `json:"delete"`
	// Throttled is the number of 429 answers (included in the above).
	Throttled int            `json:"throttled"`
	ByStatus  map[string]int `json:"by_status"`
	ByRoute   map[string]int `json:"by_route,omitempty"`
}

// Writes returns the requests that change websites.
func (r Requests) Writes() int { return r.Post + r.Put + r.Delete }

// add returns the sum of two steps' requests.
func (r Requests) add(o Requests) Requests {
	sum := Requests{
		Total: r.Total + o.Total, List: r.List + o.List, Search: r.Search + o.Search, Show: r.Show + o.Show,
		OtherGet: r.OtherGet + o.OtherGet, Post: r.Post + o.Post, Put: r.Put + o.Put, Delete: r.Delete + o.Delete,
		Throttled: r.Throttled + o.Throttled, ByStatus: map[string]int{},
	}
	for _, m := range []map[string]int{r.ByStatus, o.ByStatus} {
		for k, v := range m {
			sum.ByStatus[k] += v
		}
	}
	return sum
}

// Successful returns the requests answered with a 2xx status.
func (r Requests) Successful() int {
	n := 0
	for code, c := range r.ByStatus {
		if len(code) == 3 && code[0] == '2' {
			n += c
		}
	}
	return n
}

func withDefaults(cfg Config) Config {
	def := DefaultConfig()
	if len(cfg.Sizes) == 0 {
		cfg.Sizes = def.Sizes
	}
	if cfg.Parallelism <= 0 {
		cfg.Parallelism = def.Parallelism
	}
	if cfg.RateLimit <= 0 {
		cfg.RateLimit = def.RateLimit
	}
	if cfg.RateWindow <= 0 {
		cfg.RateWindow = def.RateWindow
	}
	if cfg.Rounds <= 0 {
		cfg.Rounds = 1
	}
	if cfg.StepTimeout <= 0 {
		cfg.StepTimeout = def.StepTimeout
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	return cfg
}

// RootModule is the provider's module, whose directory is the repository
// root.
const RootModule = "github.com/analytics-tf/terraform-provider-analytics"

// FindRoot returns the directory at or above dir whose go.mod is
// RootModule's (the bench's own go.mod, in tools/bench, is passed by).
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if raw, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modfile.ModulePath(raw) == RootModule {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of " + RootModule + " found in the current directory or above it")
		}
		dir = parent
	}
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		_, _ = fmt.Fprintf(w, "bench: "+format+"\n", args...)
	}
}

func (r *Run) step(name string) *Step {
	for _, s := range r.Steps {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func (res *Results) run(pass, kind string, n int) *Run {
	for _, r := range res.Runs {
		if r != nil && r.Pass == pass && r.Kind == kind && (n == 0 || r.N == n) {
			return r
		}
	}
	return nil
}

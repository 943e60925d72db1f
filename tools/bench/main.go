// Command bench is `make bench`: it measures the provider at scale with the
// real Terraform CLI against the in-process API emulator (see package
// bench), prints the results as Markdown, writes them as JSON to
// .bench/results.json (and Markdown to .bench/results.md) and, with
// -update BENCHMARKS.md, replaces the generated section of that file.
//
//	cd tools/bench && go run . [-sizes 10,100,500] [-among 5000]
//	    [-throttled-n 100 -rate-limit 60 -rate-window 6s] [-adopt-sizes 100,500] [-destroy-plan-n 100]
//	    [-statistics-days 365]
//	    [-query-sizes 500 [-query-terraform path] [-query-only]] [-export-days 730 -export-pages 500 [-export-only]]
//	    [-time=false] [-profile=false] [-update BENCHMARKS.md]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/analytics-tf/terraform-provider-analytics/tools/bench/internal/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	cfg := bench.DefaultConfig()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.Func("sizes", "comma-separated numbers of websites of the main pass (default 10,100,500)", sizes(&cfg.Sizes, false))
	fs.IntVar(&cfg.Parallelism, "parallelism", cfg.Parallelism, "terraform -parallelism")
	fs.IntVar(&cfg.Rounds, "rounds", cfg.Rounds, "rounds of the create / update / destroy comparison at N=500 (the targets take the median)")
	fs.IntVar(&cfg.Among, "among", cfg.Among, "websites on the server for the refresh of one among many (0 = skip)")
	fs.IntVar(&cfg.ThrottledN, "throttled-n", cfg.ThrottledN, "websites of the throttled pass (0 = skip)")
	fs.IntVar(&cfg.RateLimit, "rate-limit", cfg.RateLimit, "requests per window in the throttled pass")
	fs.DurationVar(&cfg.RateWindow, "rate-window", cfg.RateWindow, "throttle window of the throttled pass (the real API: 1m)")
	fs.Func("adopt-sizes", "comma-separated numbers of websites of the adoption pass (empty = skip; default 100,500)", sizes(&cfg.AdoptSizes, true))
	fs.BoolVar(&cfg.AdoptThrottled, "adopt-throttled", cfg.AdoptThrottled, "run the adoption pass under the throttle too")
	fs.Func("query-sizes", "comma-separated numbers of websites of the terraform query pass (empty = skip; default 500)", sizes(&cfg.QuerySizes, true))
	fs.StringVar(&cfg.QueryTerraform, "query-terraform", "", "Terraform CLI of the query pass, 1.14 or later (default the newest .tools/bin/terraform-<version>, built if absent)")
	fs.BoolVar(&cfg.QueryOnly, "query-only", false, "run the query pass alone")
	fs.IntVar(&cfg.DestroyPlanN, "destroy-plan-n", cfg.DestroyPlanN, "websites with statistics of the destroy-plan pass (0 = skip)")
	fs.IntVar(&cfg.StatisticsDays, "statistics-days", cfg.StatisticsDays, "days of statistics the statistics pass reads (0 = skip)")
	fs.IntVar(&cfg.ExportDays, "export-days", cfg.ExportDays, "days of statistics of the website of the export pass (0 = skip)")
	fs.IntVar(&cfg.ExportPages, "export-pages", cfg.ExportPages, "distinct pages of the website of the export pass")
	fs.BoolVar(&cfg.ExportOnly, "export-only", false, "run the export pass alone")
	withTime := fs.Bool("time", true, "compare with time_static (hashicorp/time)")
	fs.StringVar(&cfg.TimeProvider, "time-provider", "", "terraform-provider-time binary (default .tools/bin/terraform-provider-time, built if absent)")
	fs.BoolVar(&cfg.Profile, "profile", cfg.Profile, "profile the provider's CPU during a create of 500 websites")
	fs.StringVar(&cfg.ProfileDir, "profile-dir", cfg.ProfileDir, "where to keep the CPU profiles (relative to the repository root; empty = not kept)")
	fs.StringVar(&cfg.Terraform, "terraform", "", "Terraform CLI (default .tools/bin/terraform, built if absent)")
	fs.BoolVar(&cfg.Keep, "keep", false, "keep the temporary directory (configurations, state, logs)")
	out := fs.String("out", ".bench/results.json", "JSON results file (relative to the repository root)")
	update := fs.String("update", "", "Markdown file whose generated section to replace, e.g. BENCHMARKS.md")
	strict := fs.Bool("strict", false, "exit with status 1 when a target is missed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.QueryOnly && len(cfg.QuerySizes) == 0 {
		return errors.New("-query-only needs -query-sizes")
	}
	if cfg.ExportOnly && (cfg.QueryOnly || cfg.ExportDays <= 0 || cfg.ExportPages <= 0 || *update != "") {
		return errors.New("-export-only runs the export pass alone: it needs -export-days and -export-pages, and takes neither -query-only nor -update")
	}
	if cfg.QueryOnly && *update != "" {
		return errors.New("-query-only measures one pass: it does not replace the results of -update")
	}
	for _, n := range cfg.AdoptSizes {
		if n > bench.MaxAdoptN {
			return fmt.Errorf("-adopt-sizes: %d is more than %d", n, bench.MaxAdoptN)
		}
	}
	cfg.NoTime = !*withTime
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if cfg.Root, err = bench.FindRoot(wd); err != nil {
		return err
	}
	cfg.Log = os.Stderr

	res, runErr := bench.Measure(ctx, cfg)
	if res == nil {
		return runErr
	}
	md := bench.Markdown(res)
	fmt.Println(md)

	jsonPath := inRoot(cfg.Root, *out)
	if err := os.MkdirAll(filepath.Dir(jsonPath), 0o755); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(jsonPath, append(raw, '\n'), 0o644); err != nil { //nolint:gosec // results are not secret
		return err
	}
	mdPath := strings.TrimSuffix(jsonPath, filepath.Ext(jsonPath)) + ".md"
	if err := os.WriteFile(mdPath, []byte(md), 0o644); err != nil { //nolint:gosec // results are not secret
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: wrote %s and %s\n", jsonPath, mdPath)
	if *update != "" {
		path := inRoot(cfg.Root, *update)
		doc, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err = bench.ReplaceBetweenMarkers(doc, md)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := os.WriteFile(path, doc, 0o644); err != nil { //nolint:gosec // a tracked document
			return err
		}
		fmt.Fprintf(os.Stderr, "bench: updated %s\n", path)
	}
	if runErr != nil {
		return runErr
	}
	if *strict {
		for _, t := range res.Targets {
			if !t.Met {
				return fmt.Errorf("target missed: %s (goal %s, measured %s)", t.Name, t.Goal, t.Measured)
			}
		}
	}
	return nil
}

func inRoot(root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, p)
}

// sizes returns the Set of a flag of comma-separated positive numbers
// into dst; an optional one may be set empty to skip its pass.
func sizes(dst *[]int, optional bool) func(string) error {
	return func(s string) error {
		var out []int
		for field := range strings.SplitSeq(s, ",") {
			if field = strings.TrimSpace(field); field == "" {
				continue
			}
			n, err := strconv.Atoi(field)
			if err != nil || n <= 0 {
				return fmt.Errorf("%q is not a positive number", field)
			}
			out = append(out, n)
		}
		if len(out) == 0 && !optional {
			return errors.New("no sizes")
		}
		*dst = out
		return nil
	}
}

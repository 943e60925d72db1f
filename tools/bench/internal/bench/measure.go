package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"
)

// Measure runs everything cfg asks for.
func Measure(ctx context.Context, cfg Config) (*Results, error) {
	cfg = withDefaults(cfg)
	if runtime.GOOS != "linux" {
		logf(cfg.Log, "note: peak RSS is only measured on Linux (/proc)")
	}
	start := time.Now()
	b, err := newBench(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer b.close()

	res := &Results{
		Machine: machineInfo(ctx, cfg.Root),
		Config: RunConfig{Config: cfg, RateWindowSec: cfg.RateWindow.Seconds(), EmulatorLatency: "0",
			TerraformVersion: b.tfVersion, TimeProviderVersion: b.timeVersion, QueryTerraformVersion: b.tfQueryVersion},
		Started: start.UTC(),
	}
	res.Machine.Terraform = b.tfVersion
	res.Machine.LoadStart = loadAverage()

	err = b.runPasses(ctx, res)
	switch {
	case errors.Is(err, errWarmUp):
		return nil, err
	case err != nil:
		return res, err
	}
	res.Machine.LoadEnd = loadAverage()
	res.Duration = time.Since(start).Seconds()
	res.Targets = evaluate(res)
	return res, nil
}

// errWarmUp marks a failed warm-up: nothing was measured.
var errWarmUp = errors.New("warm-up")

// pass is one pass to run: its runs, and its error.
type pass func() ([]*Run, error)

// one makes a pass of a pass function that returns one run.
func one(run *Run, err error) ([]*Run, error) { return []*Run{run}, err }

// runPasses runs every pass that cfg asks for, in order (only the query or
// the export pass with QueryOnly or ExportOnly), and records their runs,
// also those of a pass that failed.
func (b *bench) runPasses(ctx context.Context, res *Results) error {
	cfg := b.cfg
	var passes, query, export []pass
	for _, n := range cfg.QuerySizes {
		query = append(query, func() ([]*Run, error) { return one(b.queryPass(ctx, n)) })
	}
	if cfg.ExportDays > 0 {
		export = append(export, func() ([]*Run, error) { return one(b.exportPass(ctx, cfg.ExportDays, cfg.ExportPages)) })
	}
	switch {
	case cfg.QueryOnly:
		passes = query
	case cfg.ExportOnly:
		passes = export
	default:
		logf(cfg.Log, "warming up (not measured)")
		if err := b.warmUp(ctx); err != nil {
			return fmt.Errorf("%w: %w", errWarmUp, err)
		}
		passes = b.measuredPasses(ctx, query, export)
	}
	for _, p := range passes {
		runs, err := p()
		res.Runs = append(res.Runs, runs...)
		if err != nil {
			return err
		}
	}
	if cfg.Profile && !cfg.QueryOnly && !cfg.ExportOnly {
		n := CompareN
		if !slices.Contains(cfg.Sizes, n) {
			n = slices.Max(cfg.Sizes)
		}
		run, prof, err := b.profilePass(ctx, n)
		res.Runs, res.Profile = append(res.Runs, run), prof
		return err
	}
	return nil
}

// measuredPasses are the passes of a whole run, in order, with the query
// and export passes.
func (b *bench) measuredPasses(ctx context.Context, query, export []pass) []pass {
	cfg := b.cfg
	var passes []pass
	for _, n := range cfg.Sizes {
		passes = append(passes, func() ([]*Run, error) { return b.mainPass(ctx, n) })
		for round := 2; n == CompareN && round <= cfg.Rounds; round++ {
			passes = append(passes, func() ([]*Run, error) { return b.round(ctx, n, round) })
		}
	}
	if cfg.Among > 0 {
		passes = append(passes, func() ([]*Run, error) { return one(b.amongPass(ctx, cfg.Among)) })
	}
	if cfg.ThrottledN > 0 {
		passes = append(passes, func() ([]*Run, error) { return one(b.throttledPass(ctx, cfg.ThrottledN)) })
	}
	for _, throttled := range []bool{false, true} {
		for _, n := range cfg.AdoptSizes {
			if !throttled || cfg.AdoptThrottled {
				passes = append(passes, func() ([]*Run, error) { return one(b.adoptPass(ctx, n, throttled)) })
			}
		}
	}
	passes = append(passes, query...)
	if cfg.DestroyPlanN > 0 {
		passes = append(passes, func() ([]*Run, error) { return one(b.destroyPlanPass(ctx, cfg.DestroyPlanN)) })
	}
	if cfg.StatisticsDays > 0 {
		passes = append(passes, func() ([]*Run, error) { return one(b.statisticsPass(ctx, cfg.StatisticsDays)) })
	}
	return append(passes, export...)
}

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

	switch {
	case cfg.QueryOnly:
		err = b.queryPasses(ctx, res)
	case cfg.ExportOnly:
		err = b.exportPasses(ctx, res)
	default:
		err = b.allPasses(ctx, res)
	}
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

// queryPasses runs the query pass at every size.
func (b *bench) queryPasses(ctx context.Context, res *Results) error {
	for _, n := range b.cfg.QuerySizes {
		if err := res.add(b.queryPass(ctx, n)); err != nil {
			return err
		}
	}
	return nil
}

// exportPasses runs the export pass, unless ExportDays is 0.
func (b *bench) exportPasses(ctx context.Context, res *Results) error {
	if b.cfg.ExportDays <= 0 {
		return nil
	}
	return res.add(b.exportPass(ctx, b.cfg.ExportDays, b.cfg.ExportPages))
}

// add records the run of a pass, also when the pass failed, and returns its
// error.
func (res *Results) add(run *Run, err error) error {
	res.Runs = append(res.Runs, run)
	return err
}

// allPasses runs every pass that cfg asks for, in order.
func (b *bench) allPasses(ctx context.Context, res *Results) error {
	cfg := b.cfg
	logf(cfg.Log, "warming up (not measured)")
	if err := b.warmUp(ctx); err != nil {
		return fmt.Errorf("%w: %w", errWarmUp, err)
	}
	for _, n := range cfg.Sizes {
		runs, err := b.mainPass(ctx, n)
		res.Runs = append(res.Runs, runs...)
		if err != nil {
			return err
		}
		if n == CompareN {
			for round := 2; round <= cfg.Rounds; round++ {
				runs, err := b.round(ctx, n, round)
				res.Runs = append(res.Runs, runs...)
				if err != nil {
					return err
				}
			}
		}
	}
	if cfg.Among > 0 {
		if err := res.add(b.amongPass(ctx, cfg.Among)); err != nil {
			return err
		}
	}
	if cfg.ThrottledN > 0 {
		if err := res.add(b.throttledPass(ctx, cfg.ThrottledN)); err != nil {
			return err
		}
	}
	throttles := []bool{false}
	if cfg.AdoptThrottled {
		throttles = append(throttles, true)
	}
	for _, throttled := range throttles {
		for _, n := range cfg.AdoptSizes {
			if err := res.add(b.adoptPass(ctx, n, throttled)); err != nil {
				return err
			}
		}
	}
	if err := b.queryPasses(ctx, res); err != nil {
		return err
	}
	if cfg.DestroyPlanN > 0 {
		if err := res.add(b.destroyPlanPass(ctx, cfg.DestroyPlanN)); err != nil {
			return err
		}
	}
	if cfg.StatisticsDays > 0 {
		if err := res.add(b.statisticsPass(ctx, cfg.StatisticsDays)); err != nil {
			return err
		}
	}
	if err := b.exportPasses(ctx, res); err != nil {
		return err
	}
	if cfg.Profile {
		n := CompareN
		if !slices.Contains(cfg.Sizes, n) {
			n = slices.Max(cfg.Sizes)
		}
		run, prof, err := b.profilePass(ctx, n)
		res.Runs = append(res.Runs, run)
		res.Profile = prof
		if err != nil {
			return err
		}
	}
	return nil
}

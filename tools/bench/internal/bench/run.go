package bench

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

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
		w, err := b.newWorkspace("warm-up-"+kind, kind, api)
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
		w, err := b.newWorkspace(name, kind, api)
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
	api, site, err := b.site("among", emulator.Options{})
	if err != nil {
		return nil, err
	}
	defer api.close()
	api.seed(total - 1)
	run := &Run{Pass: PassAmong, Kind: KindWebsite, N: 1, Seeded: total - 1}
	b.lifecycle(ctx, 1, total-1, []*workspace{site}, []*Run{run}, allSteps)
	return run, ctx.Err()
}

// throttledPass measures n websites under the emulator's throttle.
func (b *bench) throttledPass(ctx context.Context, n int) (*Run, error) {
	api, site, err := b.site("throttled", emulator.Options{RateLimit: b.cfg.RateLimit, RateWindow: b.cfg.RateWindow})
	if err != nil {
		return nil, err
	}
	defer api.close()
	run := &Run{Pass: PassThrottled, Kind: KindWebsite, N: n}
	b.lifecycle(ctx, n, 0, []*workspace{site}, []*Run{run}, allSteps)
	return run, ctx.Err()
}

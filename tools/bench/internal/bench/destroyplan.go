package bench

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

// The destroy-plan pass: N websites with statistics, then `terraform plan
// -destroy`, which checks the statistics of the websites it destroys (at
// most maxStatisticsRequests per command, then one warning) so that the
// plan names what the apply would delete.

// maxStatisticsRequests is the provider's budget of statistics requests per
// command (internal/provider's maxStatisticsRequests).
const maxStatisticsRequests = 20

// statisticsRoute is the statistics endpoint as the emulator counts it.
const statisticsRoute = "GET /api/v1/stats/{id}"

// destroyPlanSteps are the steps of the pass: the create (with the
// pageviews recorded after it), the measured plan, and the destroy.
var destroyPlanSteps = []string{StepCreate, StepDestroyPlan, StepDestroy}

// destroyPlanPass creates n websites, records pageviews for each through
// the tracking endpoint (as visitors' browsers do), then plans their
// destroy and destroys them.
func (b *bench) destroyPlanPass(ctx context.Context, n int) (*Run, error) {
	run := &Run{Pass: PassDestroyPlan, Kind: KindWebsite, N: n}
	api, w, err := b.site(fmt.Sprintf("destroy-plan-%d", n), emulator.Options{})
	if err != nil {
		return run, err
	}
	defer api.close()
	if err := w.configure(n, false); err != nil {
		return run, err
	}
	b.runSteps(ctx, run, w, destroyPlanSteps, func(step string, s *Step) {
		if step == StepDestroyPlan {
			checkDestroyPlan(s, n)
		} else {
			w.check(s, n, 0)
		}
		if step == StepCreate && s.OK() {
			if err := api.recordPageviews(ctx); err != nil {
				s.Error = "recording pageviews: " + err.Error()
			}
		}
	})
	if failed(run) {
		w.cleanUp(ctx)
	}
	return run, ctx.Err()
}

// recordPageviews sends one pageview of the home page of every website on
// the server to the tracking endpoint.
func (s *apiServer) recordPageviews(ctx context.Context) error {
	hc := &http.Client{Timeout: 30 * time.Second}
	for _, w := range s.emu.Websites() {
		got, err := tracking.SendHit(ctx, hc, s.url, tracking.Hit{Page: "https://" + w.Domain + "/",
			UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"})
		if err != nil {
			return err
		}
		if got != "200" {
			return fmt.Errorf("the tracking endpoint answered %q for %s", got, w.Domain)
		}
	}
	return nil
}

// checkDestroyPlan records in s.Error what is wrong with the plan: it must
// destroy n websites and nothing else, write nothing, and send one
// statistics request per website up to the budget, no more.
func checkDestroyPlan(s *Step, n int) {
	if s.Error != "" {
		return
	}
	if w := s.Requests.Writes(); w != 0 {
		s.Error = fmt.Sprintf("%d write requests", w)
		return
	}
	if got, ok := ParseSummary(s.Summary); !ok || got != (Summary{Destroy: n}) {
		s.Error = fmt.Sprintf("Terraform's summary is %q, want %d to destroy and nothing else", s.Summary, n)
		return
	}
	if got, want := s.Requests.ByRoute[statisticsRoute], min(n, maxStatisticsRequests); got != want {
		s.Error = fmt.Sprintf("%d statistics requests, want %d (one per website with a day of pageviews, at most %d)",
			got, want, maxStatisticsRequests)
	}
}

// destroyPlanTarget is the target of the pass: the plan's statistics
// requests stay within the budget.
func destroyPlanTarget(res *Results) (Target, bool) {
	r := res.run(PassDestroyPlan, KindWebsite, 0)
	if r == nil {
		return Target{}, false
	}
	s := r.step(StepDestroyPlan)
	return Target{Name: fmt.Sprintf("Plan destroying %d websites with statistics", r.N),
		Goal: fmt.Sprintf("≤ %d statistics requests, plan succeeds", maxStatisticsRequests)}.measured(s != nil && s.OK(), func() (string, bool) {
		stats := s.Requests.ByRoute[statisticsRoute]
		return fmt.Sprintf("%d statistics requests of %d in all, %.2f s", stats, s.Requests.Total, s.Wall), stats <= maxStatisticsRequests
	}), true
}

package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Target is one of the performance goals and how the run did.
type Target struct {
	Name     string `json:"name"`
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// measured returns t measured by measure when ok, else failed.
func (t Target) measured(ok bool, measure func() (string, bool)) Target {
	t.Measured = "failed"
	if ok {
		t.Measured, t.Met = measure()
	}
	return t
}

// MaxDuration is the budget of the whole `make bench`.
const MaxDuration = 20 * time.Minute

// CompareN is the size at which the kinds are compared, in Config.Rounds
// rounds, and at which the adoption and refresh targets apply.
const CompareN = 500

// The goals (issues 5 and 10). AdoptMaxRequests was 12 until issue 44:
// imports by domain need the domains of one moment, so the sweep that
// answers them reads its pages twice, in the plan and in the apply (2 × 5
// list pages and one GET each).
const (
	RefreshMaxRequests   = 6
	AmongMaxRequests     = 2
	AdoptMaxRequests     = 22
	AdoptMaxThrottleWait = 30 * time.Second // at the real window
	TimeRatioMax         = 0.8
	DataRatioMax         = 1.5
	ThrottledRatioMax    = 1.2
)

// compared is one round of one step at CompareN: the step of each kind.
type compared struct {
	round            int
	site, time, data *Step
}

// ratio returns a.Wall / b.Wall when both steps passed.
func ratio(a, b *Step) (float64, bool) {
	if a == nil || b == nil || !a.OK() || !b.OK() || b.Wall <= 0 {
		return 0, false
	}
	return a.Wall / b.Wall, true
}

// cpuRatio returns a.CPU / b.CPU when both steps passed.
func cpuRatio(a, b *Step) (float64, bool) {
	if a == nil || b == nil || !a.OK() || !b.OK() || b.CPU <= 0 {
		return 0, false
	}
	return a.CPU / b.CPU, true
}

// comparisons returns the rounds of step at CompareN, by round.
func (res *Results) comparisons(step string) []compared {
	byRound := map[int]*compared{}
	for _, r := range res.Runs {
		if r == nil || r.N != CompareN || r.Round == 0 || (r.Pass != PassMain && r.Pass != PassRound) {
			continue
		}
		c := byRound[r.Round]
		if c == nil {
			c = &compared{round: r.Round}
			byRound[r.Round] = c
		}
		s := r.step(step)
		switch r.Kind {
		case KindWebsite:
			c.site = s
		case KindTime:
			c.time = s
		case KindData:
			c.data = s
		}
	}
	out := make([]compared, 0, len(byRound))
	for _, c := range byRound {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b compared) int { return a.round - b.round })
	return out
}

// ratioTarget compares websites with a baseline (base picks its step) over
// the rounds of step.
func (res *Results) ratioTarget(name, step string, limit float64, base func(compared) *Step) Target {
	t := Target{Name: name, Goal: fmt.Sprintf("≤ %.1f × (wall time, median of the rounds)", limit)}
	var ratios, cpus, sites, bases []float64
	for _, c := range res.comparisons(step) {
		r, ok := ratio(c.site, base(c))
		if !ok {
			continue
		}
		ratios = append(ratios, r)
		sites = append(sites, c.site.Wall)
		bases = append(bases, base(c).Wall)
		if cr, ok := cpuRatio(c.site, base(c)); ok {
			cpus = append(cpus, cr)
		}
	}
	if len(ratios) == 0 {
		t.Measured = "not measured (failed or skipped)"
		return t
	}
	t.Measured = fmt.Sprintf("median of %d rounds: %.2f s vs %.2f s, %.2f × (rounds: %s; CPU time: %.2f ×)",
		len(ratios), median(sites), median(bases), median(ratios), joinFloats(ratios), median(cpus))
	t.Met = median(ratios) <= limit
	return t
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// refreshTarget is a refresh's requests against a limit.
func refreshTarget(name string, r *Run, limit int) Target {
	s := r.step(StepRefresh)
	return Target{Name: name, Goal: fmt.Sprintf("≤ %d requests", limit)}.measured(s != nil && s.OK(), func() (string, bool) {
		q := s.Requests
		return fmt.Sprintf("%d requests (%d list pages, %d single reads%s)", q.Total, q.List, q.Show, otherRoutes(q)), q.Total <= limit
	})
}

// evaluate checks the run against the goals of issues 5 and 10.
func evaluate(res *Results) []Target {
	if res.Config.QueryOnly {
		return queryTargets(res)
	}
	if res.Config.ExportOnly {
		return exportTargets(res)
	}
	var out []Target

	// One request per create, update and delete, in the normal case (no
	// throttle: under one, refused requests are repeated, and counted).
	t := Target{Name: "API requests per create / update / delete", Goal: "1.0 / 1.0 / 1.0", Met: true}
	var parts []string
	for _, r := range res.Runs {
		if r == nil || r.Kind != KindWebsite || r.Pass != PassMain {
			continue
		}
		c, u, d := r.step(StepCreate), r.step(StepUpdate), r.step(StepDestroy)
		if c == nil || u == nil || d == nil || !c.OK() || !u.OK() || !d.OK() {
			t.Met = false
			parts = append(parts, fmt.Sprintf("N=%d (%s): failed", r.N, r.Pass))
			continue
		}
		n := float64(r.N)
		pc, pu, pd := float64(c.Requests.Post)/n, float64(u.Requests.Put)/n, float64(d.Requests.Delete)/n
		t.Met = t.Met && c.Requests.Post == r.N && u.Requests.Put == r.N && d.Requests.Delete == r.N
		parts = append(parts, fmt.Sprintf("N=%d: %.2f / %.2f / %.2f", r.N, pc, pu, pd))
	}
	t.Measured = strings.Join(parts, "; ")
	out = append(out, t)

	if r := res.run(PassMain, KindWebsite, CompareN); r != nil {
		out = append(out, refreshTarget(fmt.Sprintf("Refresh of %d managed websites", CompareN), r, RefreshMaxRequests))
	}
	if r := res.run(PassAmong, KindWebsite, 0); r != nil {
		out = append(out, refreshTarget(fmt.Sprintf("Refresh of 1 managed website among %s", thousands(r.Seeded+r.N)), r, AmongMaxRequests))
	}

	if r := res.run(PassAdopt, KindWebsite, CompareN); r != nil {
		req, _, _, ok := adoptTotals(r)
		out = append(out, Target{Name: fmt.Sprintf("Adopting %d websites (import blocks, by domain): plan + apply", CompareN),
			Goal: fmt.Sprintf("≤ %d API requests", AdoptMaxRequests)}.measured(ok, func() (string, bool) {
			plan, apply := r.step(StepImportPlan).Requests.Total, r.step(StepImportApply).Requests.Total
			return fmt.Sprintf("%d requests: plan %d + apply %d (%s)", req.Total, plan, apply, requestMix(req)), req.Total <= AdoptMaxRequests
		}))
	}
	if r := res.run(PassAdoptThrottled, KindWebsite, CompareN); r != nil {
		window := res.Config.RateWindowSec
		req, wall, wait, ok := adoptTotals(r)
		out = append(out, Target{Name: fmt.Sprintf("Adopting %d websites under the real %d requests/minute throttle: throttle time of plan + apply",
			CompareN, res.Config.RateLimit), Goal: fmt.Sprintf("< %.0f s", AdoptMaxThrottleWait.Seconds())}.measured(ok, func() (string, bool) {
			atReal := toRealWindow(wait, window)
			return fmt.Sprintf("≈ %.0f s (%.1f s waited at the %g s window, × %g; %d answers were 429; %d requests; wall %.1f s at the %g s window)",
				atReal, wait, window, toRealWindow(1, window), req.Throttled, req.Total, wall, window), atReal < AdoptMaxThrottleWait.Seconds()
		}))
	}

	out = append(out, queryTargets(res)...)
	out = append(out, exportTargets(res)...)
	if t, ok := destroyPlanTarget(res); ok {
		out = append(out, t)
	}
	out = append(out, statisticsTargets(res)...)

	if res.run(PassMain, KindTime, CompareN) != nil {
		for _, step := range []string{StepCreate, StepUpdate, StepDestroy} {
			out = append(out, res.ratioTarget(fmt.Sprintf("%s of %d websites vs %d time_static", capitalize(step), CompareN, CompareN),
				step, TimeRatioMax, func(c compared) *Step { return c.time }))
		}
	}
	if res.run(PassMain, KindWebsite, CompareN) != nil && res.run(PassMain, KindData, CompareN) != nil {
		out = append(out, res.ratioTarget(fmt.Sprintf("Create of %d websites vs %d terraform_data", CompareN, CompareN),
			StepCreate, DataRatioMax, func(c compared) *Step { return c.data }))
	}

	if r := res.run(PassThrottled, KindWebsite, 0); r != nil {
		tt := throttledTotals(r)
		wall, bound, throttled, errs := tt.Wall, tt.Bound, tt.Throttled, tt.Failed
		t := Target{Name: fmt.Sprintf("Throttled pass (N=%d): errors", r.N), Goal: "0"}
		t.Measured = fmt.Sprintf("%d failed steps (%d answers were 429)", errs, throttled)
		t.Met = errs == 0
		out = append(out, t)
		t = Target{Name: fmt.Sprintf("Throttled pass (N=%d): time vs the throttle's lower bound", r.N), Goal: fmt.Sprintf("≤ %.1f ×", ThrottledRatioMax)}
		if errs == 0 && bound > 0 {
			t.Measured = fmt.Sprintf("%.1f s vs %.1f s = %.2f ×", wall, bound, wall/bound)
			t.Met = wall <= ThrottledRatioMax*bound
		} else {
			t.Measured = "not measurable: steps failed"
		}
		out = append(out, t)
	}

	out = append(out, Target{
		Name: "Whole benchmark (after building the bench)", Goal: fmt.Sprintf("< %.0f min on 2 cores", MaxDuration.Minutes()),
		Measured: (time.Duration(res.Duration) * time.Second).String(),
		Met:      res.Duration < MaxDuration.Seconds(),
	})
	return out
}

// otherRoutes lists the requests that are neither list pages nor single
// reads, by route: ", 1 GET /api/v1/account".
func otherRoutes(q Requests) string {
	var routes []string
	for route := range q.ByRoute {
		if route != "GET /api/v1/websites" && route != "GET /api/v1/websites/{id}" && q.ByRoute[route] > 0 {
			routes = append(routes, route)
		}
	}
	slices.Sort(routes)
	var out string
	for _, r := range routes {
		out += fmt.Sprintf(", %d %s", q.ByRoute[r], r)
	}
	if out == "" && q.Total > q.List+q.Search+q.Show {
		out = fmt.Sprintf(", %d other", q.Total-q.List-q.Search-q.Show)
	}
	return out
}

// requestMix lists the kinds of requests that were sent.
func requestMix(q Requests) string {
	var parts []string
	for _, p := range []struct {
		name string
		n    int
	}{
		{"list pages", q.List}, {"searches by domain", q.Search}, {"single reads", q.Show}, {"other GET", q.OtherGet},
		{"POST", q.Post}, {"PUT", q.Put}, {"DELETE", q.Delete},
	} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func joinFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(s, ", ")
}

// throttledTotal sums the steps of the throttled pass.
type throttledTotal struct {
	Wall, Bound, Wait float64
	Throttled, Failed int
}

func throttledTotals(r *Run) (t throttledTotal) {
	for _, s := range r.Steps {
		t.Wall += s.Wall
		t.Bound += s.LowerBound
		t.Wait += s.ThrottleWait
		t.Throttled += s.Requests.Throttled
		if !s.OK() {
			t.Failed++
		}
	}
	return t
}

package bench

import (
	"strings"
	"testing"
)

func TestCheckDestroyPlan(t *testing.T) {
	t.Parallel()
	const summary = "Plan: 0 to add, 0 to change, 100 to destroy."
	stats := func(n int) Requests {
		return Requests{Total: n + 2, List: 2, ByRoute: map[string]int{statisticsRoute: n}}
	}
	for _, tc := range []struct {
		name    string
		n       int
		step    *Step
		wantErr string
	}{
		{"the budget used", 100, &Step{Summary: summary, Requests: stats(20)}, ""},
		{"one request each below the budget", 5, &Step{Summary: "Plan: 0 to add, 0 to change, 5 to destroy.", Requests: stats(5)}, ""},
		{"past the budget", 100, &Step{Summary: summary, Requests: stats(21)}, "21 statistics requests, want 20"},
		{"no statistics checked", 100, &Step{Summary: summary, Requests: stats(0)}, "0 statistics requests"},
		{"more than destroys", 100, &Step{Summary: "Plan: 1 to add, 0 to change, 100 to destroy.", Requests: stats(20)}, "want 100 to destroy"},
		{"a write", 100, &Step{Summary: summary, Requests: Requests{Delete: 1}}, "1 write requests"},
		{"an earlier error is kept", 100, &Step{Error: "terraform exited with code 1"}, "exited with code 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkDestroyPlan(tc.step, tc.n)
			if (tc.wantErr == "") != (tc.step.Error == "") || !strings.Contains(tc.step.Error, tc.wantErr) {
				t.Errorf("error %q, want %q", tc.step.Error, tc.wantErr)
			}
		})
	}
}

func TestDestroyPlanReport(t *testing.T) {
	t.Parallel()
	res := &Results{Runs: []*Run{{Pass: PassDestroyPlan, Kind: KindWebsite, N: 100, Steps: []*Step{
		{Name: StepCreate, Wall: 3, Requests: Requests{Total: 101, Post: 100}},
		{Name: StepDestroyPlan, Wall: 1.5, Summary: "Plan: 0 to add, 0 to change, 100 to destroy.",
			Requests: Requests{Total: 23, List: 2, ByRoute: map[string]int{statisticsRoute: 20}}},
	}}}}
	tg, ok := destroyPlanTarget(res)
	if !ok || !tg.Met || !strings.Contains(tg.Measured, "20 statistics requests of 23 in all, 1.50 s") {
		t.Errorf("target %+v", tg)
	}
	var b strings.Builder
	writeDestroyPlan(&b, res)
	if !strings.Contains(b.String(), "| plan -destroy | 1.50 s | 23 | 20 | 2 |") {
		t.Errorf("report:\n%s", b.String())
	}
	if _, ok := destroyPlanTarget(&Results{}); ok {
		t.Error("a target without the pass")
	}
}

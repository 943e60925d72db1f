package bench

import (
	"strings"
	"testing"
)

func TestAdoptConfiguration(t *testing.T) {
	t.Parallel()
	got := AdoptConfiguration(500)
	for _, want := range []string{
		`source = "analytics-tf/analytics"`,
		`for i in range(500) : "adopt-${i}.bench-example.com" => { email_reports = i % 3 == 0 }`,
		"import {\n  for_each = local.websites\n  to       = analytics_website.site[each.key]\n  id       = each.key\n}",
		"resource \"analytics_website\" \"site\" {\n  for_each      = local.websites\n  domain        = each.key\n  email_reports = each.value.email_reports\n}",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("AdoptConfiguration lacks %q:\n%s", want, got)
		}
	}
	// The websites the bench creates are the ones the configuration names.
	if AdoptDomain(7) != "adopt-7.bench-example.com" || !adoptEmailReports(0) || adoptEmailReports(1) || !adoptEmailReports(3) {
		t.Error("AdoptDomain or adoptEmailReports disagree with the configuration")
	}
}

func TestCheckAdoption(t *testing.T) {
	t.Parallel()
	step := func(name, summary string, q Requests) *Step {
		return &Step{Name: name, Summary: summary, Requests: q}
	}
	for _, tc := range []struct {
		step    *Step
		wantErr string
	}{
		{step(StepImportPlan, "Plan: 500 to import, 0 to add, 0 to change, 0 to destroy.", Requests{Total: 6, List: 5}), ""},
		{step(StepImportApply, "Apply complete! Resources: 500 imported, 0 added, 0 changed, 0 destroyed.", Requests{}), ""},
		{step(StepRefresh, "No changes. Your infrastructure matches the configuration.", Requests{}), ""},
		{step(StepImportPlan, "Plan: 500 to import, 0 to add, 3 to change, 0 to destroy.", Requests{}), "want 500 imports"},
		{step(StepImportPlan, "Plan: 499 to import, 1 to add, 0 to change, 0 to destroy.", Requests{}), "want 500 imports"},
		{step(StepImportApply, "", Requests{}), "want 500 imports"},
		{step(StepImportApply, "Apply complete! Resources: 500 imported, 0 added, 0 changed, 0 destroyed.", Requests{Put: 1}), "1 write requests"},
		{step(StepRefresh, "", Requests{Post: 2}), "2 write requests"},
	} {
		checkAdoption(tc.step, 500)
		if (tc.wantErr == "") != (tc.step.Error == "") || !strings.Contains(tc.step.Error, tc.wantErr) {
			t.Errorf("%s %q %+v: error %q, want %q", tc.step.Name, tc.step.Summary, tc.step.Requests, tc.step.Error, tc.wantErr)
		}
	}
	failed := &Step{Name: StepImportPlan, Error: "terraform exited with code 1"}
	checkAdoption(failed, 500)
	if failed.Error != "terraform exited with code 1" {
		t.Errorf("checkAdoption replaced an error: %q", failed.Error)
	}
}

func TestAdoptTotals(t *testing.T) {
	t.Parallel()
	r := &Run{Steps: []*Step{
		{Name: StepImportPlan, Wall: 1, ThrottleWait: 0.5, Requests: Requests{Total: 3, List: 2, OtherGet: 1, ByStatus: map[string]int{"200": 3}}},
		{Name: StepImportApply, Wall: 2, ThrottleWait: 1, Requests: Requests{Total: 5, List: 2, Search: 1, OtherGet: 1, Throttled: 1, ByStatus: map[string]int{"200": 4, "429": 1}}},
		{Name: StepRefresh, Wall: 4, Requests: Requests{Total: 100}},
	}}
	q, wall, wait, ok := adoptTotals(r)
	if !ok || wall != 3 || wait != 1.5 || q.Total != 8 || q.List != 4 || q.Search != 1 || q.OtherGet != 2 || q.Throttled != 1 ||
		q.ByStatus["200"] != 7 || q.Successful() != 7 {
		t.Errorf("adoptTotals = %+v, %v, %v, %t", q, wall, wait, ok)
	}
	r.Steps[1].Error = "failed"
	if _, _, _, ok := adoptTotals(r); ok {
		t.Error("ok with a failed apply")
	}
	if _, _, _, ok := adoptTotals(&Run{Steps: r.Steps[:1]}); ok {
		t.Error("ok without an apply")
	}
	if got := toRealWindow(2.5, 6); got != 25 {
		t.Errorf("toRealWindow(2.5, 6) = %v, want 25", got)
	}
	if got := requestMix(q); got != "4 list pages, 1 searches by domain, 2 other GET" {
		t.Errorf("requestMix = %q", got)
	}
	if got := requestMix(Requests{}); got != "none" {
		t.Errorf("requestMix(none) = %q", got)
	}
}

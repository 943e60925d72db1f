package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// MaxAdoptN is the largest adoption pass: the configuration lists the
// domains with Terraform's range(), which stops at 1,024 elements.
const MaxAdoptN = 1000

// AdoptDomain is the domain of the i-th website of the adoption pass.
func AdoptDomain(i int) string { return fmt.Sprintf("adopt-%d.bench-example.com", i) }

// adoptEmailReports is whether the i-th website of the adoption pass sends
// e-mail reports (every third), so that not every website has the
// defaults.
func adoptEmailReports(i int) bool { return i%3 == 0 }

// AdoptConfiguration is the configuration that adopts the n websites of
// the adoption pass, the way a user brings existing websites under
// Terraform (Terraform 1.7 and later): import blocks with for_each that
// import each website by its domain, and a matching resource with
// for_each.
func AdoptConfiguration(n int) string {
	return analyticsProvider + fmt.Sprintf(`
locals {
  websites = {
    for i in range(%d) : "adopt-${i}.bench-example.com" => { email_reports = i %% 3 == 0 }
  }
}

import {
  for_each = local.websites
  to       = analytics_website.site[each.key]
  id       = each.key
}

resource "analytics_website" "site" {
  for_each      = local.websites
  domain        = each.key
  email_reports = each.value.email_reports
}
`, n)
}

// createWebsites creates the n websites of the adoption pass through the
// API (POST /websites), as the web interface or another tool would, before
// Terraform knows them.
func (s *apiServer) createWebsites(ctx context.Context, n int) error {
	hc := &http.Client{Timeout: 30 * time.Second}
	for i := range n {
		email := "0"
		if adoptEmailReports(i) {
			email = "1"
		}
		form := url.Values{"domain": {AdoptDomain(i)}, "privacy": {"0"}, "email": {email}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/api/v1/websites", strings.NewReader(form.Encode()))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+emulator.DefaultAPIKey)
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("creating %s: %s: %s", AdoptDomain(i), resp.Status, body)
		}
	}
	return nil
}

// adoptSteps are the steps of the adoption pass: the plan (which must show
// n imports and nothing else), the apply, and a refresh that must find
// nothing to change.
var adoptSteps = []string{StepImportPlan, StepImportApply, StepRefresh}

// adoptPass creates n websites through the API and adopts them with import
// blocks, with or without the throttle.
func (b *bench) adoptPass(ctx context.Context, n int, throttled bool) (*Run, error) {
	pass, name := PassAdopt, fmt.Sprintf("adopt-%d", n)
	if throttled {
		pass, name = PassAdoptThrottled, name+"-throttled"
	}
	run := &Run{Pass: pass, Kind: KindWebsite, N: n}
	api, w, err := b.site(name, emulator.Options{})
	if err != nil {
		return run, err
	}
	defer api.close()
	if err := api.createWebsites(ctx, n); err != nil {
		return run, fmt.Errorf("adoption pass: %w", err)
	}
	if throttled {
		api.emu.SetRateLimit(b.cfg.RateLimit, b.cfg.RateWindow) // a fresh window
	}
	w.config = func(n int, _ bool) string { return AdoptConfiguration(n) }
	if err := w.configure(n, false); err != nil {
		return run, err
	}
	b.runSteps(ctx, run, w, adoptSteps, func(_ string, s *Step) {
		w.check(s, n, 0)
		checkAdoption(s, n)
		if throttled {
			s.LowerBound = b.lowerBound(s)
		}
	})
	return run, ctx.Err()
}

// checkAdoption records in s.Error what is wrong with an adoption step:
// the plan and the apply must import n websites and do nothing else, and
// no step may write to the API.
func checkAdoption(s *Step, n int) {
	if s.Error != "" {
		return
	}
	if w := s.Requests.Writes(); w != 0 {
		s.Error = fmt.Sprintf("%d write requests (POST %d, PUT %d, DELETE %d)", w, s.Requests.Post, s.Requests.Put, s.Requests.Delete)
		return
	}
	if s.Name != StepImportPlan && s.Name != StepImportApply {
		return
	}
	got, ok := ParseSummary(s.Summary)
	if want := (Summary{Import: n}); !ok || got != want {
		s.Error = fmt.Sprintf("Terraform's summary is %q, want %d imports and no other change", s.Summary, n)
	}
}

// adoptTotals returns the requests, the wall time and the throttle wait of
// the plan and the apply together, and whether both passed.
func adoptTotals(r *Run) (req Requests, wall, wait float64, ok bool) {
	return totals(r, StepImportPlan, StepImportApply)
}

// totals returns the requests, the wall time and the throttle wait of the
// steps of r named steps together, and whether each ran and passed.
func totals(r *Run, steps ...string) (req Requests, wall, wait float64, ok bool) {
	ok = true
	for _, name := range steps {
		s := r.step(name)
		if s == nil {
			return req, wall, wait, false
		}
		req = req.add(s.Requests)
		wall += s.Wall
		wait += s.ThrottleWait
		ok = ok && s.OK()
	}
	return req, wall, wait, ok
}

// realWindow is the real API's throttle window.
const realWindow = time.Minute

// toRealWindow scales a time measured under a throttle window of window
// seconds to the real window: waiting for the throttle takes as many
// windows either way.
func toRealWindow(seconds, window float64) float64 {
	if window <= 0 {
		return 0
	}
	return seconds * realWindow.Seconds() / window
}

// runSteps runs steps one after the other in w, checks each with check and
// records it in run; once a step has failed, the rest are recorded as
// skipped.
func (b *bench) runSteps(ctx context.Context, run *Run, w *workspace, steps []string, check func(step string, s *Step)) {
	for _, step := range steps {
		if failed(run) {
			run.Steps = append(run.Steps, skippedStep(step, b.cfg.Parallelism))
			continue
		}
		s := w.run(ctx, step)
		check(step, s)
		run.Steps = append(run.Steps, s)
		logStep(b.cfg.Log, run, s)
	}
}

// skippedStep records a step not run because an earlier one failed.
func skippedStep(step string, parallelism int) *Step {
	return &Step{Name: step, Skipped: true, Command: append([]string{"terraform"}, commandFor(step, parallelism)...)}
}

package provider

// Operations Terraform gives no deadline, while the server asks for an
// hour's wait (review rev44ag). Each wait of such an operation is bounded
// (client.UntimedWaitLimit), not the operation.

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsiteStatistics_throttledForAnHourFailsAtOnce: the
// analytics_website_statistics data source, read while the server asks
// for an hour's wait (429, Retry-After: 3600). Terraform gives a data
// source no deadline: its look-up by domain and its statistics requests
// waited out the hour. The plan is interrupted (SIGINT, as Ctrl-C) after
// 90s so that the test fails instead of hanging; the outcome does not
// depend on timing: the plan fails at once or is interrupted.
func TestAccWebsiteStatistics_throttledForAnHourFailsAtOnce(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to every request from a wrapper")
	acctest.Parent(t)
	for _, by := range []string{"domain", "website_id"} {
		t.Run(by, func(t *testing.T) {
			var on atomic.Bool
			env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}),
				acctest.Wrap(throttleWhen(&on, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/v1/") }, "3600")))
			w := acctest.NewWorkdir(t)
			site := `
resource "analytics_website" "w" {
  domain = "stats-throttled.example.com"
}
`
			w.Write("main.tf", env.Config(site))
			w.MustRun(0, "apply", "-auto-approve")
			ref := `"stats-throttled.example.com"`
			if by == "website_id" {
				ref = "analytics_website.w.id"
			}
			w.Write("main.tf", env.Config(site+fmt.Sprintf(`
data "analytics_website_statistics" "s" {
  %s = %s
}
`, by, ref)))
			restore := interruptedAfter(t, w, 90, false)
			on.Store(true)
			start := time.Now()
			out, code := w.Run("plan", "-refresh=false")
			took := time.Since(start)
			on.Store(false)
			restore()
			if code == 0 {
				t.Fatalf("the plan read the statistics through the throttle:\n%s", out)
			}
			if took > 75*time.Second {
				t.Errorf("the statistics data source (by %s) took %s (interrupted) on a server asking for an hour's "+
					"wait, want at once as the other data sources (5-minute bound):\n%s", by, took.Round(time.Second), out)
			}
		})
	}
}

// TestAccWebsites_hourWaitAdvice: data sources that the server asks for
// an hour's wait fail at once, without advice to raise a timeouts block
// (a data source has none) or the provider's timeout (it bounds one HTTP
// request): nothing configures the bound of an operation Terraform does
// not time. Deterministic (the server refuses at once).
func TestAccWebsites_hourWaitAdvice(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to every request from a wrapper")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}),
		acctest.Wrap(throttleWhen(&on, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/v1/") }, "3600")))
	env.Seed(env.Key, emulator.Website{Domain: "advice.example.com"})
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(`
data "analytics_websites" "all" {}
data "analytics_website" "one" {
  domain = "advice.example.com"
}
`))
	on.Store(true)
	out, code := w.Run("plan")
	on.Store(false)
	if code == 0 {
		t.Fatalf("the plan read through the throttle:\n%s", out)
	}
	if strings.Contains(out, "timeouts block") || strings.Contains(out, "provider's timeout") {
		t.Errorf("a data source cut by the fixed 5-minute bound is advised to raise a timeouts block it does not have, "+
			"or the provider's per-request timeout:\n%s", out)
	}
}

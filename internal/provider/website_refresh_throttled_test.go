package provider

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

// A refresh of many websites while the server throttles every request
// and asks for an hour's wait (429, Retry-After: 3600), past the reads'
// deadline (timeouts.read): it fails at once, saying when the server
// would answer, and every website stays in the state. Before, the reads'
// shared list pages and GETs waited out the hour while each read waited
// out its own five minutes. A data source by domain beside them (its
// lookup shares the list reads), and then a plan that creates one more
// website (the check of who holds its domain, FindHolders), fail at once
// too: Terraform gives them no deadline, and they waited out the hour
// (review rev44af). The throttled runs are interrupted (SIGINT, as
// Ctrl-C) after 150s, so that the test fails instead of hanging. The
// outcome does not depend on timing: the runs fail at once or after the
// interrupt; the bound only says so.
func TestAccWebsite_refreshThrottledForAnHourFailsAtOnce(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to every request from a wrapper")
	const n = 30
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}),
		acctest.Wrap(throttleWhen(&on, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/v1/") }, "3600")))
	w := acctest.NewWorkdir(t)
	websites := fmt.Sprintf(`
resource "analytics_website" "w" {
  count  = %d
  domain = "throttled-${count.index}.example.com"
}

data "analytics_website" "d" {
  domain = "throttled-0.example.com"
  depends_on = [analytics_website.w]
}
`, n)
	w.Write("main.tf", env.Config(websites))
	w.MustRun(0, "apply", "-auto-approve", "-parallelism=10")
	restore := interruptedAfter(t, w, 150, false)
	on.Store(true)
	start := time.Now()
	out, code := w.Run("apply", "-refresh-only", "-auto-approve", "-parallelism=10")
	took := time.Since(start)
	w.Write("main.tf", env.Config(strings.Split(websites, "data ")[0]+`
resource "analytics_website" "more" {
  domain = "throttled-more.example.com"
}
`))
	pstart := time.Now()
	pout, pcode := w.Run("plan", "-refresh=false", "-parallelism=10")
	ptook := time.Since(pstart)
	on.Store(false)
	restore()
	if code == 0 {
		t.Fatalf("the refresh succeeded through the throttle:\n%s", out)
	}
	// The first reads hear the 429 ("asked to retry after 1h0m0s"); the
	// others may be stopped before sending by the pacer, which learned
	// the window from them ("waiting 1h0m0s would end past the
	// operation's deadline"). Every error names the wait.
	if errs := strings.Count(out, "Error: "); errs == 0 || strings.Count(out, "1h0m0s") < errs {
		t.Errorf("not every error names the hour the server asked to wait:\n%s", out)
	}
	if took > 2*time.Minute {
		t.Errorf("the refresh took %s to fail on a wait of an hour, want at once:\n%s", took.Round(time.Second), out)
	}
	if !strings.Contains(pout, "Domains of New Websites Not Checked") && !strings.Contains(pout, "1h0m0s") {
		t.Errorf("the plan creating a website through the throttle says nothing of it (exit %d):\n%s", pcode, pout)
	}
	if ptook > 2*time.Minute {
		t.Errorf("the plan creating a website took %s to fail on a wait of an hour, want at once:\n%s", ptook.Round(time.Second), pout)
	}
	if got := strings.Count(string(w.Stdout("state", "list")), "analytics_website.w["); got != n {
		t.Errorf("%d of %d websites in the state after the throttled refresh", got, n)
	}
}

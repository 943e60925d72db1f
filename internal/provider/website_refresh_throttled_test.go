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
// out its own five minutes. The outcome does not depend on timing: the
// refresh fails at once or after twenty minutes; the bound only says so.
func TestAccWebsite_refreshThrottledForAnHourFailsAtOnce(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to every request from a wrapper")
	const n = 30
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}),
		acctest.Wrap(throttleWhen(&on, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/v1/") }, "3600")))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "w" {
  count  = %d
  domain = "throttled-${count.index}.example.com"
}
`, n)))
	w.MustRun(0, "apply", "-auto-approve", "-parallelism=10")
	on.Store(true)
	start := time.Now()
	out, code := w.Run("apply", "-refresh-only", "-auto-approve", "-parallelism=10")
	took := time.Since(start)
	on.Store(false)
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
		t.Errorf("the refresh took %s to fail on a wait of an hour, want at once", took.Round(time.Second))
	}
	if got := strings.Count(string(w.Stdout("state", "list")), "analytics_website.w["); got != n {
		t.Errorf("%d of %d websites in the state after the throttled refresh", got, n)
	}
}

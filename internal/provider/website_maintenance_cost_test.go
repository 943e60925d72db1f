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

// TestAccWebsite_maintenanceRefreshCost: a refresh of 10 websites while
// the server is in maintenance mode (php artisan down --retry=3600: 503
// with Retry-After: 3600 on every request, a wait past timeouts.read). It
// fails at once; the requests it sends are counted. 3a05359's Read asks
// again on its own whenever its GET failed with an error matching
// context.DeadlineExceeded (the client's *DeadlineError does), so every
// individual read costs two requests. 213f587: at most 12 requests here
// (a GET each, and the list page the reads try). Deterministic: the
// count does not depend on timing.
func TestAccWebsite_maintenanceRefreshCost(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 503 to every request from a wrapper")
	const n = 10
	var (
		on   atomic.Bool
		sent atomic.Int32
	)
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}),
		acctest.Wrap(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				if on.Load() && strings.HasPrefix(r.URL.Path, "/api/v1/") {
					sent.Add(1)
					rw.Header().Set("Retry-After", "3600")
					rw.Header().Set("Content-Type", "application/json")
					rw.WriteHeader(http.StatusServiceUnavailable)
					_, _ = rw.Write([]byte(`{"message": "Service Unavailable"}`))
					return
				}
				next.ServeHTTP(rw, r)
			})
		}))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "w" {
  count  = %d
  domain = "maint-${count.index}.example.com"
}
`, n)))
	w.MustRun(0, "apply", "-auto-approve")
	on.Store(true)
	out, code := w.Run("apply", "-refresh-only", "-auto-approve")
	on.Store(false)
	if code == 0 {
		t.Fatalf("the refresh succeeded in maintenance mode:\n%s", out)
	}
	t.Logf("%d requests", sent.Load())
	if got := sent.Load(); got > n+2 {
		t.Errorf("a refresh of %d websites in maintenance mode sent %d requests, want at most %d (one GET each "+
			"and the list page): each read asked again after its GET failed on the server's hour", n, got, n+2)
	}
}

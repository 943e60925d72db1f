package provider

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_keptKeptAfterThrottledCreateFirst (review
// rev44al): TestAccWebsite_keptKeptWhenCreateRunsFirst with a create that
// fails for a passing reason instead of "already taken": the server's
// throttle answers new's POST with a 429 whose Retry-After is longer than
// new's create timeout (the throttle is shared by every client of the
// address), so the create fails at once, nothing stored. It ran before
// old's removal (same ordering as that test: y's DELETE waits for the
// POST's answer), so no kept website could be put back; the removal then
// takes the website out of old's state (wasRefused knows only refusals
// for the domain), and it is in no resource's state: the next apply's
// create is refused, "import it".
func TestAccWebsite_keptKeptAfterThrottledCreateFirst(t *testing.T) {
	acctest.NeedsEmulator(t, "throttles a POST and holds a DELETE until it was answered")
	var (
		armed    atomic.Bool
		postOnce sync.Once
		posted   = make(chan struct{})
	)
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if armed.Load() && r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
				select {
				case <-posted:
				case <-time.After(30 * time.Second):
				}
			}
			if armed.Load() && r.Method == http.MethodPost && r.URL.Path == "/api/v1/websites" {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Retry-After", "120")
				w.Header().Set("X-RateLimit-Limit", "60")
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(120*time.Second).Unix(), 10))
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte("{\n    \"message\": \"Too Many Attempts.\"\n}"))
				postOnce.Do(func() { close(posted) })
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	w := acctest.NewWorkdir(t)
	domain, other := env.Domain("kept-429"), env.Domain("kept-429-dep")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "old" {
  domain       = %q
  skip_destroy = true
}
resource "analytics_website" "y" {
  domain     = %q
  depends_on = [analytics_website.old]
}
`, domain, other)))
	w.MustRun(0, "apply", "-auto-approve")
	kept := env.MustWebsite(t, domain)

	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "new" {
  domain       = %q
  skip_destroy = true
  timeouts {
    create = "30s"
  }
}
`, domain)))
	armed.Store(true)
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	armed.Store(false)
	select {
	case <-posted:
	default:
		t.Fatalf("new's POST was never sent (exit %d):\n%s", code, out)
	}
	if got := env.MustWebsite(t, domain); got.ID != kept.ID {
		t.Fatalf("the server holds website %d for %q, want the kept %d (exit code %d):\n%s", got.ID, domain, kept.ID, code, out)
	}
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["new"] != fmt.Sprint(kept.ID) && ids["old"] != fmt.Sprint(kept.ID) {
		t.Errorf("new's create failed (throttled) before old's removal ran; the website %d that skip_destroy kept "+
			"is on the server but in no resource's state (state ids %v; apply exit code %d):\n%s", kept.ID, ids, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID)
}

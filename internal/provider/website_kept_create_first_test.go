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

// TestAccWebsite_keptWhenCreateRunsFirst: a resource renamed without a
// moved block (analytics_website.old, skip_destroy = true, leaves the
// configuration; analytics_website.new, same domain and settings, is
// added). When old's removal runs first, new's failed create puts the kept
// website into new's state (TestAccWebsite_keptAdoptedByRenamedResource).
// Terraform does not order an orphan's destroy before another resource's
// create: here old's removal waits for the destroy of y, which depends on
// old, and y's DELETE is held until new's POST has been answered (no timer
// decides the order; a 30 s fallback only keeps a broken run from
// hanging). When new's create fails, refused for the domain or for a
// passing reason, old's removal would leave the website in no state, so
// old keeps it, with an error that says how to hand it over; the next
// apply, whatever its order, leaves the website in a state. When the web
// interface deleted the kept website after the plan and another website
// took its domain, old's removal loses nothing and runs.
func TestAccWebsite_keptWhenCreateRunsFirst(t *testing.T) {
	acctest.NeedsEmulator(t, "holds a DELETE until a POST was answered, and fails POSTs")
	acctest.Parent(t)
	for _, tc := range []struct {
		name string
		// post answers new's POST instead of the emulator, when set.
		post    func(w http.ResponseWriter)
		holder  bool // the kept website is deleted after the plan, another takes its domain
		timeout string
	}{
		{name: "domain taken"},
		{name: "throttled", timeout: "30s", post: func(w http.ResponseWriter) {
			// A Retry-After longer than the create's time limit: it fails at once.
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "120")
			w.Header().Set("X-RateLimit-Limit", "60")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(120*time.Second).Unix(), 10))
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte("{\n    \"message\": \"Too Many Attempts.\"\n}"))
		}},
		{name: "maintenance", timeout: "3s", post: func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("{\n    \"message\": \"Service Unavailable\"\n}"))
		}},
		{name: "another holder", holder: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				armed    atomic.Bool
				postOnce sync.Once
				posted   = make(chan struct{})
			)
			wrap := func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if !armed.Load() {
						h.ServeHTTP(w, r)
						return
					}
					if r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
						select {
						case <-posted:
						case <-time.After(30 * time.Second):
						}
					}
					if r.Method != http.MethodPost || r.URL.Path != "/api/v1/websites" {
						h.ServeHTTP(w, r)
						return
					}
					if tc.post != nil {
						tc.post(w)
					} else {
						h.ServeHTTP(w, r)
					}
					postOnce.Do(func() { close(posted) })
				})
			}
			env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
			w := acctest.NewWorkdir(t)
			domain, other := env.Domain("kept-first"), env.Domain("kept-first-dep")
			// Made an hour ago in the web interface, so that a create whose
			// outcome is unclear (503) cannot take it for its own
			// (client.CreateWebsite), and imported.
			kept := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: time.Now().Add(-time.Hour)})
			w.Write("main.tf", env.Config(fmt.Sprintf(`import {
  to = analytics_website.old
  id = "%d"
}
resource "analytics_website" "old" {
  domain       = %q
  skip_destroy = true
}
resource "analytics_website" "y" {
  domain     = %q
  depends_on = [analytics_website.old]
}
`, kept.ID, domain, other)))
			w.MustRun(0, "apply", "-auto-approve")
			timeouts := ""
			if tc.timeout != "" {
				timeouts = fmt.Sprintf("  timeouts {\n    create = %q\n  }\n", tc.timeout)
			}
			w.Write("main.tf", env.Config(fmt.Sprintf("resource \"analytics_website\" \"new\" {\n  domain       = %q\n"+
				"  skip_destroy = true\n%s}\n", domain, timeouts)))
			w.MustRun(0, "plan", "-out=tfplan")
			if tc.holder {
				env.Remove(t, domain)
				env.Seed(env.Key, emulator.Website{Domain: domain})
			}
			armed.Store(true)
			out, code := w.Run("apply", "-auto-approve", "-no-color", "tfplan")
			armed.Store(false)
			select {
			case <-posted:
			default:
				t.Fatalf("new's POST was never sent (exit %d):\n%s", code, out)
			}
			ids := stateIDs(t, w.Read("terraform.tfstate"))
			if tc.holder {
				if code == 0 || strings.Contains(out, "Website Kept in This State") || ids["old"] != "" {
					t.Errorf("the kept website %d was deleted after the plan and another website holds %q: want new's "+
						"create refused and old removed without a word of keeping it (state ids %v; exit code %d):\n%s",
						kept.ID, domain, ids, code, out)
				}
				return
			}
			if got := env.MustWebsite(t, domain); got.ID != kept.ID {
				t.Fatalf("the server holds website %d for %q, want the kept %d (exit code %d):\n%s", got.ID, domain, kept.ID, code, out)
			}
			switch fmt.Sprint(kept.ID) {
			case ids["new"]: // the removal ran first after all: the failed create put it back
			case ids["old"]:
				if !strings.Contains(out, "Website Kept in This State") {
					t.Errorf("the apply does not say why the website stays in old's state:\n%s", out)
				}
			default:
				t.Errorf("new's create failed before old's removal ran; the website %d that skip_destroy kept is on the "+
					"server but in no resource's state (state ids %v; apply exit code %d):\n%s", kept.ID, ids, code, out)
			}
			out, code = w.Run("apply", "-auto-approve", "-no-color")
			if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["new"] != fmt.Sprint(kept.ID) && ids["old"] != fmt.Sprint(kept.ID) {
				t.Errorf("after the next apply, the kept website %d is in no resource's state (state ids %v; exit code %d):\n%s",
					kept.ID, ids, code, out)
			}
		})
	}
}

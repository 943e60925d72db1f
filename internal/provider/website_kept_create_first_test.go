package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_keptKeptWhenCreateRunsFirst: a resource renamed without a
// moved block (analytics_website.old, skip_destroy = true, leaves the
// configuration; analytics_website.new, same domain and settings, is
// added). When old's removal runs first, new's refused create puts the
// kept website into new's state (TestAccWebsite_keptAdoptedByRenamedResource).
// Terraform does not order an orphan's destroy before another resource's
// create: here old's removal waits for the destroy of y, which depends on
// old, and y's DELETE is held until new's POST has been answered (no timer
// decides the order; a 30 s fallback only keeps a broken run from
// hanging). new's create is refused; old's removal would then leave the
// website in no state, so old keeps it, with an error that says how to
// hand it over. Whatever the order of the next apply, the website stays in
// a state.
func TestAccWebsite_keptKeptWhenCreateRunsFirst(t *testing.T) {
	acctest.NeedsEmulator(t, "holds a DELETE until a POST was answered")
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
			h.ServeHTTP(w, r)
			if armed.Load() && r.Method == http.MethodPost && r.URL.Path == "/api/v1/websites" {
				postOnce.Do(func() { close(posted) })
			}
		})
	}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	w := acctest.NewWorkdir(t)
	domain, other := env.Domain("kept-first"), env.Domain("kept-first-dep")
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
}
`, domain)))
	armed.Store(true)
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if got := env.MustWebsite(t, domain); got.ID != kept.ID {
		t.Fatalf("the server holds website %d for %q, want the kept %d (exit code %d):\n%s", got.ID, domain, kept.ID, code, out)
	}
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["new"] != fmt.Sprint(kept.ID) && ids["old"] != fmt.Sprint(kept.ID) {
		t.Errorf("the website %d that skip_destroy kept is on the server but in no resource's state (state ids %v; "+
			"apply exit code %d):\n%s", kept.ID, ids, code, out)
	}
	if !strings.Contains(out, "Website Kept in This State") {
		t.Errorf("the apply does not say why the website stays in old's state:\n%s", out)
	}
	armed.Store(false)
	out, code = w.Run("apply", "-auto-approve", "-no-color")
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["new"] != fmt.Sprint(kept.ID) && ids["old"] != fmt.Sprint(kept.ID) {
		t.Errorf("after the next apply, the kept website %d is in no resource's state (state ids %v; exit code %d):\n%s",
			kept.ID, ids, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID)
}

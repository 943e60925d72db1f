package provider

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Issue 44, defect 3: what still drops a website
// that skip_destroy kept, or puts the wrong one into a state.

// A tainted website with skip_destroy = true and unchanged settings, the
// case the restore is for. Its replacement's destroy half only removes it
// from the state (no request); the create is then refused for a passing
// reason before the server looks at the domain: the throttle (429, the
// retries used up), a connection refused, a failed GET /account. The
// restore runs only on "already taken", so the website, which the apply
// knows is on the server (it kept it a moment ago), leaves the state on a
// transient failure: no evidence at all that it is gone.
func TestAccWebsite_keptRestoredWhenCreateThrottled(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the stores")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(throttleRoute(&on, http.MethodPost, "/api/v1/websites", "60")))
	w, domain, id, out, code := keptApply(t, env, "kept-throttled", on.Store)
	wantKeptInState(t, env, w, domain, id, out, code, "a throttled create")
}

// The same with the installation in maintenance mode during the apply
// (php artisan down, every request answered 503, as during an upgrade).
// The destroy half sends nothing, so it succeeds; the create fails before
// the server could say whether the domain is taken. The website, kept on
// the server a moment ago, leaves the state.
func TestAccWebsite_keptRestoredWhenCreateInMaintenance(t *testing.T) {
	acctest.NeedsEmulator(t, "puts the installation into maintenance mode")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	w, domain, id, out, code := keptApply(t, env, "kept-maintenance", env.SetMaintenance)
	wantKeptInState(t, env, w, domain, id, out, code, "an apply during maintenance")
}

// Defect 3: the kept website and a create refused by
// maintenance mode. TestAccWebsite_keptRestoredWhenCreateInMaintenance starts the maintenance
// before the apply, so its first request (GET /account) fails and the
// create never sends its POST. An upgrade that starts during the apply,
// after the apply's plan read the account, answers the POST itself 503
// ({"message": "Service Unavailable"}: the application is down, nothing
// runs) and every lookup after it. The client calls a 503 to a POST an
// unknown outcome, so the kept website leaves the state, though nothing
// can have been stored: the maintenance answer runs before the
// application, and the kept website, which holds the domain, makes any
// store of it refused.
func TestAccWebsite_keptRestoredWhenMaintenanceStartsAtPost(t *testing.T) {
	acctest.NeedsEmulator(t, "puts the installation into maintenance mode at the first POST")
	var armed atomic.Bool
	var env *acctest.Env
	down := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if armed.Load() && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
				env.SetMaintenance(true)
			}
			next.ServeHTTP(rw, r)
		})
	}
	env = acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(down))
	w, domain, id, out, code := keptApply(t, env, "kept-down-at-post", armed.Store)
	env.SetMaintenance(false)
	wantKeptInState(t, env, w, domain, id, out, code, "a POST answered by maintenance mode")
}

// The same with a network that fails at the POST (the connection drops
// after the request was sent, and every request after it fails the same
// way): the changelog and the guide list "a network error" among the
// failures that put the kept website back. The POST's outcome is unknown
// to the client, and the lookups fail, so the kept website leaves the
// state, though it holds the domain and no store of it can succeed.
func TestAccWebsite_keptRestoredWhenNetworkDropsAtPost(t *testing.T) {
	acctest.NeedsEmulator(t, "drops the connections from the first POST on")
	var armed, down atomic.Bool
	drop := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if armed.Load() && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
				down.Store(true)
			}
			if down.Load() {
				if hj, ok := rw.(http.Hijacker); ok {
					if conn, _, err := hj.Hijack(); err == nil {
						_ = conn.Close()
						return
					}
				}
				panic(http.ErrAbortHandler)
			}
			next.ServeHTTP(rw, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(drop))
	w, domain, id, out, code := keptApply(t, env, "kept-net-at-post", func(on bool) { armed.Store(on); down.Store(false) })
	wantKeptInState(t, env, w, domain, id, out, code, "a network failure at the POST")
}

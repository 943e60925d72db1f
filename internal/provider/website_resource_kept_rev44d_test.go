package provider

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

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

// The second plan of a -replace was told from a tainted
// website's create by the owner the first plan remembered. On an older
// build without GET /account no owner is remembered, so -replace of a
// website with a stored-only domain (a trailing dot, imported) was called
// a tainted website, with the advice to run terraform untaint, which
// fails: the website was never tainted.
func TestAccWebsite_storedOnlyReplaceWithoutAccountNotCalledTainted(t *testing.T) {
	acctest.NeedsEmulator(t, "emulates a build without GET /account; seeds a website with a stored-only domain")
	wantReplaceNotCalledTainted(t, acctest.New(t, acctest.Emulator(emulator.Options{NoAccountEndpoint: true})))
}

// Defect 3's sibling (fix44h's domain-change warning): two
// resources of one configuration end with the same domain, a copy-paste
// slip: website a changes its domain to x (a replacement: a is deleted
// with its statistics, then x is created) and a new resource b creates x.
// No website holds x at plan, so the held-domain checks see nothing; the
// provider sees both plans (one instance). At apply, b's create and a's
// replacement race for x: when b won, a's website was deleted and its
// create refused. The plan now fails, whichever plan comes second, and
// nothing is deleted.
func TestAccWebsite_twoResourcesOneNewDomainRefusedAtPlan(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	from, to := env.Domain("dup-from"), env.Domain("dup-to")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
`, from)))
	w.MustRun(0, "apply", "-auto-approve")
	fromID := env.MustWebsite(t, from).ID
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
resource "analytics_website" "b" {
  domain = %q
}
`, to, to)))
	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		out := w.MustRun(1, cmd...)
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, "Two Websites Planned With One Domain") || !strings.Contains(flat, to) {
			t.Errorf("terraform %s: two resources create %q (one replacing %q), and it does not say so:\n%s",
				cmd[0], to, from, out)
		}
	}
	if got, err := env.FindWebsite(env.Key, from); err != nil || got.ID != fromID {
		t.Errorf("the failed apply deleted website %q (id %d): %v", from, fromID, err)
	}
	if got, err := env.FindWebsite(env.Key, to); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("the failed apply created a website %q (%v, %v)", to, got, err)
	}
	// Each resource its own domain again: the plan goes through.
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
  domain = %q
}
`, from)))
	w.MustRun(0, "plan", "-no-color")
	if acctest.LiveMode() { // the in-process emulator goes away with the test
		_, _ = w.Run("destroy", "-auto-approve")
	}
}

// Truthful plans: terraform taint of an ordinary website
// (skip_destroy = false), the common way to recreate one. The destroy
// half deletes the website before the create, so the create cannot be
// refused for the domain; yet the plan warned "Domain Already Held: Create
// May Be Refused" with advice for skip_destroy = true ("cannot succeed",
// untaint). Terraform plans a tainted website's create with no prior
// state, so the provider cannot tell its own website from another's: the
// warning stays, but says that for this resource's own tainted website
// whose state says skip_destroy = false the replacement succeeds.
func TestAccWebsite_taintedWithoutSkipDestroySaysReplacementSucceeds(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("tainted-ordinary")
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", domain))))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "taint", websiteAddr)
	if d, ok := planWarnings(w.PlanDiags(), heldSummary)[websiteAddr]; ok {
		flat := strings.Join(strings.Fields(d.Detail), " ")
		if !strings.Contains(flat, "its state says skip_destroy = false, the apply deletes it and its statistics before the create") ||
			!strings.Contains(flat, "the replacement succeeds") {
			t.Errorf("the plan of a tainted website with skip_destroy = false, whose destroy runs before its "+
				"create, gives skip_destroy = true's advice: %s", d.Detail)
		}
	}
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// unknownCreates answers, while on is set, every POST /websites with a 500
// after the emulator stored it, and every list of websites with a 503,
// so that the create's lookup cannot settle what the store did.
func unknownCreates(on *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if on.Load() && strings.HasSuffix(r.URL.Path, "/api/v1/websites") &&
				(r.Method == http.MethodPost || r.Method == http.MethodGet) {
				status, body := http.StatusInternalServerError, `{"message":"Server Error"}`
				if r.Method == http.MethodGet {
					status, body = http.StatusServiceUnavailable, `{"message":"Service Unavailable"}`
				} else {
					next.ServeHTTP(httptest.NewRecorder(), r) // stored, the answer lost
				}
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(status)
				_, _ = rw.Write([]byte(body))
				return
			}
			next.ServeHTTP(rw, r)
		})
	}
}

// A tainted website with skip_destroy = true whose replacement's create
// ends without a clear answer, after another writer deleted the kept
// website: the create stored a new website, and the kept one is gone. Its
// read answers 404, but the API answers 404 for another user's website
// too, and a tainted website's kept private state names no owner, so the
// 404 is no proof: the kept website goes back into the state, tainted, and
// the error says a website may have been created and that the next
// refresh settles it. That refresh drops the deleted website (its owner
// unknown, the missing-website guard lets one website go), and the new
// one is left for an import, as the error says. While the kept website
// exists, no new website can hold its domain, and it is put back
// (TestAccWebsite_keptRestoredWhenMaintenanceStartsAtPost).
func TestAccWebsite_keptNotRestoredWhenCreateOutcomeUnknown(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the lookups")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(unknownCreates(&on)))
	w, domain, id, out, code := keptApply(t, env, "kept-unknown", func(arm bool) {
		if arm { // another writer deletes the kept website
			if err := env.API(env.Key).DeleteWebsite(t.Context(), env.MustWebsite(t, env.Domain("kept-unknown")).ID); err != nil {
				t.Fatal(err)
			}
		}
		on.Store(arm)
	})
	if code == 0 {
		t.Fatalf("the apply succeeded:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "May Have Been Created") || !strings.Contains(flat, "the next refresh") {
		t.Errorf("the error does not say the create may have stored a website and the next refresh settles it:\n%s", out)
	}
	refreshOut := w.MustRun(0, "apply", "-refresh-only", "-auto-approve", "-no-color")
	if got, ok := stateIDs(t, w.Read("terraform.tfstate"))["test"]; ok {
		t.Errorf("the refresh after the failed create kept the deleted website %s in the state:\n%s\n%s", got, out, refreshOut)
	}
	if w := env.MustWebsite(t, domain); w.ID == id {
		t.Errorf("the new website has the kept id %d", id)
	} else {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), w.ID)
	}
}

// keptApply is the path of a tainted website with skip_destroy = true:
// it applies one (a domain from name), taints it, saves the plan of its
// replacement, and applies that plan with arm(true) in force (arm(false)
// after). It returns the workdir, the domain, the kept website's id and
// the apply's output and exit code.
func keptApply(t *testing.T, env *acctest.Env, name string, arm func(on bool)) (w *acctest.Workdir, domain string,
	id int64, out string, code int,
) {
	t.Helper()
	w = acctest.NewWorkdir(t)
	domain = env.Domain(name)
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
`, domain))
	w.MustRun(0, "apply", "-auto-approve")
	id = env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.MustRun(0, "plan", "-out=tfplan")
	arm(true)
	out, code = w.Run("apply", "-no-color", "tfplan")
	arm(false)
	return w, domain, id, out, code
}

// wantKeptInState fails t unless the kept website id is still on the
// server and in the state after keptApply's apply (after what), then
// deletes it.
func wantKeptInState(t *testing.T, env *acctest.Env, w *acctest.Workdir, domain string, id int64, out string, code int,
	after string,
) {
	t.Helper()
	if got := env.MustWebsite(t, domain).ID; got != id {
		t.Fatalf("the website %d is no longer on the server (%d is)", id, got)
	}
	if stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
		t.Errorf("the website %d is on the server but left the state after %s (apply exit code %d):\n%s",
			id, after, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

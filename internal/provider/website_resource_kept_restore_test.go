package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// unknownCreates answers, while on is set, every POST /websites with a 500
// (the server may have stored it) and every list of websites with a 503,
// so that the create's lookup cannot settle what the store did.
func unknownCreates(on *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if on.Load() && strings.HasSuffix(r.URL.Path, "/api/v1/websites") &&
				(r.Method == http.MethodPost || r.Method == http.MethodGet) {
				status, body := http.StatusInternalServerError, `{"message":"Server Error"}`
				if r.Method == http.MethodGet {
					status, body = http.StatusServiceUnavailable, `{"message":"Service Unavailable"}`
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
// ends without a clear answer: a new website with the domain may have
// been stored, so the kept one must not be put back into the state (two
// resources, or a state and a stray website, would then claim one
// domain). The error names the kept website's id to import.
func TestAccWebsite_keptNotRestoredWhenCreateOutcomeUnknown(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the lookups")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(unknownCreates(&on)))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-unknown")
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
`, domain))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.MustRun(0, "plan", "-out=tfplan")
	on.Store(true)
	out, code := w.Run("apply", "-no-color", "tfplan")
	on.Store(false)
	if code == 0 {
		t.Fatalf("the apply succeeded:\n%s", out)
	}
	if got, ok := stateIDs(t, w.Read("terraform.tfstate"))["test"]; ok {
		t.Errorf("a create whose outcome is unknown put website %s back into the state:\n%s", got, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "May Have Been Created") || !strings.Contains(flat, fmt.Sprintf("id = \"%d\"", id)) {
		t.Errorf("the error does not say the create may have stored a website and name the kept id %d:\n%s", id, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

package provider

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_refreshOnlyKeepsState: `terraform apply -refresh-only`,
// which saves whatever the refresh read, against a wrong base_url, with
// another user's key or behind a redirect, fails and leaves the state file
// exactly as it was.
func TestAccWebsite_refreshOnlyKeepsState(t *testing.T) {
	acctest.NeedsEmulator(t, "puts a web server's HTML 404 and a redirect in front of the API (handlers around the emulator)")
	w := newCLIWorkdir(t)
	var redirect atomic.Bool
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})), acctest.Wrap(proxy404, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if redirect.Load() {
				http.Redirect(rw, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusFound)
				return
			}
			next.ServeHTTP(rw, r)
		})
	}))
	w.write("main.tf", configAt(env, env.URL, acctest.KeyOwner))
	w.mustRun(0, "apply", "-auto-approve")
	state := w.read("terraform.tfstate")

	for _, c := range []struct {
		name, baseURL, key, want string
		redirect                 bool
	}{
		{"moved path prefix", env.URL + "/analytics", acctest.KeyOwner, "Unexpected Answer at base_url", false},
		{"proxy HTML 404", env.URL + "/proxy", acctest.KeyOwner, "Unexpected Answer at base_url", false},
		{"unknown path under /api/v1", env.URL + "/api/v1/v2", acctest.KeyOwner, "Unexpected Answer at base_url", false},
		{"another user's key", env.URL, acctest.KeyOther, "Website Belongs to Another User", false},
		{"redirect to https", env.URL, acctest.KeyOwner, "set base_url to https://", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			redirect.Store(c.redirect)
			defer redirect.Store(false)
			w.write("main.tf", configAt(env, c.baseURL, c.key))
			out := w.mustRun(1, "apply", "-refresh-only", "-auto-approve")
			if !strings.Contains(strings.Join(strings.Fields(out), " "), c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, out)
			}
			if got := w.read("terraform.tfstate"); got != state {
				t.Errorf("the state changed:\n%s", got)
			}
		})
	}
	w.write("main.tf", configAt(env, env.URL, acctest.KeyOwner))
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "destroy", "-auto-approve")
}

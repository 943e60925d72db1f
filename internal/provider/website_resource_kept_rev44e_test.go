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

// A tainted website kept by skip_destroy whose
// replacement's create ends with no clear answer (a 500 to the POST, the
// lookups 503) while the kept website still answers its read. The restore
// reasons that no new website can have been stored while the kept one
// holds the domain, and puts it back into the state; but the error still
// leads with the create's own "Website May Have Been Created": "The
// website may exist on the server although it is not in the Terraform
// state", "if the website ... is there, import it ... before applying
// again". The website the user then finds in the web interface is the one
// in the state: the import the message asks for fails ("Resource already
// managed"), and the user is sent to look for a website that cannot exist.
func TestAccWebsite_keptRestoredAfterUnknownOutcomeNoImportAdvice(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the lookups")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(unknownCreates(&on)))
	w, domain, id, out, code := keptApply(t, env, "kept-unknown-msg", on.Store)
	flat := strings.Join(strings.Fields(out), " ")
	for _, lie := range []string{"May Have Been Created", "may exist on the server although it is not in the Terraform state",
		"before applying again"} {
		if strings.Contains(flat, lie) {
			t.Errorf("the kept website is back in the state, yet the error says %q (exit code %d):\n%s", lie, code, out)
		}
	}
	// The error names the cause and the website now in the state.
	for _, want := range []string{"HTTP 500", fmt.Sprintf("website %d", id)} {
		if !strings.Contains(flat, want) {
			t.Errorf("the error does not say %q (exit code %d):\n%s", want, code, out)
		}
	}
	wantKeptInState(t, env, w, domain, id, out, code, "a create with no clear answer")
}

// The kept website and another website of the
// user with its domain (the application has no unique index on domains: a
// duplicate left by an earlier race). The replacement's POST gets a 500;
// the lookup finds both, made before this create: a DuplicateCreateError,
// which now counts as a create that may have stored. The restore reads the
// kept website, finds it, and puts it back into the state, appending that
// to the create's own "Website Created Twice ... Nothing was recorded in
// the state. Delete the extra website in the web interface": the user is
// told to delete one of two websites, one of which the state now holds
// (deleting a website deletes its statistics), and that the create stored
// one twice, which it did not.
func TestAccWebsite_keptRestoredAfterDuplicateNoDeleteAdvice(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores; seeds a website with a domain the user holds")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(failStores(&on)))
	name := "kept-dup"
	var dup int64
	w, domain, id, out, code := keptApply(t, env, name, func(arm bool) {
		if arm {
			dup = env.Seed(env.Key, emulator.Website{Domain: env.Domain(name), CreatedAt: time.Now().Add(-time.Hour)}).ID
		}
		on.Store(arm)
	})
	flat := strings.Join(strings.Fields(out), " ")
	for _, lie := range []string{"Nothing was recorded in the state", "Delete the extra website", "stored the website twice"} {
		if strings.Contains(flat, lie) {
			t.Errorf("the kept website %d is back in the state, yet the error (exit code %d) says %q:\n%s",
				id, code, lie, out)
		}
	}
	// The error tells the two apart: the kept one, now in the state, and
	// the other one, which it holds not.
	for _, want := range []string{"HTTP 500", fmt.Sprintf("website %d", id), fmt.Sprintf("Website %d", dup)} {
		if !strings.Contains(flat, want) {
			t.Errorf("the error does not say %q (exit code %d):\n%s", want, code, out)
		}
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), dup)
	wantKeptInState(t, env, w, domain, id, out, code, "a create that found a duplicate")
}

// The same create with no clear answer, but the
// tainted website's configuration changed (privacy) before the apply, so
// the kept website is not put back: it was kept with other settings. The
// error gives a reason the fix itself rules out: "A new website may have
// been stored too" (while the kept website holds the domain, no new one
// can), and sends the user to the web interface for it, instead of the
// reason a refused create gets (kept "with another configuration"). The
// kept website is still on the server, and no other website has its domain.
// Also when the read of the kept website fails (503): the reason stands.
func TestAccWebsite_keptOtherSettingsUnknownOutcomeGivesOwnReason(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the lookups")
	for name, readFails := range map[string]bool{"kept read": false, "kept read fails": true} {
		t.Run(name, func(t *testing.T) { keptOtherSettingsUnknown(t, readFails) })
	}
}

func keptOtherSettingsUnknown(t *testing.T, readFails bool) {
	var on atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		inner := unknownCreates(&on)(next)
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if readFails && on.Load() && r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/api/v1/websites/") {
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(http.StatusServiceUnavailable)
				_, _ = rw.Write([]byte(`{"message":"Service Unavailable"}`))
				return
			}
			inner.ServeHTTP(rw, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(wrap))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-other-unknown")
	hcl := func(privacy string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  privacy      = %q
  skip_destroy = true
}
`, domain, privacy)
	}
	w.Write("main.tf", hcl("public"))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", hcl("private"))
	w.MustRun(0, "plan", "-out=tfplan")
	out, flat, code := applyArmed(w, &on)
	if held := domainHolders(t, env, domain); len(held) != 1 || held[0] != id {
		t.Fatalf("the server holds %v with the domain, want only the kept website %d", held, id)
	}
	if strings.Contains(flat, "A new website may have been stored too") {
		t.Errorf("the kept website %d is the only one with the domain, yet the error (exit code %d) says a new "+
			"website may have been stored:\n%s", id, code, out)
	}
	if code == 0 || !strings.Contains(flat, "another configuration") {
		t.Errorf("the error (exit code %d) does not give the kept website's other configuration as the reason:\n%s",
			code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// failStores answers the stores (POST /websites) with a 500 while on is
// set, as the application does when a store fails.
func failStores(on *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if on.Load() && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(http.StatusInternalServerError)
				_, _ = rw.Write([]byte(`{"message":"Server Error"}`))
				return
			}
			next.ServeHTTP(rw, r)
		})
	}
}

package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
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
// tainted website's configuration changed (privacy) before the apply. The
// error once gave a reason the fix itself rules out: "A new website may
// have been stored too" (while the kept website holds the domain, no new
// one can). The kept website, with other settings, was then left in no
// state (review rev44an); it is put back as kept now, also when its read
// fails (503), and no other website has its domain.
func TestAccWebsite_keptOtherSettingsUnknownOutcomeGivesOwnReason(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the lookups")
	acctest.Parent(t)
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
	if ids := stateIDs(t, w.Read("terraform.tfstate")); code == 0 || ids["test"] != fmt.Sprint(id) {
		t.Errorf("the create failed without a clear outcome: want an error and the kept website %d put back into "+
			"the state as kept, whatever its settings (exit code %d, state ids %v):\n%s", id, code, ids, out)
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

// A kept, tainted website changed in the web interface after the taint
// (exclude_bots off), the configuration unchanged: the create is refused,
// and the kept website, whose settings now differ from the create's plan,
// was not put back: it left every state. The create takes it over now,
// with the configuration's settings, and says so; the plan's warning says
// that a change outside Terraform is updated.
func TestAccWebsite_keptTaintedChangedOutsideSaysSo(t *testing.T) {
	acctest.NeedsEmulator(t, "changes a website behind the provider's back")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w := acctest.NewWorkdir(t)
	d := env.Domain("kw")
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "k" {
  domain       = %q
  skip_destroy = true
}
`, d)))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, d).ID
	w.MustRun(0, "taint", "analytics_website.k")
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeBots = ptr(0) })
	plan := strings.Join(strings.Fields(w.MustRun(0, "plan")), " ")
	if !strings.Contains(plan, "outside Terraform") {
		t.Errorf("the plan's warning does not say that a change outside Terraform is updated:\n%s", plan)
	}
	out := w.MustRun(0, "apply", "-auto-approve")
	got, ok := env.Website(id)
	if !ok {
		t.Fatalf("website %d was deleted:\n%s", id, out)
	}
	if bots := got.ExcludeBots; !strings.Contains(out, "Website Taken Over") || bots == nil || *bots != 1 {
		t.Errorf("the apply does not take the kept website back with the configuration's exclude_bots:\n%s", out)
	}
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["k"] != fmt.Sprint(id) {
		t.Errorf("k's state holds %q, want the kept website %d", ids["k"], id)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
}

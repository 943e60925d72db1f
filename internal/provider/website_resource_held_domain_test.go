package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Issue 44, defect 3: the held-domain check that
// every create's plan runs, in one list of the user's websites shared by
// the run.

// manyCreatesHCL is n new websites (for_each) with domains under prefix,
// and more, a website for each of the domains in more.
func manyCreatesHCL(env *acctest.Env, n int, prefix string, more ...string) string {
	list := ""
	for _, d := range more {
		list += fmt.Sprintf(", %q", d)
	}
	return env.Config(fmt.Sprintf(`resource "analytics_website" "many" {
  for_each = toset(concat([for i in range(%d) : "c${i}.%s"], [%s]))
  domain   = each.value
}
`, n, prefix, strings.TrimPrefix(list, ", ")))
}

// 150 creates, one of them for a domain the user holds, with 120 websites
// the user holds already (more than one list page of 100): the plan warns
// for that one create only, with its id, and the shared list costs the
// list's pages twice per plan (a lookup by domain needs the domains of one
// moment; with a website limit, the count's page more), never a request
// per create.
func TestAccWebsite_heldManyCreatesCost(t *testing.T) {
	acctest.Serial(t, "plans of 150 creates with 120 websites, whose requests it counts")
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 120 websites")
	acctest.Parent(t)
	for _, c := range []struct {
		name, key string
		want      int // GET /websites of one plan
	}{
		{"unlimited", keyUnlimitedPlan, 4},
		{"limit", keyThreePlan, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := planUsers(t, c.key)
			opts.RateLimit, opts.RateWindow = 100000, time.Second
			env := acctest.New(t, acctest.Emulator(opts))
			w := acctest.NewWorkdir(t)
			var held emulator.Website
			for i := range 120 {
				s := env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint("old", i))})
				if i == 7 {
					held = s
				}
			}
			w.Write("main.tf", manyCreatesHCL(env, 149, env.Domain("new"), held.Domain))
			env.ResetStats()
			diags := w.PlanDiags("-parallelism=10")
			got := env.Stats().ByRoute["GET /api/v1/websites"]
			var warned []string
			for _, d := range diags {
				if d.Summary == heldSummary {
					warned = append(warned, d.Address)
					if !strings.Contains(d.Detail, fmt.Sprintf("(id %d)", held.ID)) {
						t.Errorf("the warning does not name website %d: %s", held.ID, d.Detail)
					}
				}
			}
			if want := fmt.Sprintf("analytics_website.many[%q]", held.Domain); len(warned) != 1 || warned[0] != want {
				t.Errorf("held-domain warnings at %v, want exactly %s", warned, want)
			}
			if got > c.want {
				t.Errorf("the plan of 150 creates sent %d GET /websites with 120 websites held; want %d (by route %v)",
					got, c.want, env.Stats().ByRoute)
			}
			t.Logf("GET /websites %d, by route %v", got, env.Stats().ByRoute)
		})
	}
}

// 120 websites imported by import blocks and 30 created, in one plan: the
// imports' reads sweep the list (the bulk reader), and the creates' shared
// held-domain list is served from that sweep once its pages read the
// same again. Measured: how many GET /websites the plan sends. Alone, 4
// (2 pages, read twice); how many create checks arrive before the sweep,
// each a search of one request, depends on when the CLI's calls come, so
// the bound is the reader's: at most about twice the sweep read twice (a
// loaded gate measured 7).
func TestAccWebsite_heldImportAndCreateCost(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 120 websites")
	opts := planUsers(t, keyUnlimitedPlan)
	opts.RateLimit, opts.RateWindow = 100000, time.Second
	env := acctest.New(t, acctest.Emulator(opts))
	w := acctest.NewWorkdir(t)
	ids := map[string]int64{}
	list := ""
	for i := range 120 {
		s := env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint("imp", i))})
		ids[s.Domain] = s.ID
		list += fmt.Sprintf("    %q = \"%d\"\n", s.Domain, s.ID)
	}
	w.Write("main.tf", manyCreatesHCL(env, 30, env.Domain("new"))+fmt.Sprintf(`
locals {
  imported = {
%s  }
}
resource "analytics_website" "imp" {
  for_each = local.imported
  domain   = each.key
}
import {
  for_each = local.imported
  to       = analytics_website.imp[each.key]
  id       = each.value
}
`, list))
	env.ResetStats()
	diags := w.PlanDiags("-parallelism=10")
	for _, d := range diags {
		if d.Severity == "error" || d.Summary == heldSummary {
			t.Errorf("unexpected diagnostic at %s: %s: %s", d.Address, d.Summary, d.Detail)
		}
	}
	got := env.Stats().ByRoute["GET /api/v1/websites"]
	t.Logf("GET /websites %d, by route %v", got, env.Stats().ByRoute)
	if got > 2*4+1 {
		t.Errorf("the plan of 120 imports and 30 creates sent %d GET /websites; the imports' sweep (2 pages, "+
			"read again for the lookups) could serve the creates' held-domain list", got)
	}
}

// throttleRoute answers 429 (Retry-After: retryAfter seconds) to every
// request of method to path while on is set, as the throttle does when
// other clients behind the same IP used it up; every other request goes
// through.
func throttleRoute(on *atomic.Bool, method, path, retryAfter string) func(http.Handler) http.Handler {
	return throttleWhen(on, func(r *http.Request) bool { return r.Method == method && r.URL.Path == path }, retryAfter)
}

// throttleWhen answers 429 (Retry-After: retryAfter seconds) to every
// request that route accepts while on is set.
func throttleWhen(on *atomic.Bool, route func(*http.Request) bool, retryAfter string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if on.Load() && route(r) {
				rw.Header().Set("Retry-After", retryAfter)
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(http.StatusTooManyRequests)
				_, _ = rw.Write([]byte("{\n    \"message\": \"Too Many Attempts.\"\n}"))
				return
			}
			next.ServeHTTP(rw, r)
		})
	}
}

// A tainted website with skip_destroy = true whose configuration now
// changes a setting, planned while the throttle refuses the list of
// websites: the plan must not fail, and it cannot tell that the domain is
// held. At apply (the throttle gone), the destroy half only removes the
// website from the state, the create is refused, and the kept website is
// not put back (its settings differ from the plan's): it leaves the
// state, defect 3 as filed. The plan that could not look the domain up
// said nothing at all (the failed lookup is only logged at debug level):
// it must say that it could not check, or the website must stay.
func TestAccWebsite_heldListThrottledPlanSaysUnchecked(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the list of websites only")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(throttleRoute(&on, http.MethodGet, "/api/v1/websites", "1")))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("held-429")
	config := func(bots bool) string {
		return env.ProviderBlock("max_retries = 1") + fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
  exclude_bots = %t
}
`, domain, bots)
	}
	w.Write("main.tf", config(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", config(false))

	on.Store(true)
	diags := w.PlanDiags("-out=tfplan")
	on.Store(false)
	var said []string
	for _, d := range diags {
		said = append(said, d.Severity+": "+d.Summary)
	}
	out, code := w.Run("apply", "-no-color", "tfplan")
	inState := stateIDs(t, w.Read("terraform.tfstate"))["test"] == fmt.Sprint(id)
	if !inState && len(said) == 0 {
		t.Errorf("the plan (list throttled) said nothing, and the apply (exit code %d) left the website %d on "+
			"the server but not in the state:\n%s", code, id, out)
	}
	t.Logf("plan diagnostics: %v; apply exit %d, in state %t", said, code, inState)
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// failReads answers 503 (Service Unavailable, as during an upgrade) to
// every GET of one website by id while on is set; lists and writes go
// through.
func failReads(on *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if on.Load() && r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/v1/websites/") {
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(http.StatusServiceUnavailable)
				_, _ = rw.Write([]byte("{\n    \"message\": \"Service Unavailable\"\n}"))
				return
			}
			next.ServeHTTP(rw, r)
		})
	}
}

// A tainted website with skip_destroy = true and unchanged settings: the
// case the restore is for. When the one read that restores it fails for a
// passing reason (a 503 here, with the retries used up), the kept website
// is not put back, and it leaves the state: a transient failure is no
// evidence that it is gone, and the kept state alone is a sound state for
// a website that was in the state a moment ago (Terraform refreshes it
// next time). The website must stay in the state.
func TestAccWebsite_keptRestoreReadFailsStaysInState(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 503 to the reads of one website by id")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(failReads(&on)))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-read-fails")
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
	if stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
		t.Errorf("the website %d is on the server but left the state after one failed read (apply exit code %d):\n%s",
			id, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// A tainted website with skip_destroy = true and unchanged settings,
// planned; before the apply, it is deleted outside Terraform and another
// website gets its id and its domain (ids are reused: website_identity.go),
// created later. The create is refused (the other website holds the
// domain), and the restore reads the kept id: the domain matches, so the
// other website is put into the state, although its creation time says it
// is another website than the one kept, which every other operation
// (refresh, update, delete: otherWebsite) refuses to treat as the managed
// one. Nothing of the other website may come into the state.
func TestAccWebsite_keptRestoreRefusesReusedID(t *testing.T) {
	acctest.NeedsEmulator(t, "gives the kept website's id and domain to another website")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-reused")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	kept := env.MustWebsite(t, domain)
	w.MustRun(0, "taint", websiteAddr)
	w.MustRun(0, "plan", "-out=tfplan")
	if err := env.API(env.Key).DeleteWebsite(t.Context(), kept.ID); err != nil {
		t.Fatal(err)
	}
	other := env.Seed(env.Key, emulator.Website{ID: kept.ID, Domain: domain, CreatedAt: kept.CreatedAt.Add(time.Hour)})
	out, code := w.Run("apply", "-no-color", "tfplan")
	state := w.Read("terraform.tfstate")
	if stateIDs(t, state)["test"] == fmt.Sprint(kept.ID) && strings.Contains(state, other.CreatedAt.UTC().Format(time.RFC3339)) {
		t.Errorf("the state holds the other website under id %d (created %s; the kept one was created %s), "+
			"apply exit code %d:\n%s", other.ID, other.CreatedAt.UTC().Format(time.RFC3339),
			kept.CreatedAt.UTC().Format(time.RFC3339), code, out)
	}
}

// Websites whose stored domain no new website may have (a trailing dot,
// Unicode: imported, or made before the provider refused them), with
// skip_destroy = true, tainted. Their replacement is planned as a create
// of that domain. What the plan says must be true of a tainted website
// (the held-domain check names it), not only "this plan creates".
func TestAccWebsite_heldStoredOnlyTaintedNamed(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds websites with domains the provider refuses for a new website")
	acctest.Parent(t)
	for _, c := range []struct{ name, domain string }{
		{"trailing dot", "shop-%s.example.com."},
		{"unicode", "bücher-%s.example"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
			w := acctest.NewWorkdir(t)
			domain := fmt.Sprintf(c.domain, strings.ToLower(strings.Split(env.Domain("x"), "-")[2]))
			s := env.Seed(env.Key, emulator.Website{Domain: domain})
			w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
import {
  to = analytics_website.test
  id = "%d"
}
`, domain, s.ID)))
			w.MustRun(0, "apply", "-auto-approve")
			w.MustRun(0, "taint", websiteAddr)
			out, code := w.Run("plan", "-no-color")
			said := strings.Join(strings.Fields(out), " ")
			t.Logf("plan exit %d:\n%s", code, out)
			if !strings.Contains(said, "untaint") || !strings.Contains(said, fmt.Sprint(s.ID)) {
				t.Errorf("the plan of the tainted website %d (%q), exit code %d, neither names it nor says to untaint it",
					s.ID, domain, code)
			}
		})
	}
}

// A tainted website with skip_destroy = true on an older build without
// GET /account, planned with and without -refresh=false: the held-domain
// check still runs (one list) and names the website.
func TestAccWebsite_heldCheckWithoutAccountOrRefresh(t *testing.T) {
	acctest.NeedsEmulator(t, "emulates a build without GET /account")
	env := acctest.New(t, acctest.Emulator(emulator.Options{NoAccountEndpoint: true}))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("held-old-build")
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n", domain))))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	for _, args := range [][]string{nil, {"-refresh=false"}} {
		d, ok := planWarnings(w.PlanDiags(args...), heldSummary)[websiteAddr]
		if !ok || !strings.Contains(d.Detail, fmt.Sprintf("(id %d)", id)) {
			t.Errorf("plan %v: no held-domain warning naming %d: %+v", args, id, d)
		}
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 1 || stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
		t.Errorf("the kept website was not put back on an older build (exit code %d):\n%s", code, out)
	}
	w.MustRun(0, "untaint", websiteAddr)
	w.MustRun(0, "plan", "-detailed-exitcode")
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// A website (skip_destroy = false) leaves the configuration and another
// resource creates its domain in the same apply, after the delete
// (terraform_data orders them); a third, free create takes the apply's
// shared list early. The plan warns (true: the create is refused unless
// the delete runs first); the apply must create the website without a
// warning that it will be refused.
func TestAccWebsite_heldDeletedEarlierInApplyCreates(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain, free := env.Domain("held-moved"), env.Domain("held-free")
	site := func(name, domain string, dep bool) string {
		s := fmt.Sprintf("resource \"analytics_website\" %q {\n  domain = %q\n", name, domain)
		if dep {
			s += "  depends_on = [terraform_data.order]\n"
		}
		return s + "}\n"
	}
	order := "resource \"terraform_data\" \"order\" {\n  triggers_replace = %q\n}\n"
	w.Write("main.tf", env.Config(fmt.Sprintf(order, "1")+site("old", domain, true)))
	w.MustRun(0, "apply", "-auto-approve")
	old := env.MustWebsite(t, domain)
	w.Write("main.tf", env.Config(fmt.Sprintf(order, "2")+site("new", domain, true)+site("free", free, false)))
	w.MustRun(0, "plan", "-out=tfplan")
	out, code := w.Run("apply", "-no-color", "tfplan")
	if code != 0 || strings.Contains(out, heldSummary) {
		t.Errorf("apply: exit code %d:\n%s", code, out)
	}
	if got := env.MustWebsite(t, domain); got.ID == old.ID {
		t.Errorf("the old website %d still holds the domain", old.ID)
	}
	w.DestroyIfLive()
}

// A tainted website with a password and skip_destroy = true whose create is
// refused and which is put back, at TF_LOG=trace: neither the password nor
// the API key appears in Terraform's log or output (the restore, the
// held-domain list and its debug line included).
func TestAccWebsite_keptRestoreTraceHidesSecrets(t *testing.T) {
	const password = "kept-canary-password-7f3a9c"
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	logPath := w.Dir() + "/trace.log"
	w.Env = append(w.Env, "TF_LOG=trace", "TF_LOG_PATH="+logPath)
	domain := env.Domain("kept-trace")
	w.Write("main.tf", env.Config(fmt.Sprintf(`variable "pw" {
  type      = string
  sensitive = true
  default   = %q
}
resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
  privacy      = "password"
  password     = var.pw
}
`, password, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 1 || stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
		t.Fatalf("the kept website was not put back (exit code %d):\n%s", code, out)
	}
	log := w.Read("trace.log")
	if !strings.Contains(log, "removing the website from the state only") {
		t.Fatalf("the trace log holds no provider log (%d bytes)", len(log))
	}
	for name, secret := range map[string]string{"password": password, "API key": env.Key} {
		if strings.Contains(log, secret) || strings.Contains(out, secret) {
			t.Errorf("the %s appears in the trace log or the output", name)
		}
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// A tainted website with skip_destroy = true and create_before_destroy: the
// create runs first and is refused; the old object must stay in the state
// (Terraform keeps the deposed object), and the error must not tell the
// user to import a website their state still holds.
func TestAccWebsite_keptTaintedCreateBeforeDestroy(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-cbd")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
  lifecycle {
    create_before_destroy = true
  }
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
		t.Errorf("the website %d left the state (exit code %d):\n%s", id, code, out)
	}
	t.Logf("exit %d:\n%s", code, out)
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// At the website limit, a create of a domain the user holds (a second
// resource for it, or a tainted website): the limit warning says "If the
// website held is not the one Terraform manages, the create adds a second
// website with that domain", while the held-domain warning of the same
// plan says, truly, that the create will be refused: the server never
// stores a second website with a domain that is taken. And it says the
// create "fits, whichever runs first" without create_before_destroy,
// counting it as a replacement that deletes first: nothing is deleted (the
// website held is not managed here, or skip_destroy keeps it), and the
// server refuses the create at 3 of 3. The plan must not promise either.
func TestAccWebsite_heldAtLimitWarningsAgree(t *testing.T) {
	acctest.NeedsEmulator(t, "a user whose plan allows three websites")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)))
	w := acctest.NewWorkdir(t)
	var held emulator.Website
	for i := range 3 {
		held = env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint("lim", i))})
	}
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", held.Domain))))
	diags := w.PlanDiags()
	var refused bool
	for _, d := range diags {
		refused = refused || d.Summary == heldSummary
	}
	for _, d := range diags {
		if refused && (strings.Contains(d.Detail, "adds a second website") || strings.Contains(d.Detail, "fits, whichever runs first")) {
			t.Errorf("the plan says both that the create will be refused and that it adds a second website:\n%s: %s",
				d.Summary, d.Detail)
		}
	}
}

// The user holds websites whose stored domains a new website may not have
// (a trailing dot, Unicode); creates of their ASCII, dotless forms are
// other domains to the server (it compares the stored strings): no
// held-domain warning, and the creates succeed.
func TestAccWebsite_heldCanonicalFormsAreOtherDomains(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds websites with domains the provider refuses for a new website")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	tag := strings.Split(env.Domain("x"), "-")[2]
	dotted := fmt.Sprintf("shop-%s.example.com.", tag)
	unicode := fmt.Sprintf("bücher-%s.example", tag)
	env.Seed(env.Key, emulator.Website{Domain: dotted})
	env.Seed(env.Key, emulator.Website{Domain: unicode})
	ascii, problem := canonicalDomainOf(unicode)
	if problem != "" {
		t.Fatal(problem)
	}
	w.Write("main.tf", manyCreatesHCL(env, 0, "unused.example", strings.TrimSuffix(dotted, "."), ascii))
	for _, d := range w.PlanDiags() {
		if d.Summary == heldSummary {
			t.Errorf("held-domain warning at %s: %s", d.Address, d.Detail)
		}
	}
	w.MustRun(0, "apply", "-auto-approve")
	w.DestroyIfLive()
}

// The apply of 150 creates with 120 websites held (unlimited plan): the
// plan walk and the apply walk each sweep the list (2 pages), one POST per
// create, nothing else. How many sweeps a walk makes depends on when the
// CLI's calls arrive (a create stored between two lookups can cost one
// more sweep): at most two a walk, never a request per create.
func TestAccWebsite_heldManyCreatesApplyCost(t *testing.T) {
	acctest.Serial(t, "150 creates and 120 websites: a heavy apply, whose requests it counts")
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 120 websites")
	env, w := heldEnv(t, 120, "old")
	w.Write("main.tf", manyCreatesHCL(env, 150, env.Domain("new")))
	env.ResetStats()
	w.MustRun(0, "apply", "-auto-approve")
	s := env.Stats()
	t.Logf("by route %v", s.ByRoute)
	if got := s.ByRoute["GET /api/v1/websites"]; got > 8 || s.ByMethod["POST"] != 150 || s.Total-s.ByRoute["GET /api/v1/account"] > 158 {
		t.Errorf("the apply of 150 creates: by route %v; want 150 POST and at most 8 GET /websites", s.ByRoute)
	}
	// No destroy: the emulator goes with the test, and 150 deletes would
	// prove nothing this test is about.
}

// One website imported into two resources (a and b, the same settings,
// skip_destroy = true), both tainted: both destroy halves keep the same
// website, recorded twice. The refused creates then find "2 websites" with
// the domain, and name its id twice ("ids N, N"): none is put back, and the
// message counts one website as two. One website kept twice is one
// website: it should be put back (into the first create refused), or the
// message should name it once.
func TestAccWebsite_keptSameWebsiteTwiceCountedOnce(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-twice")
	s := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: domain})
	body := fmt.Sprintf("  domain       = %q\n  skip_destroy = true\n", domain)
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "a" {
%s}
resource "analytics_website" "b" {
%s}
import {
  to = analytics_website.a
  id = "%d"
}
import {
  to = analytics_website.b
  id = "%d"
}
`, body, body, s.ID, s.ID)))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "taint", "analytics_website.a")
	w.MustRun(0, "taint", "analytics_website.b")
	out, _ := w.Run("apply", "-auto-approve", "-no-color")
	said := strings.Join(strings.Fields(out), " ")
	ids := stateIDs(t, w.Read("terraform.tfstate"))
	if twice := fmt.Sprintf("ids %d, %d", s.ID, s.ID); strings.Contains(said, twice) ||
		(ids["a"] != fmt.Sprint(s.ID) && ids["b"] != fmt.Sprint(s.ID)) {
		t.Errorf("the website %d, kept twice, is in neither state (a %q, b %q), or named twice:\n%s",
			s.ID, ids["a"], ids["b"], out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), s.ID)
}

// One new website for a user who holds 1000: the held-domain check of the
// create reads the whole list of the user's websites (ten pages of 100)
// at plan, and again when the apply plans the create, where one search by
// the domain (one request) tells the same. The throttle allows 60 requests
// a minute to every client of the IP; a user with 5000 websites spends 50
// of them at plan and 50 at apply to create one website, which before
// cost none. The shared list pays when creates are many; for a few, a
// search each is cheaper (the bulk reader's ski-rental choice). The floor
// kept: the list's first page, which tells what a sweep would cost (and is
// the whole list for up to 100 websites), and one search: 2 at plan and 2
// at apply, however many websites the user holds.
func TestAccWebsite_heldCheckOneCreateCostsAFewRequests(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 1000 websites")
	env, w := heldEnv(t, 1000, "many")
	domain := env.Domain("one-new")
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", domain))))
	env.ResetStats()
	w.MustRun(0, "plan", "-out=tfplan")
	atPlan := env.Stats().ByRoute["GET /api/v1/websites"]
	env.ResetStats()
	w.MustRun(0, "apply", "tfplan")
	atApply := env.Stats().ByRoute["GET /api/v1/websites"]
	t.Logf("GET /websites: plan %d, apply %d", atPlan, atApply)
	if atPlan > 2 || atApply > 2 {
		t.Errorf("one create with 1000 websites held sent %d GET /websites at plan and %d at apply; want a few",
			atPlan, atApply)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), env.MustWebsite(t, domain).ID)
}

// heldEnv is an emulator whose user holds n websites (domains
// env.Domain(prefix+i)), under a throttle no test reaches, and a
// workdir: the set-up of the tests that count a large account's requests.
func heldEnv(t *testing.T, n int, prefix string, more ...acctest.Option) (*acctest.Env, *acctest.Workdir) {
	t.Helper()
	opts := planUsers(t, keyUnlimitedPlan)
	opts.RateLimit, opts.RateWindow = 100000, time.Second
	env := acctest.New(t, append([]acctest.Option{acctest.Emulator(opts)}, more...)...)
	for i := range n {
		env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint(prefix, i))})
	}
	return env, acctest.NewWorkdir(t)
}

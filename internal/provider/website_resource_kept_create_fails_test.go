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
	opts := planUsers(t, keyUnlimitedPlan)
	opts.RateLimit, opts.RateWindow = 100000, time.Second
	env := acctest.New(t, acctest.Emulator(opts))
	w := acctest.NewWorkdir(t)
	for i := range 1000 {
		env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprint("many", i))})
	}
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

// Defect 5: the web interface repeats an exclude_ips line, and the
// configuration, in the same plan, removes that address. The plan shows
// the removal, and the write-back warning on the same attribute says "the
// server excludes the same addresses": after this apply it no longer
// excludes 1.2.3.4. The warning is true only when the write-back is all
// the update does to exclude_ips.
func TestAccWebsite_foldedIPsWarningNotBesideRemoval(t *testing.T) {
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("folded-changed")
	config := func(ips string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain      = %q\n  exclude_ips = %s\n", domain, ips)))
	}
	w.Write("main.tf", config(`["1.2.3.4", "5.6.7.8"]`))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "1.2.3.4\n1.2.3.4\n5.6.7.8")
	w.Write("main.tf", config(`["5.6.7.8"]`))
	for _, d := range w.PlanDiags() {
		if d.Summary == foldedIPsWarning && strings.Contains(d.Detail, "the server excludes the same addresses") {
			t.Errorf("the plan removes 1.2.3.4 from exclude_ips, yet warns: %s", d.Detail)
		}
	}
	w.DestroyIfLive()
}

// Defect 5: a configuration that hands exclude_ips to the web interface
// with lifecycle ignore_changes (an initial value, then edited there). The
// web interface repeats a line: the plan now updates the website to write
// the list back, although Terraform was told not to manage the attribute
// (the configuration's value is not the plan's: the state's is). The
// update writes what the last refresh read, over any edit made in the web
// interface since. Nothing should be planned.
func TestAccWebsite_foldedIPsIgnoreChangesPlansNothing(t *testing.T) {
	acctest.NeedsEmulator(t, "stores exclude_ips as the web interface does, past the API's input handling")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("folded-ignored")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain      = %q
  exclude_ips = ["1.2.3.4"]
  lifecycle {
    ignore_changes = [exclude_ips]
  }
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	setStoredIPs(t, env, domain, "9.9.9.9\n1.2.3.4\n9.9.9.9")
	if out, code := w.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("exclude_ips is in ignore_changes, yet the plan exits %d (want 0, no change):\n%s", code, out)
	}
	w.DestroyIfLive()
}

// Defect 3, what the plan says: a website with a domain no new website may
// have (a trailing dot: imported), skip_destroy = false, planned with
// -replace. Refusing the replacement is right (the create could not have
// that domain), but the plan also says "Domain Already Held: Probably a
// Tainted Website" and tells the user to run terraform untaint: the
// website is not tainted (untaint fails), and it is this resource's own,
// in its state, not one held elsewhere.
func TestAccWebsite_storedOnlyReplaceNotCalledTainted(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a website with a domain the provider refuses for a new website")
	wantReplaceNotCalledTainted(t, acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan))))
}

// wantReplaceNotCalledTainted imports a website with a stored-only domain
// (a trailing dot) into env and plans its -replace: the plan must not call
// it a tainted website nor say to untaint it, which fails.
func wantReplaceNotCalledTainted(t *testing.T, env *acctest.Env) {
	t.Helper()
	w := acctest.NewWorkdir(t)
	domain := fmt.Sprintf("shop-%s.example.com.", strings.ToLower(strings.Split(env.Domain("x"), "-")[2]))
	s := env.Seed(env.Key, emulator.Website{Domain: domain})
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain = %q
}
import {
  to = analytics_website.test
  id = "%d"
}
`, domain, s.ID)))
	w.MustRun(0, "apply", "-auto-approve")
	out, code := w.Run("plan", "-no-color", "-replace="+websiteAddr)
	if strings.Contains(out, "Probably a Tainted Website") || strings.Contains(out, "terraform untaint") {
		t.Errorf("the plan of -replace (exit code %d) calls the website tainted and says to untaint it:\n%s", code, out)
	}
	if _, code := w.Run("untaint", websiteAddr); code == 0 {
		t.Errorf("terraform untaint succeeded on a website that was never tainted")
	}
}

// The held-domain check covers creates only, not the create half of a
// replacement for a new domain. A managed website (skip_destroy = false,
// with statistics) gets, as its new domain, one the user already holds
// (made in the web interface): the plan warns that the replacement
// deletes the statistics, and says nothing of the domain. The apply
// deletes the website first, then the create is refused: the website and
// its statistics are gone, and nothing replaced them. The plan must say
// the create will be refused (the list it needs is the one the creates
// share).
func TestAccWebsite_domainChangeToHeldDomainWarnsRefused(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a website the configuration does not manage")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	w := acctest.NewWorkdir(t)
	from, to := env.Domain("change-from"), env.Domain("change-to")
	held := env.Seed(env.Key, emulator.Website{Domain: to})
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", from))))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", to))))
	var said bool
	for _, d := range w.PlanDiags() {
		said = said || strings.Contains(d.Detail, fmt.Sprint(held.ID)) && strings.Contains(d.Detail, "refused")
	}
	if !said {
		t.Errorf("the plan replaces %q with %q, held by website %d, and does not say the create will be refused",
			from, to, held.ID)
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if _, ok := env.WebsiteByDomain(from); !ok && code != 0 {
		t.Logf("as feared: the apply deleted %q, then failed (exit code %d):\n%s", from, code, out)
	}
}

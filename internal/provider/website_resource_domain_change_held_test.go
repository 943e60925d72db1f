package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const newDomainHeldSummary = "Domain Already Held: Replacement Would Be Refused"

// A domain change planned with -refresh=false after the web interface gave
// the website the new domain: the website that holds it is this one,
// whose delete frees it, so the plan must not warn that the create will be
// refused. A domain change with skip_destroy = true to a domain another
// website holds says that the old website leaves the state, not that it is
// deleted.
func TestAccWebsite_domainChangeHeldOwnAndKept(t *testing.T) {
	acctest.NeedsEmulator(t, "changes a website's domain past the API")
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	from, to := env.Domain("own-from"), env.Domain("own-to")
	config := func(domain string, skip bool) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = %t\n", domain, skip)))
	}
	w.Write("main.tf", config(from, false))
	w.MustRun(0, "apply", "-auto-approve")
	own := env.MustWebsite(t, from)
	if !env.UpdateWebsite(own.ID, func(w *emulator.Website) { w.Domain = to }) {
		t.Fatalf("website %d not found", own.ID)
	}
	w.Write("main.tf", config(to, false))
	if d, ok := planWarnings(w.PlanDiags("-refresh=false"), newDomainHeldSummary)[websiteAddr]; ok {
		t.Errorf("the plan warns of the website's own id %d: %s", own.ID, d.Detail)
	}

	_ = env.API(env.Key).DeleteWebsite(t.Context(), own.ID)

	w = acctest.NewWorkdir(t)
	kept := env.Domain("kept-from")
	held := env.Seed(env.Key, emulator.Website{Domain: env.Domain("kept-to")})
	w.Write("main.tf", config(kept, true))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config(held.Domain, true))
	d, ok := planWarnings(w.PlanDiags(), newDomainHeldSummary)[websiteAddr]
	if !ok || !strings.Contains(d.Detail, fmt.Sprintf("(id %d)", held.ID)) || !strings.Contains(d.Detail, "skip_destroy") ||
		strings.Contains(d.Detail, "and its statistics") {
		t.Errorf("skip_destroy = true, a domain held by %d: %+v", held.ID, d)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), env.MustWebsite(t, kept).ID)
	_ = env.API(env.Key).DeleteWebsite(t.Context(), held.ID)
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

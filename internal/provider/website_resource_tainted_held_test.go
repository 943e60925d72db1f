package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The held-domain warning of a tainted website
// now says, for a state with skip_destroy = false, "the apply deletes it
// and its statistics before the create ..., and the replacement succeeds",
// also when it found two websites with the domain (a duplicate an earlier
// race left: the application has no unique index on domains). Deleting this
// resource's own website leaves the other one holding the domain: the
// create is refused, after the delete. The apply deletes the website and
// its statistics and fails, and the plan said it would succeed.
func TestAccWebsite_taintedWithDuplicateNotPromisedToSucceed(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds two websites with one domain")
	env := acctest.New(t)
	domain := env.Domain("tainted-dup")
	old := time.Now().Add(-time.Hour)
	id1 := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	id2 := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	w := acctest.NewWorkdir(t)
	res := env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", domain)))
	w.Write("main.tf", res+fmt.Sprintf("import {\n  to = %s\n  id = \"%d\"\n}\n", websiteAddr, id1))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", res)
	w.MustRun(0, "taint", websiteAddr)
	d, warned := planWarnings(w.PlanDiags(), heldSummary)[websiteAddr]
	flat := strings.Join(strings.Fields(d.Detail), " ")
	out, code := w.Run("apply", "-auto-approve")
	held := domainHolders(t, env, domain)
	deleted := !slices.Contains(held, id1)
	if warned && strings.Contains(flat, "replacement succeeds") && code != 0 && deleted {
		t.Errorf("the plan warned that, with skip_destroy = false, the replacement succeeds (websites %d and %d hold "+
			"the domain); the apply deleted website %d and failed (exit code %d):\n%s\n%s", id1, id2, id1, code,
			d.Detail, out)
	}
	if !warned {
		t.Errorf("no held-domain warning")
	}
	for _, id := range held {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
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

// The held-domain warning of a tainted website is hedged by
// the configuration's skip_destroy (fix44u), but the destroy half of the
// replacement follows the state's. A website with skip_destroy = false,
// tainted, then configured with skip_destroy = true: the plan warns "the
// replacement cannot succeed" and to untaint, yet the apply deletes it and
// the replacement succeeds (deleting its statistics).
func TestAccWebsite_taintedSkipDestroyTurnedOnWarningFollowsState(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("tainted-turned-on")
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n", domain))))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", env.Config(websiteHCL(fmt.Sprintf("  domain = %q\n  skip_destroy = true\n", domain))))
	d, warned := planWarnings(w.PlanDiags(), heldSummary)[websiteAddr]
	out, code := w.Run("apply", "-auto-approve")
	replaced := code == 0 && env.MustWebsite(t, domain).ID != id
	if flat := strings.Join(strings.Fields(d.Detail), " "); warned && replaced && strings.Contains(flat, "cannot succeed") &&
		!strings.Contains(flat, "skip_destroy = false") {
		t.Errorf("the plan warned that the replacement cannot succeed, and the apply replaced website %d:\n%s\n%s",
			id, d.Detail, out)
	}
	w.MustRun(0, "destroy", "-auto-approve")
}

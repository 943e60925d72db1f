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

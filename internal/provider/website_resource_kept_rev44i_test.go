package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// A create cancelled before any request
// reached the application, after skip_destroy kept its domain's website,
// no longer says "apply again to create it" (the replacement cannot
// succeed while the kept website holds the domain). With two websites kept
// with the domain (a duplicate an earlier race left, both managed, both
// skip_destroy), the cancel still gets the create's own error: "Create
// Cancelled ... apply again to create it", followed by "kept 2 websites".
// Applying again creates the domain again, and the server refuses it.
func TestAccWebsite_twoKeptCancelNotToldApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the store, interrupts the CLI, seeds two websites with one domain")
	w := acctest.NewWorkdir(t)
	on := newCancelAt429(t, w)
	_, id1, id2 := twoKeptEnv(t, w, on.wrap, "two-kept-cancel")
	out, flat, code := applyArmed(w, on)
	if !strings.Contains(flat, "Interrupt received") || !strings.Contains(flat, "kept 2 websites") ||
		!strings.Contains(flat, "Create Cancelled") {
		t.Fatalf("the apply (exit code %d) was not cancelled during the create after keeping both websites (the "+
			"scenario did not happen):\n%s", code, out)
	}
	// The cancel came during the 429 wait: no request reached the
	// application, and no create can succeed while the kept websites
	// hold the domain ("Create Cancelled" alone also
	// matched the in-flight error).
	for _, wrong := range []string{"apply again", "May Have Been Created"} {
		if strings.Contains(flat, wrong) {
			t.Errorf("websites %d and %d, kept by this apply, hold the domain, and the create was cancelled before "+
				"its request was sent, yet the error (exit code %d) says %q:\n%s", id1, id2, code, wrong, out)
		}
	}
}

// The same with one kept website that this
// resource does not hold as kept: tainted and given another setting in the
// same plan (exclude_bots), so the restore finds another configuration.
// The cancelled create's own error says "apply again to create it", though
// the kept website holds the domain and the create is refused again.
func TestAccWebsite_keptOtherConfigCancelNotToldApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the store and interrupts the CLI")
	w := acctest.NewWorkdir(t)
	on := newCancelAt429(t, w)
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(on.wrap))
	domain := env.Domain("kept-other-cancel")
	hcl := func(bots bool) string {
		return env.ProviderBlock() + fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
  exclude_bots = %t
}
`, domain, bots)
	}
	w.Write("main.tf", hcl(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", hcl(false))
	w.MustRun(0, "plan", "-out=tfplan")
	out, flat, code := applyArmed(w, on)
	if !strings.Contains(flat, "Interrupt received") || !strings.Contains(flat, "Create Cancelled") ||
		!strings.Contains(flat, "does not hold it") {
		t.Fatalf("the apply (exit code %d) was not cancelled during the create after keeping the website with "+
			"another configuration (the scenario did not happen):\n%s", code, out)
	}
	if strings.Contains(flat, "apply again to create it") {
		t.Errorf("website %d, kept by this apply, holds the domain: a create cannot succeed, yet the error "+
			"(exit code %d) says \"apply again to create it\":\n%s", id, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

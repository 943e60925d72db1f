package provider

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccWebsite_twoKeptCancelNotToldApplyAgain made a cancelled create that
// reached no one stop saying "apply again to create it" while websites
// skip_destroy kept hold its domain. A cancel that comes once the store has
// reached the application (Ctrl-C while the server works on it) is an
// unknown outcome, and with two kept websites the restore reads them to
// learn whether they held the domain throughout (keptStillHeld). After a
// Ctrl-C those reads ran on the cancelled context, so they failed at once,
// and the error was the create's own: "Create Cancelled; Website May Have
// Been Created ... otherwise apply again", followed by "kept 2 websites".
// Both kept websites held the domain before the store was sent (the server
// refuses a held domain), so applying again is refused again, and the
// import by domain it suggested is ambiguous. The reads now get a grace
// after a cancel (restoreContext).
func TestAccWebsite_twoKeptCancelInFlightNotToldApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store, interrupts the CLI, seeds two websites with one domain")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	_, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-inflight")
	out, flat, code := applyArmed(w, hold)
	hold.wantInterruptedKeepingBoth(t, out, flat, code)
	for _, lie := range []string{"otherwise apply again", "apply again to create it"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d, kept by this apply, held the domain before the store was sent: a create "+
				"is refused while they hold it, yet the error (exit code %d) says %q:\n%s", id1, id2, code, lie, out)
		}
	}
}

package provider

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccWebsite_twoKeptCancelInFlightNotToldApplyAgain's case (two websites kept, Ctrl-C
// while the store is in flight) with a server that is slow right then (the
// reason one presses Ctrl-C): the reads of the kept websites, given
// cancelGrace (5 s) each, time out. keptStillHeld then finds nothing, and
// the error is again the create's own: "import it (terraform import
// <address> <domain> ...) before applying again; otherwise apply again".
// Both kept websites held the domain before the store was sent, so the
// create is refused again, and the import by domain is ambiguous. The
// one-kept path says what it knows when its read fails ("It could not be
// read ... While it holds the domain, the server stores no other website
// with it"); the two-kept path does not. The apply ends 2 x cancelGrace
// after the interrupt (logged). Now the error says what it knows, and
// the reads share one grace.
func TestAccWebsite_twoKeptCancelUnreadSaysDomainHeld(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store and the reads after it, interrupts the CLI")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	hold.slowRead = func() bool { return true } // the server is slow now
	var interrupted atomic.Int64
	hold.onSent = func() { interrupted.Store(time.Now().UnixNano()) }
	_, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-slow")
	out, flat, code := applyArmed(w, hold)
	took := time.Since(time.Unix(0, interrupted.Load()))
	if !hold.sent.Load() || !strings.Contains(flat, "Interrupt received") {
		t.Fatalf("the apply (exit code %d) was not interrupted during the store (the scenario did not happen):\n%s",
			code, out)
	}
	t.Logf("interrupted apply ended %s after the interrupt (exit code %d):\n%s", took.Round(time.Millisecond), code, out)
	if !strings.Contains(flat, "Not all of them could be read") || !strings.Contains(flat, "stores no other website") {
		t.Errorf("the error (exit code %d) does not say that the kept websites could not be read, and that while "+
			"one holds the domain no other website is stored:\n%s", code, out)
	}
	for _, lie := range []string{"otherwise apply again", "apply again to create it"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d, kept by this apply, held the domain before the store was sent, yet the "+
				"error (exit code %d) says %q", id1, id2, code, lie)
		}
	}
}

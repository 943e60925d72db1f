package provider

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Two
// websites kept by skip_destroy, a create cancelled in flight, and both
// kept websites deleted by another writer meanwhile. The restore reads
// them (keptStillHeld): both answer 404 for the key's user, who made
// them. The one-kept path then says that the kept website is gone, so a
// new website may have been stored. The several-kept path appends to the
// create's own error "To manage it with this resource, import it: an
// import block with id = "<id1>" or "<id2>"", ids that the reads just
// showed gone: that import fails.
func TestAccWebsite_twoKeptGoneNoImportOfGoneIDs(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store, deletes the kept websites, interrupts the CLI")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	env, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-gone")
	hold.onSent = func() {
		// Another writer deletes both kept websites while the store runs.
		for _, id := range []int64{id1, id2} {
			if err := env.API(env.Key).DeleteWebsite(context.Background(), id); err != nil {
				t.Errorf("delete %d: %v", id, err)
			}
		}
	}
	out, flat, code := applyArmed(w, hold)
	hold.wantInterruptedKeepingBoth(t, out, flat, code)
	// The errors only: the apply's plan warned, when both websites were
	// there, to import one of them.
	errs := flat[strings.Index(flat, "Error:"):]
	if !strings.Contains(errs, "Reads show them gone now") {
		t.Errorf("the error (exit code %d) does not say that the kept websites are gone:\n%s", code, out)
	}
	for _, id := range []int64{id1, id2} {
		if c := fmt.Sprintf("id = \"%d\"", id); strings.Contains(errs, c) {
			t.Errorf("website %d was deleted, and the restore's read answered 404, yet the error (exit code %d) "+
				"advises an import block with %s:\n%s", id, code, c, out)
		}
	}
}

// The reads of the kept websites after a create
// cancelled in flight now share one grace (5 s), one after the other. When
// the first kept website's read hangs (a slow server), it uses the whole
// grace, and the second read, which would answer at once and show its
// website still holding the domain, fails unsent. The error then says
// "Not all of them could be read ... the create may have stored a new
// website: check the web interface" where, with a grace per read (c3ba2e8),
// it said that a read shows a kept website still there, so no new website
// can have been stored. Reads made at once within the one grace would
// keep both the bound and the answer.
func TestAccWebsite_twoKeptHungReadKeepsHeldAnswer(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store and the first read after it, interrupts the CLI")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	var firstRead atomic.Bool
	// One website's read is slow; the other answers at once.
	hold.slowRead = func() bool { return !firstRead.Swap(true) }
	_, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-grace")
	out, flat, code := applyArmed(w, hold)
	if !hold.sent.Load() || !firstRead.Load() || !strings.Contains(flat, "Interrupt received") {
		t.Fatalf("the apply (exit code %d) was not interrupted during the store, or read no kept website (the "+
			"scenario did not happen):\n%s", code, out)
	}
	if !strings.Contains(flat, "No new website can have been stored") {
		t.Errorf("websites %d and %d were kept; one read hung, the other would have shown its website still "+
			"there, yet the error (exit code %d) does not say that no new website can have been stored:\n%s",
			id1, id2, code, out)
	}
}

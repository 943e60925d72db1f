package provider

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Review rev44j (of 02f8f6d, e300732): rev44i made a cancelled create that
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
func TestAccWebsite_rev44jTwoKeptCancelInFlightSaysApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store, interrupts the CLI, seeds two websites with one domain")
	w := acctest.NewWorkdir(t)
	dir := w.Dir()
	var armed, sent atomic.Bool
	hold := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if !armed.Load() || r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
				next.ServeHTTP(rw, r)
				return
			}
			// The store reached the application; Ctrl-C while it works.
			_, _ = io.Copy(io.Discard, r.Body) // then the server notices a closed connection
			if !sent.Swap(true) && interruptChildCLI(t, &dir) == 0 {
				t.Error("no CLI to interrupt")
			}
			select {
			case <-r.Context().Done(): // the client gave up on it
			case <-time.After(time.Minute):
			}
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusInternalServerError)
			_, _ = rw.Write([]byte(`{"message":"Server Error"}`))
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(hold))
	_, id1, id2 := twoKeptPlan(t, env, w, "two-kept-inflight")
	armed.Store(true)
	out, code := w.Run("apply", "-no-color", "tfplan")
	armed.Store(false)
	flat := strings.Join(strings.Fields(out), " ")
	if !sent.Load() || !strings.Contains(flat, "Interrupt received") || !strings.Contains(flat, "kept 2 websites") {
		t.Fatalf("the apply (exit code %d) was not interrupted during the store after keeping both websites (the "+
			"scenario did not happen):\n%s", code, out)
	}
	for _, lie := range []string{"otherwise apply again", "apply again to create it"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d, kept by this apply, held the domain before the store was sent: a create "+
				"is refused while they hold it, yet the error (exit code %d) says %q:\n%s", id1, id2, code, lie, out)
		}
	}
}

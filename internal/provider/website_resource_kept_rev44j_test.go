package provider

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Review rev44j (of 02f8f6d, e300732): rev44i made a cancelled create that
// reached no one stop saying "apply again to create it" while websites
// skip_destroy kept hold its domain. A cancel that comes once the store has
// reached the application (Ctrl-C while the server works on it) is an
// unknown outcome, and with two kept websites the restore reads them to
// learn whether they held the domain throughout (keptStillHeld). After a
// Ctrl-C those reads run on the cancelled context (restoreContext gives
// time again only after a deadline), so they fail at once, and the error is
// the create's own: "Create Cancelled; Website May Have Been Created ...
// if the website is there, import it ... before applying again; otherwise
// apply again", followed by "kept 2 websites". Both kept websites held the
// domain before the store was sent (the server refuses a held domain), so
// applying again is refused again, and the import by domain it suggests is
// ambiguous (two websites have it).
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
	domain := env.Domain("two-kept-inflight")
	old := time.Now().Add(-time.Hour)
	id1 := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	id2 := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	a := fmt.Sprintf(`resource "analytics_website" "a" {
  domain       = %q
  skip_destroy = true
}
`, domain)
	w.Write("main.tf", env.ProviderBlock()+a+fmt.Sprintf(`
import {
  to = analytics_website.a
  id = "%d"
}
import {
  to = analytics_website.b
  id = "%d"
}
resource "analytics_website" "b" {
  domain       = %q
  skip_destroy = true
  depends_on   = [analytics_website.a]
}
`, id1, id2, domain))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock()+a)
	w.MustRun(0, "taint", "analytics_website.a")
	w.MustRun(0, "plan", "-out=tfplan")
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
	for _, id := range []int64{id1, id2} {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
	}
}

package provider

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// An apply of 30 creates with 120 websites held, one at a time
// (-parallelism=1, so that the order is fixed). Terraform plans
// each create again during the apply (the held-domain check:
// FindHolders) while other creates run (Write). Every successful create
// leaves id 0 "changed, outcome unknown" in the bulk reader
// (Write's forgetLocked(0)), so the checks that follow send
// GET /websites/0, a request that can only answer 404.
func TestAccWebsite_heldChecksOfCreatesReadNoID(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 120 websites")
	var zero atomic.Int64
	count := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites/0" {
				zero.Add(1)
			}
			next.ServeHTTP(rw, r)
		})
	}
	env, w := heldEnv(t, 120, "old", acctest.Wrap(count))
	w.Write("main.tf", manyCreatesHCL(env, 30, env.Domain("new")))
	env.ResetStats()
	w.MustRun(0, "apply", "-auto-approve", "-parallelism=1")
	t.Logf("GET /websites/0: %d; by route %v", zero.Load(), env.Stats().ByRoute)
	if n := zero.Load(); n > 0 {
		t.Errorf("the apply of 30 creates sent GET /websites/0 %d times (by route %v)", n, env.Stats().ByRoute)
	}
}

// The same apply of 30 creates (one at a time, 120 websites
// held), where 3 creates are refused (422: another user holds their
// domains; nothing is created). The bulk reader records each refusal as
// a create of unknown outcome (lostCreate), so every held-domain check of
// the creates that follow searches the list, where the sweep answered
// them. Counted: GET /websites with a search, against the same apply
// without refusals.
func TestAccWebsite_heldChecksAfterRefusedCreate(t *testing.T) {
	acctest.NeedsEmulator(t, "counts the emulator's requests, seeds 120 websites and another user's")
	run := func(t *testing.T, refused bool) int64 {
		var searches atomic.Int64
		count := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && r.URL.Query().Get("search") != "" {
					searches.Add(1)
				}
				next.ServeHTTP(rw, r)
			})
		}
		env, w := heldEnv(t, 120, "old", acctest.Wrap(count))
		prefix := env.Domain("new")
		if refused {
			for i := range 30 {
				if i%10 == 0 { // another user's: these creates are refused
					env.Seed(keyThreePlan, emulator.Website{Domain: fmt.Sprintf("c%d.%s", i, prefix)})
				}
			}
		}
		w.Write("main.tf", manyCreatesHCL(env, 30, prefix))
		env.ResetStats()
		searches.Store(0)
		out, code := w.Run("apply", "-auto-approve", "-parallelism=1", "-no-color")
		if (code == 0) == refused {
			t.Fatalf("apply exit %d (refused creates: %v):\n%s", code, refused, out)
		}
		t.Logf("refused %v: searches %d; by route %v", refused, searches.Load(), env.Stats().ByRoute)
		return searches.Load()
	}
	base := run(t, false)
	got := run(t, true)
	if got > base+4 {
		t.Errorf("the apply of 30 creates, 3 of them refused, searched the list %d times; without the refusals %d", got, base)
	}
}

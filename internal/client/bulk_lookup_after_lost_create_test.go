package client_test

import (
	"fmt"
	"testing"
)

// One create answered 500 by the application (CreateWebsite
// looked the domain up afterwards and found nothing: it returns the 500)
// sets lostCreate, and from then on every FindHolders searches while the
// verified sweep stays fresh (a burst of checks, up to MaxAge): no ski
// rental brings a new sweep (planLocked fetches nothing while the sweep
// is fresh). 40 held-domain checks of an apply cost 40 searches, where a
// new verified sweep of the 3 pages costs about 6 and answers them all:
// more than twice the better strategy (the BulkReader doc's promise).
// The same as TestHeldChecksAfterRefusedCreateUseTheSweep (a 422), for a
// create of unknown outcome.
func TestHeldChecksAfterLostCreateCost(t *testing.T) {
	t.Parallel()
	env, _, b := sweptReader(t, 250) // 3 pages
	env.loseCreate(t, b, "lost.example.net")
	before, list0, _ := env.requests()
	for i := range 40 {
		d := fmt.Sprintf("new-%02d.example.net", i)
		ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
		if err != nil || len(ws) != 0 {
			t.Fatalf("FindHolders(%s) = %v, %v", d, ws, err)
		}
	}
	after, list, _ := env.requests()
	t.Logf("40 checks after one lost create: %d requests; %+v", after-before, b.Stats())
	if n := after - before; n > 12 {
		t.Errorf("40 held-domain checks after one create of unknown outcome cost %d requests (%d list); "+
			"a new verified sweep of 3 pages costs about 6 and answers them all", n, list-list0)
	}
}

package client_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// An apply's reads (the identity checks of updates) sweep the
// list once (unverified); the updates then run (Write); the creates'
// held-domain checks that follow outnumber the sweep's pages, so the
// sweep is read again to verify it (fetchVerify). The pages now differ
// from their first read by this process's own updates alone (updated_at
// moved), and the sweep is dropped as if another writer had changed the
// list (Changed). Write's promise: this process's own creates, updates
// and deletes do not make a sweep's pages disagree; only another
// writer's changes cost a second sweep or individual reads.
func TestVerifyBesideOwnUpdates(t *testing.T) {
	t.Parallel()
	env, ids, clock, b := readSweptReader(t, 250) // 3 pages
	clock.Advance(time.Second)
	// The server's updated_at has a resolution of one second: the
	// updates come in a later second than the seeds, as in any apply.
	time.Sleep(1100 * time.Millisecond)
	for _, id := range ids[:5] {
		if err := b.Write(ctx(t), id, func() (*client.Website, error) {
			return env.c.UpdateWebsite(ctx(t), id, client.WebsiteInput{Privacy: 1, ExcludeBots: true})
		}); err != nil {
			t.Fatal(err)
		}
	}
	before := b.Stats()
	for i := range 20 {
		d := fmt.Sprintf("new-%02d.example.net", i)
		if _, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d }); err != nil {
			t.Fatal(err)
		}
	}
	after := b.Stats()
	t.Logf("before %+v\nafter  %+v", before, after)
	if after.Changed != before.Changed {
		t.Errorf("the verification of the sweep saw a change (Changed %d -> %d), made by this process's own updates alone; %+v",
			before.Changed, after.Changed, after)
	}
}

package client_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestVerifyBesideOwnUpdates for own creates and deletes. An
// apply's reads sweep the list once (unverified); this process then
// creates 3 websites and deletes 2 (Write); the creates' held-domain
// checks that follow outnumber the sweep's pages, so it is verified
// (fetchVerify). Page 1 now holds the new ids and the pages have shifted,
// by this process's own writes alone, and the sweep is dropped as if
// another writer had changed the list (Changed). Write's promise: "this
// process's own creates, updates and deletes do not make a sweep's pages
// disagree; only another writer's changes cost a second sweep or
// individual reads".
func TestVerifyBesideOwnCreatesAndDeletes(t *testing.T) {
	t.Parallel()
	env, ids, clock, b := readSweptReader(t, 250) // 3 pages
	clock.Advance(time.Second)
	for i := range 3 {
		if err := env.create(t, b, fmt.Sprintf("made-%d.example.net", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range ids[10:12] {
		if err := b.Write(ctx(t), id, func() (*client.Website, error) { return nil, env.c.DeleteWebsite(ctx(t), id) }); err != nil {
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
		t.Errorf("the verification of the sweep saw a change (Changed %d -> %d), made by this process's own creates and deletes alone; %+v",
			before.Changed, after.Changed, after)
	}
}

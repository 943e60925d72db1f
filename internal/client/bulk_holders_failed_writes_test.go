package client_test

import (
	"errors"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// 30 writes of this process fail after a verified sweep (the
// server answered 500 to each delete; their outcome is unknown), then ONE
// create checks its domain (FindHolders): it reads each of the 30 again,
// one GET after the other, where one search (1 request) answers the same
// question. (rev44x's TestRev44xOneHeldCheckAfterOwnUpdates, for writes
// whose outcome is unknown.)
func TestOneHeldCheckAfterFailedWrites(t *testing.T) {
	t.Parallel()
	env, ids, b := sweptReader(t, 300)
	failed := errors.New("HTTP 500")
	for _, id := range ids[:30] {
		_ = b.Write(ctx(t), id, func() (*client.Website, error) { return nil, failed })
	}
	before, _, _ := env.requests()
	const d = "brand-new.example.net"
	ws, err := b.FindHolders(ctx(t), d, func(s string) bool { return s == d })
	if err != nil || len(ws) != 0 {
		t.Fatalf("FindHolders = %v, %v", ws, err)
	}
	after, _, show := env.requests()
	t.Logf("one held check after 30 failed writes: %d requests (%d show); %+v", after-before, show, b.Stats())
	if n := after - before; n > 2 {
		t.Errorf("one held-domain check after 30 failed writes cost %d requests (%d GET /websites/{id}); one search costs 1", n, show)
	}
}

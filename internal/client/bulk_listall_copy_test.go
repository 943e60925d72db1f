package client_test

// ListAll's result is the caller's: editing it changes nothing the
// reader keeps (its sweep, which answers lookups).

import (
	"errors"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A caller that reuses the slice ListAll returned (sorts it, filters it in
// place, edits an element: ordinary for a slice it was handed) changes
// what later lookups by domain answer: here a lookup adopts a website for
// a domain it never held.
func TestListAllResultIsTheCallers(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(150)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	all, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage})
	if err != nil {
		t.Fatal(err)
	}
	for i := range all {
		all[i].Domain = "caller-scratch.example.org" // the caller's own use of its slice
	}
	w, err := b.FindByDomain(ctx(t), "caller-scratch.example.org")
	var de *client.DuplicateDomainError
	if err == nil || errors.As(err, &de) {
		t.Errorf("FindByDomain of a domain no website holds = %v, %v (the caller's edit of ListAll's result reached the sweep); want not found", w, err)
	}
	_ = ids
}

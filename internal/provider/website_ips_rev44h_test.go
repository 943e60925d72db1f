package provider

import (
	"testing"
)

// The update leaves exclude_ips out when the
// identity check's read shows a list other than the state's (sameIPSet),
// so that it does not undo a change the web interface made after the plan.
// But the read that made the state folds an entry stored in two spellings
// (foldIPEntries: "2001:db8::1" and "2001:DB8::1" are one address), and
// sameIPSet folds only exact repeats: a server list that holds the state's
// very entries, one of them spelled twice, counts as changed by the web
// interface. The update then leaves the list out, and the write-back of the
// folded list that the schema promises ("stored twice there, in any
// spelling, is read once and written back once by the next apply") does not
// happen on an update that does not plan the rewrite itself (the state's
// list differs from the one Terraform wrote last).
func TestSameIPSet_twoSpellingsOfTheStateListAreTheSameList(t *testing.T) {
	ctx := t.Context()
	server := []string{"2001:db8::1", "2001:DB8::1", "10.0.0.0/8"}
	state := stringSetValue(foldIPEntries(server)) // what the read put into the state
	if !sameIPSet(ctx, server, state) {
		t.Errorf("the server holds %q, which the read folds into the state's %v, yet sameIPSet says the web "+
			"interface changed the list", server, state)
	}
	// Repeats fold (held).
	if !sameIPSet(ctx, []string{"10.0.0.1", "10.0.0.1"}, stringSetValue([]string{"10.0.0.1"})) {
		t.Error("exact repeats count as a change")
	}
}

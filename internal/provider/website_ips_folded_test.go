package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The write-back of a folded exclude_ips runs only when the plan leaves the
// list as the state has it and the list is the one Terraform wrote last:
// a plan that changes the list writes one without repeats anyway, and a
// list changed outside Terraform that the plan keeps is one the
// configuration does not manage (lifecycle ignore_changes hands the
// provider the state's value as the configuration's).
func TestRewriteFoldedIPs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ips := func(s ...string) types.Set { return stringSetValue(s) }
	written := func(s ...string) fakePrivate {
		p := fakePrivate{ipsFoldedKey: []byte("true")}
		var diags diag.Diagnostics
		recordWrittenIPs(ctx, ips(s...), p, &diags)
		if diags.HasError() {
			t.Fatalf("recordWrittenIPs: %v", diags)
		}
		return p
	}
	cleared := written("1.2.3.4")
	var diags diag.Diagnostics
	recordWrittenIPs(ctx, types.SetNull(types.StringType), cleared, &diags)
	state := ips("1.2.3.4", "9.9.9.9")
	for _, tc := range []struct {
		name    string
		plan    types.Set
		private fakePrivate
		want    bool
	}{
		{"not folded", state, fakePrivate{}, false},
		{"folded, never written by Terraform (imported)", state, fakePrivate{ipsFoldedKey: []byte("true")}, true},
		{"folded, as Terraform wrote it", state, written("9.9.9.9", "1.2.3.4"), true},
		{"folded, changed outside Terraform, kept by the plan", state, written("1.2.3.4"), false},
		{"the plan changes the list", ips("1.2.3.4"), written("1.2.3.4", "9.9.9.9"), false},
		{"the plan does not know the list", types.SetUnknown(types.StringType), fakePrivate{ipsFoldedKey: []byte("true")}, false},
		{"the record cleared by a lost update", state, cleared, true},
		{"an unreadable record", state, fakePrivate{ipsFoldedKey: []byte("true"), ipsWrittenKey: []byte("{")}, true},
	} {
		var diags diag.Diagnostics
		if got := rewriteFoldedIPs(ctx, tc.plan, state, tc.private, &diags); got != tc.want || diags.HasError() {
			t.Errorf("%s: rewriteFoldedIPs = %v (%v), want %v", tc.name, got, diags, tc.want)
		}
	}
	if diags.HasError() {
		t.Errorf("recordWrittenIPs(null): %v", diags)
	}
}

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

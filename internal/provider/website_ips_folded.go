package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The web interface stores exclude_ips as typed: an address or range may
// stand on two lines (repeated, or in two spellings). The read folds them
// (foldIPEntries), so the state and the configuration hold each once, and
// a plan would show no change while the server keeps the repeats. The read
// marks such a website in the private state; the next plan then plans an
// update that writes the list back once each, when the configuration
// manages exclude_ips (rewriteFoldedIPs).
//
// Terraform hands the provider no sign of lifecycle ignore_changes at plan
// time: it puts the state's value in the configuration it sends. The
// configuration as validated tells (website_ips_ignored.go). Only when no
// note of it was taken does the list itself decide: a create or an update
// records what it left on the server (ipsWrittenKey), and a list that
// differs from it was changed outside Terraform and may be one that
// ignore_changes keeps (rewriteFoldedIPs).

// ipsFoldedKey is the private state's mark of a website whose stored
// exclude_ips the read folded: the list as folded (sortedFoldedKey), or
// "true" from an older provider.
const ipsFoldedKey = "exclude_ips_folded"

// ipsWriteBackKey is the planned private state's mark of a plan that
// writes exclude_ips back (planFoldedIPs): the update writes back only what
// its plan showed.
const ipsWriteBackKey = "exclude_ips_write_back"

// ipsWrittenKey is the private state's record of the exclude_ips that the
// last create or update left on the server, as read back (a sorted JSON
// list). A website imported, restored, or written by an older provider has
// none.
const ipsWrittenKey = "exclude_ips_written"

// recordFoldedIPs marks the website in the private state when the read of w
// folded its exclude_ips, with the list as folded, and clears the mark
// when it did not.
func recordFoldedIPs(ctx context.Context, w *client.Website, private privateSetter, diags *diag.Diagnostics) {
	if private == nil {
		return
	}
	var mark []byte
	if folded := foldIPEntries(w.ExcludeIPs); len(folded) < len(w.ExcludeIPs) {
		mark = []byte(listKey(folded))
	}
	diags.Append(private.SetKey(ctx, ipsFoldedKey, mark)...)
}

// recordWrittenIPs records ips, the exclude_ips of the state that a create
// or an update just wrote, as Terraform's (ipsWrittenKey); a null or
// unknown ips clears the record (an update that may or may not have been
// applied).
func recordWrittenIPs(ctx context.Context, ips types.Set, private privateSetter, diags *diag.Diagnostics) {
	if private == nil {
		return
	}
	var raw []byte
	if list, ok := sortedIPs(ctx, ips, diags); ok {
		raw = []byte(listKey(list))
	}
	diags.Append(private.SetKey(ctx, ipsWrittenKey, raw)...)
}

// foldedUnchanged reports whether the last read folded the server's
// exclude_ips into the state's list (ipsFoldedKey) and the plan leaves the
// list as the state has it (a plan that changes it writes a list without
// repeats anyway): an update that sends the list writes it back once each.
func foldedUnchanged(ctx context.Context, plan, state types.Set, private privateGetter, diags *diag.Diagnostics) bool {
	if plan.IsUnknown() || !plan.Equal(state) || private == nil {
		return false
	}
	mark := privateString(ctx, private, ipsFoldedKey, diags)
	key, ok := ipsKey(ctx, state)
	return mark == "true" || (ok && mark != "" && mark == key)
}

// rewriteFoldedIPs reports whether a plan must write exclude_ips back when
// no note of the configuration as validated tells (website_ips_ignored.go):
// foldedUnchanged, and the list is the one Terraform wrote last
// (ipsWrittenKey), or Terraform never wrote one. A list changed outside
// Terraform may then be one that ignore_changes keeps.
func rewriteFoldedIPs(ctx context.Context, plan, state types.Set, private privateGetter, diags *diag.Diagnostics) bool {
	if !foldedUnchanged(ctx, plan, state, private, diags) {
		return false
	}
	raw := privateString(ctx, private, ipsWrittenKey, diags)
	if raw == "" {
		return true
	}
	var written []string
	if err := json.Unmarshal([]byte(raw), &written); err != nil {
		return true // an unreadable record is no record
	}
	now, ok := sortedIPs(ctx, state, diags)
	return ok && slices.Equal(written, now)
}

// listKey is the comparable form of a list that the private state's
// exclude_ips records hold: its entries sorted, as JSON ("[]" for none).
func listKey(list []string) string {
	sorted := append([]string{}, list...)
	slices.Sort(sorted)
	raw, _ := json.Marshal(sorted) // a []string always marshals
	return string(raw)
}

// sortedIPs returns the entries of ips, sorted; false when ips is null or
// unknown.
func sortedIPs(ctx context.Context, ips types.Set, diags *diag.Diagnostics) ([]string, bool) {
	if ips.IsNull() || ips.IsUnknown() {
		return nil, false
	}
	list := []string{}
	diags.Append(ips.ElementsAs(ctx, &list, false)...)
	slices.Sort(list)
	return list, true
}

// planFoldedIPs plans the update that writes exclude_ips back
// (rewriteFoldedIPs). When nothing else is planned (the plan equals the
// state), the update shows as updated_at, which it changes. Otherwise the
// update goes ahead anyway and updated_at stays as planned, so that the
// plan made again at apply plans the same values whatever its notes decide
// (website_ips_ignored.go).
func planFoldedIPs(ctx context.Context, domain types.String, state tftypes.Value, resp *resource.ModifyPlanResponse) {
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, ipsWriteBackKey, []byte("true"))...)
	summary := "Writing exclude_ips Back Without Repeats"
	detail := fmt.Sprintf("The server holds an entry of the exclude_ips of %q on more than one line (repeated, or in "+
		"two spellings of one address or range), as the web interface stores what is typed. Terraform reads "+
		"each once. This apply writes the list back with each entry once; the server excludes the same "+
		"addresses.", domain.ValueString())
	if resp.Plan.Raw.Equal(state) {
		planRewrite(ctx, "exclude_ips", summary, detail, resp)
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("exclude_ips"), summary, detail)
}

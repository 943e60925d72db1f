package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The web interface stores exclude_ips as typed: an address or range may
// stand on two lines (repeated, or in two spellings). The read folds them
// (foldIPEntries), so the state and the configuration hold each once, and
// a plan would show no change while the server keeps the repeats. The read
// marks such a website in the private state; the next plan of a
// configuration that sets exclude_ips then plans an update, which writes
// the list back once each. Without exclude_ips in the configuration, the
// mark plans nothing.

// ipsFoldedKey is the private state's mark of a website whose stored
// exclude_ips the read folded.
const ipsFoldedKey = "exclude_ips_folded"

// recordFoldedIPs marks the website in the private state when the read of w
// folded its exclude_ips, and clears the mark when it did not.
func recordFoldedIPs(ctx context.Context, w *client.Website, private privateSetter, diags *diag.Diagnostics) {
	if private == nil {
		return
	}
	var mark []byte
	if len(foldIPEntries(w.ExcludeIPs)) < len(w.ExcludeIPs) {
		mark = []byte("true")
	}
	diags.Append(private.SetKey(ctx, ipsFoldedKey, mark)...)
}

// rewriteFoldedIPs reports whether an update must write exclude_ips back:
// the configuration sets it (cfg is not null) and the last read folded the
// server's list (ipsFoldedKey).
func rewriteFoldedIPs(ctx context.Context, cfg types.Set, private privateGetter, diags *diag.Diagnostics) bool {
	return !cfg.IsNull() && marked(ctx, private, ipsFoldedKey, diags)
}

// planFoldedIPs plans the update that writes exclude_ips back
// (rewriteFoldedIPs): the plan equals the state, so the update shows as
// updated_at, which it changes.
func planFoldedIPs(ctx context.Context, domain types.String, resp *resource.ModifyPlanResponse) {
	planRewrite(ctx, "exclude_ips", "Writing exclude_ips Back Without Repeats",
		fmt.Sprintf("The server holds an entry of the exclude_ips of %q on more than one line (repeated, or in "+
			"two spellings of one address or range), as the web interface stores what is typed. Terraform reads "+
			"each once. This apply writes the list back with each entry once; the server excludes the same "+
			"addresses.", domain.ValueString()), resp)
}

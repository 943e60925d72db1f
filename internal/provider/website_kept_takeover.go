package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A create that failed, after skip_destroy removed the website that holds
// its domain from a state in this apply (this resource's own, tainted, or
// another resource's whose settings were known only at apply, or which a
// domain change replaces: website_kept_plan.go), with other settings than
// the create's plan. Put back as it was, the website would not be what
// the configuration says; left out, it would be in no state. It was in
// this configuration's state a moment ago and the configuration now
// declares its domain here, so the create takes it over, as a moved block
// would: it updates the website to the plan's settings and holds it, with
// a warning. Nothing is deleted, and its statistics stay. When that cannot
// be done, the website is put back as kept (restoreKept).

// takeOverKept hands k, the website kept with id, over to the create of
// plan (sent as in) for the key's user owner; false when it cannot: the
// website is gone, cannot be read or updated, or was claimed already.
func (r *websiteResource) takeOverKept(ctx context.Context, plan websiteResourceModel, in client.WebsiteInput, id int64,
	k *keptWebsite, owner *websiteOwner, resp *resource.CreateResponse,
) bool {
	if owner == nil || !r.data.kept.claim(in.Domain, id, true) {
		return false
	}
	if _, gone, gerr := r.readKept(ctx, in.Domain, id, k, owner); gone || gerr != nil {
		r.data.kept.claim(in.Domain, id, false)
		return false
	}
	// An update from the kept state, as after a moved block: what the kept
	// state set and the plan does not (a password, exclude_params) is
	// cleared.
	var diags diag.Diagnostics
	upd := plan.input(ctx, &k.state, &diags)
	if upd.Password == nil {
		upd.Password = in.Password // password_wo
	}
	if diags.HasError() {
		r.data.kept.claim(in.Domain, id, false)
		return false
	}
	var w *client.Website
	err := r.data.websites.Write(ctx, id, func() (*client.Website, error) {
		var err error
		w, err = r.data.client.UpdateWebsite(ctx, id, upd)
		return w, err
	})
	if err != nil {
		tflog.Warn(ctx, "could not take over the website skip_destroy kept", map[string]any{"id": id, "error": err.Error()})
		r.data.kept.claim(in.Domain, id, false)
		return false
	}
	tflog.Info(ctx, "took over the website skip_destroy kept", map[string]any{"id": id})
	r.stored(ctx, plan, w, upd, owner, resp)
	resp.Diagnostics.AddWarning("Website Taken Over",
		fmt.Sprintf("The website %q could not be created: skip_destroy = true kept a website with this domain (id %d) "+
			"on the server in this apply (this resource's own, tainted or replaced, or one removed from another "+
			"resource), with other settings than this configuration's, and domains are unique on the installation. "+
			"This resource holds that website now: its settings were updated to this configuration's, and its "+
			"statistics stay.", in.Domain, id))
	return true
}

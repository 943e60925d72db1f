package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A create refused for its domain, after skip_destroy removed the website
// that holds it from another resource's state in this apply, with other
// settings than the create's plan (known only at apply, so the plan could
// not refuse the pair: website_kept_plan.go). Refused, the website would be
// in no state. It was in this configuration's state a moment ago and the
// configuration now declares its domain here, so the create takes it over,
// as a moved block would: it updates the website to the plan's settings
// and holds it, with a warning. Nothing is deleted, and its statistics stay.

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
	var w *client.Website
	err := r.data.websites.Write(ctx, id, func() (*client.Website, error) {
		var err error
		w, err = r.data.client.UpdateWebsite(ctx, id, in)
		return w, err
	})
	if err != nil {
		tflog.Warn(ctx, "could not take over the website skip_destroy kept", map[string]any{"id": id, "error": err.Error()})
		r.data.kept.claim(in.Domain, id, false)
		return false
	}
	tflog.Info(ctx, "took over the website skip_destroy kept", map[string]any{"id": id})
	r.stored(ctx, plan, w, in, owner, resp)
	resp.Diagnostics.AddWarning("Website Taken Over From a Removed Resource",
		fmt.Sprintf("The website %q could not be created: skip_destroy = true kept a website with this domain (id %d) "+
			"on the server in this apply, removed from another resource's state with other settings, and domains are "+
			"unique on the installation. This resource holds that website now, as a moved block would have handed it "+
			"over: its settings were updated to this configuration's, and its statistics stay. Next time, use a moved "+
			"block for such a change.", in.Domain, id))
	return true
}

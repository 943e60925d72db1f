package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A replacement of a website with skip_destroy = true on the same domain
// (terraform apply -replace, or a tainted website) cannot succeed: the
// destroy half only removes the website from the state, and the create
// half is refused, since domains are unique on the installation. Terraform
// plans a tainted website as new, without its state, so the plan cannot
// tell; the create that fails puts the kept website back into the state
// (Terraform marks it tainted), so that the website is not lost to the
// configuration that managed it a moment ago.

// keptWebsites are the websites skip_destroy kept on the server in this
// run, by canonical domain.
type keptWebsites struct {
	mu  sync.Mutex
	ids map[string]int64
}

// add records that the website id, of domain, was kept.
func (k *keptWebsites) add(domain string, id int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ids == nil {
		k.ids = map[string]int64{}
	}
	k.ids[canonicalDomain(domain)] = id
}

// lookup returns the website kept with domain, if any.
func (k *keptWebsites) lookup(domain string) (int64, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	id, ok := k.ids[canonicalDomain(domain)]
	return id, ok
}

// keepInState records, for a Delete that skip_destroy turns into a removal
// from the state, the website it keeps.
func (r *websiteResource) keepInState(state websiteResourceModel) {
	id, err := strconv.ParseInt(state.ID.ValueString(), 10, 64)
	if r.data == nil || err != nil {
		return
	}
	r.data.kept.add(state.Domain.ValueString(), id)
}

// domainTaken reports whether err is the server's refusal of a domain that
// another website has.
func domainTaken(err error) bool {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, client.ErrValidation) {
		return false
	}
	for _, msg := range apiErr.Fields["domain"] {
		if strings.Contains(strings.ToLower(msg), "already been taken") {
			return true
		}
	}
	return false
}

// restoreKept handles a create of plan refused with err: when the domain is
// that of a website skip_destroy kept in this run (the replacement of that
// website), it sets the state to that website as the server holds it and
// reports the replacement's failure, and returns true.
func (r *websiteResource) restoreKept(ctx context.Context, plan websiteResourceModel, domain string, owner *websiteOwner,
	err error, resp *resource.CreateResponse,
) bool {
	if !domainTaken(err) {
		return false
	}
	id, ok := r.data.kept.lookup(domain)
	if !ok {
		return false
	}
	w, gerr := r.data.client.GetWebsite(ctx, id)
	if gerr != nil || canonicalDomain(w.Domain) != canonicalDomain(domain) {
		tflog.Warn(ctx, "could not read the website skip_destroy kept", map[string]any{"id": id})
		return false
	}
	if err := plan.applyWebsite(w); err != nil {
		return false
	}
	plan.TrackingCode = r.data.trackingCodeOr(plan.TrackingCode)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	remember(ctx, resp.Private, owner, &resp.Diagnostics)
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
	resp.Diagnostics.AddError("Replacement Refused: skip_destroy Keeps the Website",
		fmt.Sprintf("The website %q (id %d) was to be replaced, but skip_destroy = true kept it on the server, and a new "+
			"website cannot have the same domain: domains are unique on the installation. Nothing was deleted or "+
			"created, and the website is back in the state, marked tainted. To keep it as it is, run terraform untaint "+
			"on this resource. To replace it, deleting it and its statistics, untaint it, apply skip_destroy = false, "+
			"then replace it.", w.Domain, id))
	return true
}

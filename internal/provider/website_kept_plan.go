package provider

import (
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// A website that skip_destroy keeps, removed from one resource (its block
// deleted or renamed), and a new website with the same domain, created by
// another resource in the same plan: domains are unique on the
// installation, so the create is refused, whatever the order of the two.
// When the create's settings are those the kept website holds, the failed
// create puts the website back into its state (website_kept_restore.go);
// with other settings it takes the website over and updates it
// (website_kept_takeover.go), but only when the removal ran first: run
// after the create, the removal keeps the website in the old state with an
// error. The plan refuses that pair when it can tell, and says to use a
// moved block, which hands the website over with its settings whatever
// the order.

// keptPlans are the removals of kept websites and the creates of a plan,
// by canonical domain, with their states and plans.
type keptPlans struct {
	mu       sync.Mutex
	removals map[string][]websiteResourceModel
	creates  map[string][]websiteResourceModel
}

// removal notes the planned removal of a kept website (its state) and
// returns the creates planned with its domain so far.
func (p *keptPlans) removal(state websiteResourceModel) []websiteResourceModel {
	return p.note(&p.removals, p.creates, state)
}

// create notes a planned create and returns the removals of kept websites
// planned with its domain so far.
func (p *keptPlans) create(plan websiteResourceModel) []websiteResourceModel {
	return p.note(&p.creates, p.removals, plan)
}

func (p *keptPlans) note(mine *map[string][]websiteResourceModel, others map[string][]websiteResourceModel,
	m websiteResourceModel,
) []websiteResourceModel {
	if m.Domain.IsNull() || m.Domain.IsUnknown() {
		return nil
	}
	d := canonicalDomain(m.Domain.ValueString())
	p.mu.Lock()
	defer p.mu.Unlock()
	if *mine == nil {
		*mine = map[string][]websiteResourceModel{}
	}
	(*mine)[d] = append((*mine)[d], m)
	return append([]websiteResourceModel(nil), others[d]...)
}

// refuseKeptHandOver refuses a plan that removes kept, a website
// skip_destroy keeps, from one resource's state and creates, with plan,
// a website with its domain and other settings.
func refuseKeptHandOver(plan, kept websiteResourceModel, diags *diag.Diagnostics) {
	if sameConfiguration(plan, kept) {
		return
	}
	diags.AddError("Website Would Leave Every State",
		fmt.Sprintf("This plan removes the website %q (id %s) from a resource's state, which skip_destroy = true "+
			"keeps on the server, and creates a new website with the same domain in another resource, with other "+
			"settings. Domains are unique on the installation, so the create would be refused, and the website "+
			"could be left in no state. To hand the website over to the new resource, add a moved block from the "+
			"old resource's address to the new one's, then plan again (the plan then shows the change of settings "+
			"as an update). Nothing was changed.", kept.Domain.ValueString(), kept.ID.ValueString()))
}

package provider

import (
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// newDomains are the domains (canonical form) of the websites the plans of
// this run create: a new resource, a tainted one, or a new domain that
// replaces a website. The server keeps domains unique, so two creates of
// one domain in one apply cannot both succeed; the second plan to claim a
// domain says so, whichever it is. The second plan Terraform makes of a
// replacement (replacementSecondPlan) is the same website and claims
// nothing; so is the apply's plan of a domain change, which comes in that
// form. A domain change that skip_destroy keeps the old website for
// claims its new domain too.
type newDomains struct {
	mu      sync.Mutex
	claimed map[string]bool
}

// claim records a create of domain and reports whether another plan of
// this run already claimed it; an unknown domain claims nothing.
func (n *newDomains) claim(domain types.String) (taken bool) {
	if domain.IsUnknown() || domain.IsNull() {
		return false
	}
	d := canonicalDomain(domain.ValueString())
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.claimed == nil {
		n.claimed = map[string]bool{}
	}
	taken = n.claimed[d]
	n.claimed[d] = true
	return taken
}

// refuseSecondCreate adds an error when another plan of this run creates
// a website with domain too.
func (r *websiteResource) refuseSecondCreate(domain types.String, diags *diag.Diagnostics) {
	if !r.data.created.claim(domain) {
		return
	}
	diags.AddAttributeError(path.Root("domain"), "Two Websites Planned With One Domain",
		fmt.Sprintf("Another resource of this configuration also creates a website with the domain %q in this "+
			"apply. Domains are unique on the installation, so one of the two creates would be refused, after "+
			"a replacement planned with it may already have deleted a website and its statistics. Give each "+
			"resource its own domain.", domain.ValueString()))
}

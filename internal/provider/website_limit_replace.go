package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Replacements the plan does not show as a new domain: Terraform plans a
// replacement in two calls, the first with the prior state, the second
// (the create) with none but the first call's private state. A new domain
// is counted in the first call, which marks its private state
// (replacementCountedKey); a create whose private state names an owner but
// not that mark is a replacement forced with -replace (or
// replace_triggered_by). A tainted website is planned as a create with no
// private state at all: its domain is already one of the user's websites
// (heldAlready).

// replacementCountedKey is the planned private state's mark of a
// replacement counted by the first of its two plans.
const replacementCountedKey = "replacement_counted"

// replacementCounted reports whether the first plan of this replacement
// counted it.
func replacementCounted(ctx context.Context, private privateGetter, diags *diag.Diagnostics) bool {
	if private == nil {
		return false
	}
	raw, d := private.GetKey(ctx, replacementCountedKey)
	diags.Append(d...)
	return string(raw) == "true"
}

// heldAlready reports whether a create's domain is already one of the
// user's websites: a tainted website being replaced (or another website
// with that domain, which makes the create fail). It asks only when
// counting the create as one would warn (findDomain).
func (r *websiteResource) heldAlready(ctx context.Context, domain types.String, l *domainLookup) bool {
	if domain.IsUnknown() || domain.IsNull() || r.data.websites == nil {
		return false
	}
	limit, have, ok, err := r.data.websitesHeld(ctx)
	if err != nil || !ok {
		return false
	}
	if t := r.data.tally.peek(); have+t.creates+t.replaces+1 <= limit {
		return false // fits either way
	}
	ids, err := r.findDomain(ctx, domain, l)
	return err == nil && len(ids) > 0
}

// domainLookup is what one plan of a create learned of the websites with
// its domain: looked up at most once, for the limit check (heldAlready)
// and for skip_destroy (warnDomainHeld).
type domainLookup struct {
	done bool
	ids  []int64 // the user's websites with the domain, by id
	err  error   // why it could not be told
}

// findDomain returns the ids of the user's websites with domain (in its
// canonical form), in order, looked up once per l in the list every create
// of the provider instance shares (heldDomains): never a search per
// domain. A failed lookup is logged, and its error returned.
func (r *websiteResource) findDomain(ctx context.Context, domain types.String, l *domainLookup) ([]int64, error) {
	if l.done {
		return l.ids, l.err
	}
	l.done = true
	l.ids, l.err = r.data.heldDomains(ctx, domain.ValueString())
	if l.err != nil {
		tflog.Debug(ctx, "could not tell whether the user holds a website with the create's domain",
			map[string]any{"error": l.err.Error()})
	}
	return l.ids, l.err
}

// forcedLead and heldLead say what a replacement the plan shows as a
// create does, for the limit warning.
func forcedLead(domain types.String) string {
	return fmt.Sprintf("This plan replaces %s (-replace or replace_triggered_by): a delete and a create.",
		plannedWebsite(domain))
}

func heldLead(domain types.String) string {
	return fmt.Sprintf("This plan creates %s, a domain the user already holds: the server refuses the create "+
		"unless this apply deletes the website held first (a tainted website, deleted and created again), so it "+
		"is counted as a replacement.", plannedWebsite(domain))
}

// warnHeldLimit is the limit check of a create whose domain the user
// holds (heldAlready). The server refuses it while the website held
// exists (warnDomainHeld says so), so it runs only after that website's
// delete and never needs room more than a replacement whose delete runs
// first: the warning that such a replacement fits only when deleted
// first would contradict the held-domain warning, and is left out.
func (r *websiteResource) warnHeldLimit(ctx context.Context, domain types.String, resp *resource.ModifyPlanResponse) {
	t := r.data.tally.add(limitReplace)
	limit, have, ok, err := r.data.websitesHeld(ctx)
	if err != nil {
		addWebsiteLimitError(&resp.Diagnostics, domain, err)
		return
	}
	if ok && t.judge(limit, have) != limitFitsDeleteFirst {
		addLimitWarning(&resp.Diagnostics, limitReplace, heldLead(domain), limit, have, t)
	}
}

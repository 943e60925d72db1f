package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
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
// canonical form), in order, looked up once per l (heldDomains: a search
// for a few creates, one sweep of the list shared by many). A failed
// lookup is logged, and its error returned.
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

// warnHeldUnchecked warns, once per provider instance, that the domains of
// the websites the plan creates could not be looked up (findDomain failed).
func (r *websiteResource) warnHeldUnchecked(diags *diag.Diagnostics) {
	r.data.heldWarned.Do(func() {
		diags.AddWarning("Domains of New Websites Not Checked",
			"The list of the user's websites could not be read, so the domains of the websites this plan "+
				"creates were not checked against the server. A tainted website with skip_destroy = true may "+
				"leave the state if its create fails: check with terraform state list, and run terraform "+
				"untaint <address> for a website that should stay.")
	})
}

// warnNewDomainHeld warns, on the first plan of a replacement for a new
// domain (prior is the website replaced), when the user holds another
// website with that domain: the create half will be refused, after the
// destroy half ran (unless create_before_destroy). It is a warning, not an
// error: another resource may delete the website held earlier in the same
// apply (see warnDomainHeld).
func (r *websiteResource) warnNewDomainHeld(ctx context.Context, prior, plan websiteResourceModel, diags *diag.Diagnostics) {
	if plan.Domain.IsUnknown() || plan.Domain.IsNull() || r.data.websites == nil {
		return
	}
	var l domainLookup
	found, err := r.findDomain(ctx, plan.Domain, &l)
	if err != nil {
		r.warnHeldUnchecked(diags)
		return
	}
	var ids []int64
	for _, id := range found {
		if strconv.FormatInt(id, 10) != prior.ID.ValueString() { // its own domain on the server (-refresh=false)
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	plain, quoted := idList(ids)
	exists := fmt.Sprintf("a website with this domain exists on the server (id %d)", ids[0])
	that, importIt := "that website", fmt.Sprintf("import it (an import block with id = %s)", quoted[0])
	if len(ids) > 1 {
		exists = fmt.Sprintf("%d websites with this domain exist on the server (ids %s)", len(ids), strings.Join(plain, ", "))
		that, importIt = "those websites", fmt.Sprintf("import the one you mean (id = %s)", strings.Join(quoted, " or "))
	}
	first := fmt.Sprintf("deletes the website %q (id %s) and its statistics", prior.Domain.ValueString(), prior.ID.ValueString())
	left := "neither website would be left"
	if prior.SkipDestroy.ValueBool() {
		first = fmt.Sprintf("removes the website %q (id %s) from the state (skip_destroy = true keeps it on the server)",
			prior.Domain.ValueString(), prior.ID.ValueString())
		left = "no resource would manage either website"
	}
	diags.AddAttributeWarning(path.Root("domain"), "Domain Already Held: Replacement Would Be Refused",
		fmt.Sprintf("This plan changes the domain to %q, which replaces the website, but %s. Domains are unique on "+
			"the installation, so the create of the new website will be refused unless this apply deletes %s first. "+
			"The apply first %s, then the create fails: %s (unless create_before_destroy is set, which creates "+
			"first). To manage %s, %s into a resource of its own, or choose another domain for this one. If "+
			"another resource of this configuration deletes %s in this apply, make sure that delete runs first.",
			plan.Domain.ValueString(), exists, that, first, left, that, importIt, that))
}

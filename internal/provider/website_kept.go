package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A replacement of a website with skip_destroy = true on the same domain
// (terraform apply -replace, or a tainted website) cannot succeed: the
// destroy half only removes the website from the state, and the create
// half is refused, since domains are unique on the installation. A forced
// replacement (-replace, replace_triggered_by) is refused at plan: the
// first of its two plans records the kept domain in its private state
// (keptDomainKey), and the second, the create's, fails when it plans that
// domain again (refuseKeptReplacement). Terraform plans a tainted website
// as new, without its state or private state, so that plan cannot tell it
// from a new website (nor tell that its old state had skip_destroy = true:
// the configuration may turn it off). Every create looks its domain up
// instead (warnDomainHeld), in one list of the user's websites that all
// creates share: when the user holds a website with it, the plan warns,
// with its id, that the create will be refused unless the apply deletes
// that website first, and says what to do if it is this resource's own,
// tainted: untaint it, or import it. A warning, not an error: another
// resource's destroy in the same apply may delete it.
//
// At apply, a create that fails (refused for its domain or for a passing
// reason: website_kept_restore.go) puts the kept website back into the
// state (Terraform marks it tainted), so that it is not lost to the
// configuration that managed it a moment ago. The provider is not told
// which resource a create is for: a resource with skip_destroy removed
// from the configuration and another one added with the same domain in
// the same apply look alike. The website is put back when exactly one
// website with the domain was kept in this run and not put back already.
// When the create's plan sets other settings than the kept state held
// (sameConfiguration), the create first takes it over, updating it to the
// plan (website_kept_takeover.go); the plan refuses that pair when it can
// tell (website_kept_plan.go). Otherwise (several kept, or claimed
// already) nothing is written, and the error gives the ids to import. A
// create that does not run (what it depends on failed) cannot put anything
// back: the plan's warning says so.

// keptDomainKey is the planned private state's record, made by the first
// plan of a website whose state has skip_destroy = true, of its canonical
// domain (a JSON string). It lives from that plan to the next: the second
// plan of a replacement reads it; Update clears it, and Create starts from
// an empty private state.
const keptDomainKey = "kept_domain"

// plannedWithStateKey marks the private state of every plan of a website
// with prior state. The second plan of a replacement (no prior state)
// carries the first plan's private state, a tainted website's create none:
// the mark tells them apart, on builds without GET /account too (whose
// plans remember no owner).
const plannedWithStateKey = "planned_with_state"

// replacementSecondPlan reports whether a plan without prior state is the
// second plan of a replacement (-replace, replace_triggered_by, a new
// domain) rather than a plain create or a tainted website's.
func replacementSecondPlan(ctx context.Context, private privateGetter, diags *diag.Diagnostics) bool {
	if private == nil {
		return false
	}
	raw, d := private.GetKey(ctx, plannedWithStateKey)
	diags.Append(d...)
	return raw != nil || rememberedOwner(ctx, private, diags) != nil
}

// recordKeptDomain records, in the first plan of a website with prior
// state, the domain skip_destroy would keep if the plan became a
// replacement, or clears the record when skip_destroy is not true.
func recordKeptDomain(ctx context.Context, prior websiteResourceModel, private privateSetter, diags *diag.Diagnostics) {
	var raw []byte
	if prior.SkipDestroy.ValueBool() && !prior.Domain.IsNull() && !prior.Domain.IsUnknown() {
		var err error
		if raw, err = json.Marshal(canonicalDomain(prior.Domain.ValueString())); err != nil {
			diags.AddError("Unable to Record the Kept Domain", err.Error())
			return
		}
	}
	diags.Append(private.SetKey(ctx, keptDomainKey, raw)...)
	diags.Append(private.SetKey(ctx, plannedWithStateKey, []byte("true"))...)
}

// refuseKeptReplacement fails the second plan of a replacement (no prior
// state, the first plan's private state) whose old website skip_destroy
// keeps on the server with the domain the new one is planned with: the
// create would be refused. It clears the record either way.
func refuseKeptReplacement(ctx context.Context, domain types.String, private privateGetter, resp *resource.ModifyPlanResponse) {
	if private == nil {
		return
	}
	raw, d := private.GetKey(ctx, keptDomainKey)
	resp.Diagnostics.Append(d...)
	if len(raw) == 0 {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, keptDomainKey, nil)...)
	var kept string
	if err := json.Unmarshal(raw, &kept); err != nil || kept == "" || domain.IsUnknown() || domain.IsNull() ||
		canonicalDomain(domain.ValueString()) != kept {
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root("domain"), "Replacement Cannot Succeed: skip_destroy Keeps the Website",
		fmt.Sprintf("This plan replaces the website %q (-replace or replace_triggered_by), but skip_destroy = true "+
			"keeps the old website on the server, and a new website cannot have the same domain: domains are unique "+
			"on the installation. The create would be refused. Nothing was changed. To keep the website, plan without "+
			"-replace (or the change that triggers the replacement). To replace it, deleting it and its statistics, "+
			"first apply skip_destroy = false, then replace it.", domain.ValueString()))
}

// warnDomainHeld warns, on the plan of a create (a tainted website's
// replacement looks like one), when the user holds a website with its
// domain: the create will be refused. The lookup (l, shared with the limit
// check) reads one list that every create of the run shares (findDomain);
// a lookup that fails is logged, and warned of once per provider instance.
func (r *websiteResource) warnDomainHeld(ctx context.Context, plan websiteResourceModel, l *domainLookup,
	diags *diag.Diagnostics,
) {
	if plan.Domain.IsUnknown() || plan.Domain.IsNull() || r.data.websites == nil {
		return
	}
	ids, err := r.findDomain(ctx, plan.Domain, l)
	if err != nil {
		r.warnHeldUnchecked(diags) // website_limit_replace.go
		return
	}
	if len(ids) == 0 {
		return
	}
	plain, quoted := idList(ids)
	exists := fmt.Sprintf("A website with this domain exists on the server (id %d).", ids[0])
	that, importIt := "that website", fmt.Sprintf("import it (id = %s)", quoted[0])
	if len(ids) > 1 {
		exists = fmt.Sprintf("%d websites with this domain exist on the server (ids %s).", len(ids),
			strings.Join(plain, ", "))
		that, importIt = "those websites", fmt.Sprintf("import the one you mean (id = %s)", strings.Join(quoted, " or "))
	}
	// Terraform plans a tainted website's create with no prior state, so
	// the holder may be this resource's own website: what that means
	// depends on the skip_destroy of its state, which the plan cannot see
	// (the configuration's may have changed since).
	own := "If it is this resource's own website, tainted: when its state says skip_destroy = false, the apply " +
		"deletes it and its statistics before the create (unless create_before_destroy is set), and the " +
		"replacement succeeds. When its state says skip_destroy = true, the replacement cannot succeed: the create " +
		"takes the kept website back, and updates it to this configuration's settings where they differ from what " +
		"the server holds (changed here, or outside Terraform: in the web interface, say). When the create does not " +
		"run at all because something it depends on fails, the website leaves the state. To keep it as it is, run " +
		"terraform untaint <this resource's address>, then plan again."
	if len(ids) > 1 {
		// Deleting its own website leaves another holding the domain.
		own = "If one of them is this resource's own website, tainted, the apply deletes it (and its statistics) " +
			"when its state says skip_destroy = false, and the create is still refused, because another website " +
			"holds the domain, unless this apply deletes that one too. When its state says skip_destroy = true, " +
			"the replacement cannot succeed either. To keep it as it is, run terraform untaint <this resource's " +
			"address>, then plan again."
	}
	diags.AddAttributeWarning(path.Root("domain"), "Domain Already Held: Create May Be Refused",
		exists+" Domains are unique on the installation, so this create will be refused unless this apply deletes "+
			that+" first. "+own+" To manage "+that+" with this resource otherwise, "+importIt+".")
}

// refuseHeldStoredOnly adds, to the refusal of a create whose domain no
// new website may have (checkNewStoredOnlyDomain), what to do when the
// user holds a website with that domain: it is probably this resource's
// own website, tainted and kept by skip_destroy = true, which only an
// untaint keeps in the state.
func (r *websiteResource) refuseHeldStoredOnly(ctx context.Context, domain types.String, diags *diag.Diagnostics) {
	if r.data == nil || r.data.websites == nil {
		return
	}
	var l domainLookup
	ids, err := r.findDomain(ctx, domain, &l)
	if err != nil || len(ids) == 0 {
		return
	}
	plain, quoted := idList(ids)
	diags.AddAttributeError(path.Root("domain"), "Domain Already Held: Probably a Tainted Website",
		fmt.Sprintf("The user holds a website with this domain (id %s). It is probably this resource's own "+
			"website, tainted, which skip_destroy = true keeps on the server: no new website may have this domain, "+
			"so it cannot be replaced. To keep it in the state as it is, run terraform untaint <this resource's "+
			"address>, then plan again. To manage it with another resource, import it (id = %s).",
			strings.Join(plain, ", "), strings.Join(quoted, " or ")))
}

// idList returns ids as plain and as quoted strings.
func idList(ids []int64) (plain, quoted []string) {
	plain, quoted = make([]string, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		plain[i] = strconv.FormatInt(id, 10)
		quoted[i] = strconv.Quote(plain[i])
	}
	return plain, quoted
}

// keptWebsites are the websites skip_destroy kept on the server in this
// run, by canonical domain: several when websites share a domain (the
// application has no unique index on domains).
type keptWebsites struct {
	mu   sync.Mutex
	kept map[string][]*keptWebsite
	// refused are the domains whose create failed in this run while no
	// website kept with them could be put back (refuse).
	refused map[string]bool
}

// refuse records that a create of domain failed (refused for a website
// that holds it, or for a passing reason), when no website kept in this
// run could be put back: a skip_destroy removal of the domain after it
// keeps its website in its state (addUnlessRefused).
func (k *keptWebsites) refuse(domain string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.refuseLocked(domain)
}

func (k *keptWebsites) refuseLocked(domain string) {
	if k.refused == nil {
		k.refused = map[string]bool{}
	}
	k.refused[canonicalDomain(domain)] = true
}

// keptWebsite is a website skip_destroy kept: its id, its whole state
// before the removal, and the marks of its private state. The state holds
// what the API never returns (exclude_params, password,
// password_wo_version): restoring the website starts from it, not from the
// replacement's plan, whose values were never written.
type keptWebsite struct {
	id      int64
	state   websiteResourceModel
	private map[string][]byte // keptPrivateKeys, those set
	claimed bool              // put back into a state already
}

// keptPrivateKeys are the private state's marks a kept website carries
// back into the state: its owner, and what an update left unsettled. Only
// a Delete that is given them can: a resource removed from the
// configuration is; the destroy half of a tainted website's replacement
// is given the create's planned private state, and that create's plan
// never sees the tainted object's.
var keptPrivateKeys = []string{ownerKey, passwordSetKey, excludeParamsSentKey}

// addUnlessRefused records that the website of state, with id, was kept,
// unless a create of its domain failed in this run (refuse): then it
// records nothing and returns false. One lock decides, so that a failed
// create either finds the website kept (lookup) or makes its removal keep
// it in its state.
func (k *keptWebsites) addUnlessRefused(id int64, state websiteResourceModel, private map[string][]byte) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	d := canonicalDomain(state.Domain.ValueString())
	if k.refused[d] {
		return false
	}
	if k.kept == nil {
		k.kept = map[string][]*keptWebsite{}
	}
	for _, w := range k.kept[d] {
		if w.id == id {
			return true // one website kept twice (two resources held it) is one website
		}
	}
	k.kept[d] = append(k.kept[d], &keptWebsite{id: id, state: state, private: private})
	return true
}

// lookup returns, for a create of domain that failed, the ids of the
// websites kept with domain, by id, and the one kept when there is exactly
// one and it was not claimed (a copy). With none kept, it records the
// failure (refuse) under the same lock.
func (k *keptWebsites) lookup(domain string) ([]int64, *keptWebsite) {
	k.mu.Lock()
	defer k.mu.Unlock()
	ws := k.kept[canonicalDomain(domain)]
	if len(ws) == 0 {
		k.refuseLocked(domain)
	}
	ids := make([]int64, 0, len(ws))
	for _, w := range ws {
		ids = append(ids, w.id)
	}
	slices.Sort(ids)
	if len(ws) != 1 || ws[0].claimed {
		return ids, nil
	}
	w := *ws[0]
	return ids, &w
}

// claim marks the website kept with domain and id as put back into a
// state; false when it was already.
func (k *keptWebsites) claim(domain string, id int64, claimed bool) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, w := range k.kept[canonicalDomain(domain)] {
		if w.id == id {
			if claimed && w.claimed {
				return false
			}
			w.claimed = claimed
			return true
		}
	}
	return false
}

// keepInState records, for a Delete that skip_destroy turns into a removal
// from the state, the website it keeps, with its private state's marks. It
// returns false when the removal must not run: a create of the domain
// failed earlier in this run, and the website is still there (keptGone).
func (r *websiteResource) keepInState(ctx context.Context, state websiteResourceModel, private privateGetter) bool {
	id, err := strconv.ParseInt(state.ID.ValueString(), 10, 64)
	if r.data == nil || err != nil {
		return true
	}
	marks := map[string][]byte{}
	if private != nil {
		for _, key := range keptPrivateKeys {
			if raw, d := private.GetKey(ctx, key); !d.HasError() && len(raw) > 0 {
				marks[key] = raw
			}
		}
	}
	return r.data.kept.addUnlessRefused(id, state, marks) || r.keptGone(ctx, &keptWebsite{id: id, state: state, private: marks})
}

// keptGone reports whether a read shows the website k gone (deleted, or
// its id now another website's): its removal from the state then loses
// nothing. A read that fails says nothing.
func (r *websiteResource) keptGone(ctx context.Context, k *keptWebsite) bool {
	owner, err := r.data.keyOwner(ctx)
	if err != nil {
		return false
	}
	_, gone, _ := r.readKept(ctx, k.state.Domain.ValueString(), k.id, k, owner)
	return gone
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

// sameConfiguration reports whether plan, a create's plan, sets every
// attribute the configuration sends to the server as kept, the state of a
// website skip_destroy kept, holds it (the domain in its canonical form).
// Settings that never reach the server (skip_destroy, timeouts: see
// onlyLocalChange) are not compared, nor is an attribute the plan leaves
// unknown (computed, not configured). Values are compared, never shown
// (password).
func sameConfiguration(plan, kept websiteResourceModel) bool {
	for _, a := range websiteAttributes {
		if !a.held() {
			continue
		}
		p, k := plan.attribute(a.name), kept.attribute(a.name)
		switch {
		case p.IsUnknown():
		case a.name == "domain":
			if canonicalDomain(plan.Domain.ValueString()) != canonicalDomain(kept.Domain.ValueString()) {
				return false
			}
		case !p.Equal(k):
			return false
		}
	}
	return true
}

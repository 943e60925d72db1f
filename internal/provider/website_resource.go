package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

var (
	_ resource.ResourceWithConfigure      = (*websiteResource)(nil)
	_ resource.ResourceWithImportState    = (*websiteResource)(nil)
	_ resource.ResourceWithValidateConfig = (*websiteResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*websiteResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*websiteResource)(nil)
	_ resource.ResourceWithIdentity       = (*websiteResource)(nil)
)

// NewWebsiteResource returns the analytics_website resource.
func NewWebsiteResource() resource.Resource { return &websiteResource{} }

type websiteResource struct {
	data *providerData
}

func (r *websiteResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_website"
}

func (r *websiteResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// setIdentity records the resource identity (Terraform 1.12 and later; nil
// for older clients). It is set after every operation, from the state, since
// older clients send no prior identity.
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id types.String, diags *diag.Diagnostics) {
	if identity == nil || id.IsNull() || id.IsUnknown() {
		return
	}
	diags.Append(identity.Set(ctx, websiteIdentityModel{ID: id})...)
}

func (r *websiteResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan websiteResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	c := dataClient(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	in := plan.input(ctx, nil, &resp.Diagnostics)
	wo := writeOnlyPassword(ctx, req.Config, &resp.Diagnostics)
	if in.Password == nil {
		in.Password = wo
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// A create that fails puts back a website skip_destroy kept with its
	// domain in this run, when that is sound (website_kept_restore.go).
	owner, err := r.data.keyOwner(ctx)
	if err != nil {
		report := func(diags *diag.Diagnostics) { addAPIError(diags, "create", in.Domain, err) }
		if !r.restoreKept(ctx, plan, in, nil, err, report, resp) {
			r.data.kept.refuse(in.Domain)
			report(&resp.Diagnostics)
		}
		return
	}

	// A create whose answer is lost is settled by looking the domain up,
	// never blindly sent twice (see client.CreateWebsite).
	var res *client.CreateResult
	err = r.data.websites.Write(ctx, 0, func() (*client.Website, error) {
		var err error
		if res, err = c.CreateWebsite(ctx, in); err != nil {
			return nil, err
		}
		return res.Website, nil
	})
	if err != nil {
		report := func(diags *diag.Diagnostics) { addCreateError(diags, in.Domain, wo != nil, err) }
		if !r.restoreKept(ctx, plan, in, owner, err, report, resp) {
			// Whatever the cause (the domain is held, the rate limit,
			// maintenance), a removal of the domain that comes after it
			// keeps its website in its state (website_kept.go).
			r.data.kept.refuse(in.Domain)
			report(&resp.Diagnostics)
		}
		return
	}
	tflog.Info(ctx, "created website", map[string]any{"id": res.Website.ID, "domain": res.Website.Domain,
		"adopted": res.Adopted, "attempts": res.Attempts})
	r.stored(ctx, plan, res.Website, in, owner, resp)
}

// stored sets the state of a create that stored w from in, as planned
// with plan, for the key's user owner.
func (r *websiteResource) stored(ctx context.Context, plan websiteResourceModel, w *client.Website, in client.WebsiteInput,
	owner *websiteOwner, resp *resource.CreateResponse,
) {
	planned := plan
	if err := plan.applyWebsite(w); err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	keepSentPassword(&plan, planned, in.Password, &resp.Diagnostics)
	plan.TrackingCode = r.data.trackingCodeOr(plan.TrackingCode)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	remember(ctx, resp.Private, owner, &resp.Diagnostics)
	recordWrittenIPs(ctx, plan.ExcludeIPs, resp.Private, &resp.Diagnostics) // website_ips_folded.go
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
}

func (r *websiteResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state websiteResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	dataClient(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := state.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(d...)
	id := state.id(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	op := r.data.guard.begin()
	defer op.end(false)
	// The key's user is asked for (GET /account, once per run) only when
	// the answer matters: to remember the owner of a website that has none
	// yet, or to judge a "not found". The API shows a user only their own
	// websites, so a website found with this key is the key's user's, and a
	// refresh of websites whose owner is remembered costs no extra request.
	remembered := rememberedOwner(ctx, req.Private, &resp.Diagnostics)
	var owner *websiteOwner
	if remembered == nil {
		var ok bool
		if owner, ok = r.keyOwnerOf(ctx, "read", state, nil, &resp.Diagnostics); !ok {
			return
		}
	}

	// When Terraform refreshes many websites, this is served from a list
	// sweep (100 per request); a website missing from it is confirmed by
	// GET /websites/{id} before it is reported gone.
	w, err := r.data.websites.Read(ctx, id)
	if errors.Is(err, client.ErrNotFound) {
		if remembered != nil {
			var ok bool
			if owner, ok = r.keyOwnerOf(ctx, "read", state, remembered, &resp.Diagnostics); !ok {
				return
			}
		}
		if !r.mayLeaveState(ctx, op, "read", state, remembered, owner, &resp.Diagnostics) {
			return
		}
		tflog.Warn(ctx, "website not found on the server; removing it from the state so that it is planned for creation",
			map[string]any{"id": id, "domain": state.Domain.ValueString()})
		// The framework wants an identity even for a removed resource.
		setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "read", state.Domain.ValueString(), err)
		return
	}
	op.end(true)
	if otherWebsite(state, w) {
		tflog.Warn(ctx, "another website is under the managed website's id; removing the managed one from the state",
			map[string]any{"id": id, "domain": state.Domain.ValueString(), "domain_now": w.Domain})
		addOtherWebsiteWarning(&resp.Diagnostics, id, state, w)
		setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
		resp.State.RemoveResource(ctx)
		return
	}
	if err := state.applyWebsite(w); err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	if state.SkipDestroy.IsNull() {
		state.SkipDestroy = types.BoolValue(false) // imported
	}
	if state.TrackingCode.IsNull() {
		// Imported, or upgraded from a state written before tracking_code;
		// a changed setting is left to the plan, which shows it.
		state.TrackingCode = r.data.trackingCodeValue()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	recordFoldedIPs(ctx, w, resp.Private, &resp.Diagnostics) // website_ips_folded.go
	if remembered == nil {
		remember(ctx, resp.Private, owner, &resp.Diagnostics)
	}
	setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
}

func (r *websiteResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state websiteResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	// The plan's record for a replacement (website_kept.go) is not state.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, keptDomainKey, nil)...)
	reclear := unsettledClear(ctx, plan.ExcludeParams, req.Private, &resp.Diagnostics)
	// exclude_ips is sent unless ignore_changes kept the state's list
	// (website_ips_ignored.go; at apply the configuration is as written):
	// an update writes back a list whose repeats the read folded when its
	// plan said so (website_ips_folded.go), and nothing else unplanned.
	// (req.Private and resp.Private are one: read the plan's mark first.)
	plannedWriteBack := marked(ctx, req.Private, ipsWriteBackKey, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, ipsWriteBackKey, nil)...)
	var cfgIPs types.Set
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("exclude_ips"), &cfgIPs)...)
	managedIPs := configSetsPlannedIPs(ctx, cfgIPs, plan.ExcludeIPs)
	writeBack := managedIPs && plannedWriteBack &&
		foldedUnchanged(ctx, plan.ExcludeIPs, state.ExcludeIPs, req.Private, &resp.Diagnostics)
	if plannedWriteBack && !managedIPs {
		// Another resource of the domain configures the state's list, so
		// the plan took it for this one's: the configuration as written
		// sets another list, which ignore_changes keeps. Recorded, so that
		// no later plan announces the write-back again.
		recordKeptIPs(ctx, plan.ExcludeIPs, cfgIPs, resp.Private, &resp.Diagnostics)
		addIPsKept(&resp.Diagnostics, plan.Domain.ValueString())
	}
	localOnly := !reclear && onlyLocalChange(plan, state)
	if !resp.Diagnostics.HasError() && localOnly && !writeBack {
		// skip_destroy, timeouts or tracking_code: nothing to send.
		r.applyLocally(ctx, plan, state, resp)
		return
	}
	c := dataClient(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	id := state.id(&resp.Diagnostics)
	prior := withForgottenPassword(ctx, state, req.Private, &resp.Diagnostics)
	in := plan.input(ctx, &prior, &resp.Diagnostics)
	// Not managed (ignore_changes): the server keeps its list.
	in.OmitExcludeIPs = !managedIPs
	kept := keptByUpdate(plan, state)
	for _, a := range kept {
		in.KeepOnUpdate = append(in.KeepOnUpdate, a.apiField)
	}
	if reclear { // the clear of an update whose answer was lost, again
		in.ExcludeParams, in.OmitExcludeParams = []string{}, false
	}
	// password_wo is sent again only when its version changes, or when the
	// server may hold no password (privacy was not "password" before, or
	// the update's answer says it has none: see writeOnlyPasswordLost);
	// otherwise the update leaves the stored password alone.
	wo := writeOnlyPassword(ctx, req.Config, &resp.Diagnostics)
	if in.Password == nil && (!plan.PasswordWOVer.Equal(state.PasswordWOVer) || state.Privacy.ValueString() != privacyPassword) {
		in.Password = wo
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	remembered, owner, ok := r.owners(ctx, "update", state, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}

	// exclude_ips is sent only when the plan changes it, or to write back
	// once each a list whose repeats the last read folded: the API leaves
	// a field it is not sent as stored, so an update keeps what the web
	// interface changed after the plan's refresh (website_ips_ignored.go).
	leftOut := managedIPs && plan.ExcludeIPs.Equal(state.ExcludeIPs) && !writeBack
	if leftOut {
		in.OmitExcludeIPs = true
	}
	if writeBack {
		// The write-back compares the list with the server's as it is
		// now, not as a list read earlier in this run showed it: one
		// more request per website written back.
		r.data.websites.Forget(id)
	}

	// Nothing is written to a website whose identity this command has not
	// checked (website_identity.go).
	current, err := r.checkIdentity(ctx, "update", id, state, &resp.Diagnostics)
	if errors.Is(err, client.ErrNotFound) {
		addDeletedBeforeUpdate(&resp.Diagnostics, in.Domain, id)
		return
	} else if err != nil {
		addAPIError(&resp.Diagnostics, "update", in.Domain, err)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	// A list to write back without repeats that the server no longer
	// holds as the state does (the web interface changed it after the
	// plan's refresh) is left as the server holds it: the update does not
	// undo what the plan did not show.
	if writeBack && !sameIPSet(ctx, current.ExcludeIPs, state.ExcludeIPs) {
		in.OmitExcludeIPs = true
		addIPsChangedSincePlan(&resp.Diagnostics, in.Domain, true)
		// The folded mark follows the list as read now, so that a plan
		// without refresh does not announce the write-back again.
		recordFoldedIPs(ctx, current, resp.Private, &resp.Diagnostics)
	}
	if writeBack && localOnly {
		// The plan shows nothing else for the server: the write-back sends
		// the list alone, so that no other field of the server's is
		// written over, and nothing when the list is left out.
		if in.OmitExcludeIPs {
			r.applyLocally(ctx, plan, state, resp)
			return
		}
		in.OnlyExcludeIPs, in.Password = true, nil
	}
	// A 500 is checked with a read: the website is gone, or the update is
	// retried (see client.UpdateWebsite).
	var w *client.Website
	err = r.data.websites.Write(ctx, id, func() (*client.Website, error) {
		var err error
		w, err = c.UpdateWebsite(ctx, id, in)
		if err == nil && !in.OnlyExcludeIPs && writeOnlyPasswordLost(w, in.Password, wo) {
			tflog.Warn(ctx, "the server reports no password although password_wo is configured (removed outside "+
				"Terraform since the last refresh); sending password_wo again", map[string]any{"id": id, "domain": in.Domain})
			in.Password = wo
			w, err = c.UpdateWebsite(ctx, id, in)
		}
		return w, err
	})
	if errors.Is(err, client.ErrNotFound) {
		// UpdateWebsite has confirmed with a read that the website is
		// gone (the real server answers the update itself with a 500).
		addDeletedBeforeUpdate(&resp.Diagnostics, in.Domain, id)
		return
	}
	if err != nil {
		addWriteError(&resp.Diagnostics, "update", in.Domain, wo != nil, err)
		if updateMayHaveApplied(err) {
			keepUnsettled(ctx, state, in, &resp.State, resp.Private, &resp.Diagnostics)
			// The server holds what was sent or what it held before.
			recordWrittenIPs(ctx, types.SetNull(types.StringType), resp.Private, &resp.Diagnostics)
		}
		return
	}
	plan.ID = state.ID
	planned := plan
	if err := plan.applyWebsite(w); err != nil {
		resp.Diagnostics.AddError("Unexpected Website Record", err.Error())
		return
	}
	keepPlannedKept(&plan, planned, kept, &resp.Diagnostics)
	keepSentPassword(&plan, planned, in.Password, &resp.Diagnostics)
	if in.OnlyExcludeIPs {
		// Nothing else was sent: the state keeps the plan, as an update
		// without a request does, until the next refresh reads the
		// server's other fields.
		plan = planned.appliedLocally(state)
		if planned.UpdatedAt.IsUnknown() { // else the plan keeps it (planFoldedIPs)
			plan.UpdatedAt = timeValue(w.UpdatedAt)
		}
	}
	if leftOut && !sameIPSet(ctx, w.ExcludeIPs, state.ExcludeIPs) {
		addIPsChangedSincePlan(&resp.Diagnostics, in.Domain, false)
	}
	if in.OmitExcludeIPs {
		// The plan kept the state's list, and Terraform holds the apply
		// to it: the next refresh reads the server's.
		plan.ExcludeIPs = planned.ExcludeIPs
	}
	plan.TrackingCode = r.data.trackingCodeOr(plan.TrackingCode)
	tflog.Info(ctx, "updated website", map[string]any{"id": id, "domain": w.Domain})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if remembered == nil {
		remember(ctx, resp.Private, owner, &resp.Diagnostics)
	}
	if in.SendsOnUpdate("password") { // the state says again what Terraform set
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, passwordSetKey, nil)...)
	}
	if in.SendsOnUpdate("exclude_params") { // the server holds what was sent
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, excludeParamsSentKey, nil)...)
	}
	recordFoldedIPs(ctx, w, resp.Private, &resp.Diagnostics) // the server holds what was sent
	if in.SendsOnUpdate("exclude_ips") {
		recordWrittenIPs(ctx, plan.ExcludeIPs, resp.Private, &resp.Diagnostics)
		recordKeptIPs(ctx, types.SetNull(types.StringType), types.SetNull(types.StringType), resp.Private, &resp.Diagnostics)
	}
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
}

func (r *websiteResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state websiteResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !resp.Diagnostics.HasError() && state.SkipDestroy.ValueBool() {
		// Only the state forgets it: no request, the server keeps the
		// website and its statistics.
		if !r.keepInState(ctx, state, req.Private) {
			addKeptForRefusedCreate(&resp.Diagnostics, state.Domain.ValueString(), state.ID.ValueString())
			return // the state keeps it
		}
		tflog.Info(ctx, "skip_destroy: removing the website from the state only; it stays on the server",
			map[string]any{"id": state.ID.ValueString(), "domain": state.Domain.ValueString()})
		return
	}
	c := dataClient(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	id := state.id(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if reason := r.data.exports.reason(id, state.Domain.ValueString()); reason != "" {
		addDeleteAfterFailedExport(&resp.Diagnostics, state.Domain.ValueString(), state.ID.ValueString(), reason)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	op := r.data.guard.begin()
	defer op.end(false)
	remembered, owner, ok := r.owners(ctx, "delete", state, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}
	// Nothing is deleted whose identity this command has not checked
	// (website_identity.go); a website already gone is settled below.
	_, err := r.checkIdentity(ctx, "delete", id, state, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err == nil {
		err = r.data.websites.Write(ctx, id, func() (*client.Website, error) { return nil, c.DeleteWebsite(ctx, id) })
	} else {
		r.data.websites.Forget(id)
	}
	if err == nil {
		r.data.websiteDeleted(id)
	}
	if errors.Is(err, client.ErrNotFound) {
		if !r.mayLeaveState(ctx, op, "delete", state, remembered, owner, &resp.Diagnostics) {
			return
		}
		tflog.Info(ctx, "website already deleted", map[string]any{"id": id})
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "delete", state.Domain.ValueString(), err)
		return
	}
	op.end(true)
	tflog.Info(ctx, "deleted website", map[string]any{"id": id, "domain": state.Domain.ValueString()})
}

// applyLocally ends an update whose plan changes nothing on the server
// (skip_destroy, timeouts, tracking_code): the state takes the plan.
func (r *websiteResource) applyLocally(ctx context.Context, plan, state websiteResourceModel, resp *resource.UpdateResponse) {
	plan = plan.appliedLocally(state)
	plan.TrackingCode = r.data.trackingCodeOr(plan.TrackingCode)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// ValidateConfig checks the rules that span attributes, at plan time. That
// "password" privacy needs a password is checked by ModifyPlan, since it
// depends on the prior state.
func (r *websiteResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg websiteResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.data != nil {
		r.data.ipsConfigured.note(ctx, cfg) // website_ips_ignored.go
	}
	checkTimeouts(cfg.Timeouts, &resp.Diagnostics)
	if cfg.Privacy.IsUnknown() {
		return
	}
	privacy := cfg.Privacy.ValueString()
	if cfg.Privacy.IsNull() {
		privacy = privacyPublic
	}
	if privacy == privacyPassword {
		return
	}
	// Both set at once is refused by password_wo's ConflictsWith.
	for _, a := range []struct {
		name string
		set  bool
	}{{"password", !cfg.Password.IsNull()}, {"password_wo", !cfg.PasswordWO.IsNull()}} {
		if a.set {
			resp.Diagnostics.AddAttributeError(path.Root(a.name), "Password Without Password Privacy",
				fmt.Sprintf("A password only takes effect when privacy = \"password\", but privacy is %q. "+
					"Set privacy = \"password\", or remove %s.", privacy, a.name))
		}
	}
}

// ModifyPlan checks, at plan time, what depends on the prior state or on the
// server: a website that gets "password" privacy (new, or switched to it)
// needs a password, creating more websites than the user's plan allows is
// warned about, and so is a destroy or replacement that deletes statistics
// (see website_destroy.go).
func (r *websiteResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		if !req.State.Raw.IsNull() { // destroy
			var state websiteResourceModel
			resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
			if !resp.Diagnostics.HasError() {
				r.planDestroy(ctx, state, "", false, &resp.Diagnostics)
			}
			if r.data != nil && state.SkipDestroy.ValueBool() {
				for _, create := range r.data.keptPlans.removal(state) {
					refuseKeptHandOver(create, state, &resp.Diagnostics)
				}
			}
			if r.data != nil && !state.SkipDestroy.ValueBool() {
				// Room for the creates, if it runs first (website_limit.go).
				r.warnLimit(ctx, limitDelete, state.Domain, deletingLead(state.Domain), resp)
			}
		}
		return
	}
	var plan, cfg websiteResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.data != nil && !plan.TrackingCode.Equal(r.data.trackingCodeValue()) {
		// The provider's tracking settings changed (or the website is new):
		// planned here, applied without a request (onlyLocalChange).
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tracking_code"), r.data.trackingCodeValue())...)
	}
	creating := req.State.Raw.IsNull()
	if creating {
		n := resp.Diagnostics.ErrorsCount()
		checkNewStoredOnlyDomain(plan.Domain, &resp.Diagnostics)
		// Only a plain create may be a tainted website's replacement: the
		// second plan of a forced one carries the first plan's private state.
		if resp.Diagnostics.ErrorsCount() > n && !replacementSecondPlan(ctx, req.Private, &resp.Diagnostics) {
			r.refuseHeldStoredOnly(ctx, plan.Domain, &resp.Diagnostics) // website_kept.go
		}
		refuseKeptReplacement(ctx, plan.Domain, req.Private, resp) // website_kept.go
		if r.data != nil && !replacementSecondPlan(ctx, req.Private, &resp.Diagnostics) {
			for _, kept := range r.data.keptPlans.create(plan) {
				refuseKeptHandOver(plan, kept, &resp.Diagnostics)
			}
		}
	}
	priorPrivacy := ""
	var prior websiteResourceModel
	if !creating {
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
		if resp.Diagnostics.HasError() {
			return
		}
		priorPrivacy = prior.Privacy.ValueString()
		recordKeptDomain(ctx, prior, resp.Private, &resp.Diagnostics)
		if !plan.Domain.Equal(prior.Domain) { // domain requires replacement
			checkNewStoredOnlyDomain(plan.Domain, &resp.Diagnostics)
			warnASCIIReplacement(prior.Domain, plan.Domain, &resp.Diagnostics)
			r.planDestroy(ctx, prior, replacementDomain(plan), plan.SkipDestroy.ValueBool(), &resp.Diagnostics)
		} else {
			warnStoredOnlyDomain(plan.Domain, &resp.Diagnostics)
			if unsettledClear(ctx, cfg.ExcludeParams, req.Private, &resp.Diagnostics) {
				planUnsettledClear(ctx, plan.Domain, resp)
			}
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, ipsWriteBackKey, nil)...)
			var notes *configuredIPs
			if r.data != nil {
				notes = &r.data.ipsConfigured
			}
			if notes.planWriteBack(ctx, cfg, plan.ExcludeIPs, prior.ExcludeIPs, req.Private, &resp.Diagnostics) &&
				storableIPs(plan.ExcludeIPs) {
				planFoldedIPs(ctx, plan.Domain, req.State.Raw, resp) // website_ips_folded.go
			}
		}
	}
	// A new website (a create, a replacement, a tainted website) gets no
	// entry that never matches; the website the server holds keeps its own.
	held := prior.ExcludeIPs
	if creating || !plan.Domain.Equal(prior.Domain) {
		held = types.SetNull(types.StringType)
	}
	checkInertIPs(plan.ExcludeIPs, held, &resp.Diagnostics)
	if !plan.Privacy.IsUnknown() && plan.Privacy.ValueString() == privacyPassword && priorPrivacy != privacyPassword &&
		cfg.Password.IsNull() && cfg.PasswordWO.IsNull() {
		what := "A new website with privacy = \"password\""
		if !creating {
			what = fmt.Sprintf("Switching privacy from %q to \"password\"", priorPrivacy)
		}
		resp.Diagnostics.AddAttributeError(path.Root("password"), "Missing Password",
			what+" protects the statistics page with a password, so \"password\" or \"password_wo\" must be set. "+
				"Set password (e.g. from a variable marked sensitive), or password_wo with password_wo_version to keep "+
				"the password out of the state (Terraform 1.11 or later), or choose privacy \"public\" or \"private\".")
	}
	if r.data == nil || resp.Diagnostics.HasError() {
		return
	}
	if !creating { // set again below when this plan counts a replacement
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacementCountedKey, nil)...)
	}
	switch {
	case creating && replacementSecondPlan(ctx, req.Private, &resp.Diagnostics):
		// Terraform plans the new website of a replacement again with no
		// prior state but the first plan's private state, and drops the
		// warnings of that second plan. A replacement for a new domain was
		// counted in the first plan; one the first plan did not count is
		// forced (-replace, replace_triggered_by): counted here, so that the
		// websites planned after it see it.
		if !replacementCounted(ctx, req.Private, &resp.Diagnostics) {
			// Its domain was claimed by no plan of this run yet; a new
			// resource with it would be created after the delete.
			r.refuseSecondCreate(plan.Domain, &resp.Diagnostics)
			r.warnLimit(ctx, limitReplace, plan.Domain, forcedLead(plan.Domain), resp)
		}
		return
	case creating:
		// A tainted website is planned as a create, with no prior state.
		r.refuseSecondCreate(plan.Domain, &resp.Diagnostics)
		var held domainLookup
		if r.heldAlready(ctx, plan.Domain, &held) {
			r.warnHeldLimit(ctx, plan.Domain, resp) // website_limit_replace.go
		} else {
			r.warnLimit(ctx, limitCreate, plan.Domain, creatingLead(plan.Domain), resp)
		}
		r.warnDomainHeld(ctx, plan, &held, &resp.Diagnostics) // website_kept.go
	case !plan.Domain.Equal(prior.Domain) && prior.SkipDestroy.ValueBool():
		// The old website stays on the server: the new one is a website
		// more, whatever the order.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacementCountedKey, []byte("true"))...)
		r.refuseSecondCreate(plan.Domain, &resp.Diagnostics)
		r.warnLimit(ctx, limitCreate, plan.Domain, keepingLead(prior.Domain.ValueString(), plan.Domain), resp)
		r.warnNewDomainHeld(ctx, prior, plan, &resp.Diagnostics) // website_limit_replace.go
	case !plan.Domain.Equal(prior.Domain): // known or not, a new domain replaces the website
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacementCountedKey, []byte("true"))...)
		r.refuseSecondCreate(plan.Domain, &resp.Diagnostics)
		r.warnLimit(ctx, limitReplace, plan.Domain, replacingLead(prior.Domain.ValueString(), plan.Domain), resp)
		r.warnNewDomainHeld(ctx, prior, plan, &resp.Diagnostics)
	}
	if plan.EmailReports.ValueBool() && (creating || !prior.EmailReports.ValueBool() || !plan.Domain.Equal(prior.Domain)) {
		// A create or a new domain ran a limit check above, which says why
		// the account could not be read; an update did not.
		r.warnEmailReports(ctx, plan, !creating && plan.Domain.Equal(prior.Domain), resp)
	}
}

// warnEmailReports warns when the plan writes email_reports = true (a new
// website, or a change to true) for a user whose plan has no e-mail
// reports: the server stores it and never sends one. It uses the account
// of the other checks; when that cannot be read, the check is skipped: the
// limit check of a create or a new domain says why, and for an update
// (sayWhy) this check says it (nothing on builds without GET /account).
func (r *websiteResource) warnEmailReports(ctx context.Context, plan websiteResourceModel, sayWhy bool,
	resp *resource.ModifyPlanResponse,
) {
	a, err := r.data.checksAccount(ctx)
	if err != nil {
		tflog.Debug(ctx, "e-mail reports not checked against the plan: the account could not be read",
			map[string]any{"error": err.Error()})
		if sayWhy && !errors.Is(err, client.ErrAccountUnsupported) {
			addEmailReportsNotChecked(&resp.Diagnostics, plan.Domain, err)
		}
		return
	}
	if f := a.Plan.Features.EmailReports; f != nil && !*f {
		addEmailReportsOffWarning(&resp.Diagnostics, plan.Domain, a.Plan.Name)
	}
}

// timeoutNames are the operations of the website's timeouts block.
var timeoutNames = []string{"create", "read", "update", "delete"}

// checkTimeouts refuses a value of the timeouts block that is a Go duration
// but not a positive one (positiveDuration): the block's own validator
// (terraform-plugin-framework-timeouts) accepts "0s" and "-5m", with which
// every operation would end before its first request. Values that are no
// duration at all get that validator's error, and none from here.
func checkTimeouts(t timeouts.Value, diags *diag.Diagnostics) {
	if t.IsNull() || t.IsUnknown() {
		return
	}
	attrs := t.Attributes()
	for _, name := range timeoutNames {
		v, ok := attrs[name].(types.String)
		if !ok || v.IsNull() || v.IsUnknown() {
			continue
		}
		if _, err := time.ParseDuration(v.ValueString()); err != nil {
			continue
		}
		at := path.Root("timeouts").AtName(name)
		if _, p := positiveDuration(at, v.ValueString()); p != "" {
			diags.AddAttributeError(at, "Invalid Timeout", p)
		}
	}
}

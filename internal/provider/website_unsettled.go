package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// An update that fails may still have been applied: the server stored it
// and its answer was lost (a connection reset, a proxy's 502, a timeout).
// The refresh reads back every field the server returns, but never
// exclude_params nor the password: if the state kept their prior values,
// a configuration reverted to them would plan no change while the server
// holds the new ones. So after such a failure the state forgets what the
// update sent of them (null, and password_wo_version too), and the next
// plan shows the change again, whatever the configuration says.

// updateMayHaveApplied reports whether the server may have applied an
// update that failed with err: anything but a refusal (4xx), which the
// application answers before it writes.
func updateMayHaveApplied(err error) bool {
	if apiErr, ok := client.AsAPIError(err); ok && apiErr.StatusCode >= 400 && apiErr.StatusCode < 500 {
		return false
	}
	return true
}

// keepUnsettled writes the prior state with what in sent of the attributes
// the API never returns unset, after an update that may have been applied
// (updateMayHaveApplied).
func keepUnsettled(ctx context.Context, state websiteResourceModel, in client.WebsiteInput, st *tfsdk.State,
	private privateSetter, diags *diag.Diagnostics,
) {
	changed := false
	sentParams := in.SendsOnUpdate("exclude_params")
	if sentParams {
		// A clear forgotten this way equals a configuration without
		// exclude_params: the private state remembers it, so that the next
		// plan sends the clear again (planUnsettledClear).
		diags.Append(private.SetKey(ctx, excludeParamsSentKey, []byte("true"))...)
	}
	if sentParams && !state.ExcludeParams.IsNull() {
		state.ExcludeParams = types.SetNull(types.StringType)
		changed = true
	}
	if in.SendsOnUpdate("password") && (!state.Password.IsNull() || !state.PasswordWOVer.IsNull() || *in.Password != "") {
		state.Password, state.PasswordWOVer = types.StringNull(), types.Int64Null()
		changed = true
		// The state no longer tells that Terraform set a password: the
		// private state does, so that leaving "password" privacy still
		// clears it (sendPassword).
		diags.Append(private.SetKey(ctx, passwordSetKey, []byte("true"))...)
	}
	if !changed {
		return
	}
	tflog.Warn(ctx, "the update failed but may have been applied: the state forgets exclude_params and the password "+
		"it sent, so that the next plan sends them again", map[string]any{"id": state.ID.ValueString()})
	diags.Append(st.Set(ctx, &state)...)
}

// passwordSetKey is the private state's mark of a password Terraform set
// that the state forgot (keepUnsettled).
const passwordSetKey = "password_set"

// withForgottenPassword returns the prior state as sendPassword needs it:
// when the private state marks a password Terraform set but the state
// forgot, the password is unknown (set, value not known) rather than null.
func withForgottenPassword(ctx context.Context, prior websiteResourceModel, private privateGetter,
	diags *diag.Diagnostics,
) websiteResourceModel {
	if private == nil || !prior.Password.IsNull() || !prior.PasswordWOVer.IsNull() {
		return prior
	}
	raw, d := private.GetKey(ctx, passwordSetKey)
	diags.Append(d...)
	if string(raw) == "true" {
		prior.Password = types.StringUnknown()
	}
	return prior
}

// excludeParamsSentKey is the private state's mark of exclude_params sent
// by an update that may have been applied (keepUnsettled): the server may
// hold what was sent, or what it held before.
const excludeParamsSentKey = "exclude_params_sent"

// unsettledClear reports whether exclude_params must be cleared although
// the state and the configuration have none (cfg is null): an update sent
// it and lost its answer (excludeParamsSentKey), so the server may hold
// what Terraform set.
func unsettledClear(ctx context.Context, cfg types.Set, private privateGetter, diags *diag.Diagnostics) bool {
	return cfg.IsNull() && marked(ctx, private, excludeParamsSentKey, diags)
}

// marked reports whether private holds the mark key ("true").
func marked(ctx context.Context, private privateGetter, key string, diags *diag.Diagnostics) bool {
	return privateString(ctx, private, key, diags) == "true"
}

// privateString returns the value of key in private ("" when there is no
// private state or no such key).
func privateString(ctx context.Context, private privateGetter, key string, diags *diag.Diagnostics) string {
	if private == nil {
		return ""
	}
	raw, d := private.GetKey(ctx, key)
	diags.Append(d...)
	return string(raw)
}

// planUnsettledClear plans the update that sends the clear again
// (unsettledClear): exclude_params is null in the plan as in the state, so
// the update shows as updated_at, which it changes.
func planUnsettledClear(ctx context.Context, domain types.String, resp *resource.ModifyPlanResponse) {
	planRewrite(ctx, "exclude_params", "Clearing exclude_params Again",
		fmt.Sprintf("The last update of %q sent exclude_params but got no answer, so the server may still hold "+
			"what Terraform set. This apply clears it again. To keep it, set exclude_params.", domain.ValueString()), resp)
}

// planRewrite plans an update that the plan does not show as a change of
// attr (the plan equals the state there): it shows as updated_at, which
// the update changes, and a warning on attr says why.
func planRewrite(ctx context.Context, attr, summary, detail string, resp *resource.ModifyPlanResponse) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("updated_at"), types.StringUnknown())...)
	resp.Diagnostics.AddAttributeWarning(path.Root(attr), summary, detail)
}

package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// input sends the fields the API never returns only when the configuration
// manages them, or to clear what Terraform set.
func TestWebsiteInput_unreadableFields(t *testing.T) {
	t.Parallel()
	base := func(privacy string, params types.Set, password types.String) websiteResourceModel {
		return websiteResourceModel{
			Domain: types.StringValue("example.com"), Privacy: types.StringValue(privacy),
			EmailReports: types.BoolValue(false), ExcludeBots: types.BoolValue(true),
			ExcludeParams: params, ExcludeIPs: stringSetValue(nil),
			Password: password, PasswordWOVer: types.Int64Null(),
		}
	}
	null := types.SetNull(types.StringType)
	noPW := types.StringNull()
	pw := types.StringValue("s3cret-pass")
	tests := []struct {
		name        string
		plan        websiteResourceModel
		prior       *websiteResourceModel
		omitParams  bool
		wantParams  []string
		wantPasswd  *string
		wantPWIsSet bool
	}{
		{name: "create, params unset", plan: base("public", null, noPW), omitParams: true},
		{name: "create, params empty", plan: base("public", stringSetValue(nil), noPW), wantParams: []string{}},
		{name: "create, params set", plan: base("public", stringSetValue([]string{"a"}), noPW), wantParams: []string{"a"}},
		{name: "imported, unrelated change", plan: base("public", null, noPW), prior: ptr(base("public", null, noPW)), omitParams: true},
		{name: "upgraded 0.1.0 state", plan: base("public", null, noPW), prior: ptr(base("public", null, noPW)), omitParams: true},
		{name: "removed after Terraform set it", plan: base("public", null, noPW), prior: ptr(base("public", stringSetValue([]string{"a"}), noPW)), wantParams: []string{}},
		{name: "empty removed", plan: base("public", null, noPW), prior: ptr(base("public", stringSetValue(nil), noPW)), omitParams: true},
		{name: "password sent", plan: base("password", null, pw), omitParams: true, wantPWIsSet: true, wantPasswd: ptr("s3cret-pass")},
		{name: "imported password privacy keeps the server's", plan: base("password", null, noPW), prior: ptr(base("password", null, noPW)), omitParams: true},
		{name: "leaving password privacy clears Terraform's", plan: base("public", null, noPW), prior: ptr(base("password", null, pw)), omitParams: true, wantPWIsSet: true, wantPasswd: ptr("")},
		{name: "public website never sends a password", plan: base("private", null, noPW), prior: ptr(base("public", null, noPW)), omitParams: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			in := tc.plan.input(context.Background(), tc.prior, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if in.OmitExcludeParams != tc.omitParams {
				t.Errorf("OmitExcludeParams = %v, want %v", in.OmitExcludeParams, tc.omitParams)
			}
			if !tc.omitParams && (in.ExcludeParams == nil || len(in.ExcludeParams) != len(tc.wantParams)) {
				t.Errorf("ExcludeParams = %#v, want %#v", in.ExcludeParams, tc.wantParams)
			}
			if (in.Password != nil) != tc.wantPWIsSet || (in.Password != nil && *in.Password != *tc.wantPasswd) {
				t.Errorf("Password sent = %v, want %v", in.Password != nil, tc.wantPWIsSet)
			}
			if in.Privacy != privacyToAPI(tc.plan.Privacy.ValueString()) || in.Privacy > client.PrivacyPassword {
				t.Errorf("Privacy = %d", in.Privacy)
			}
		})
	}
}

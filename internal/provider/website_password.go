package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The API never returns the password, only whether one is set: these
// helpers decide what Create and Update send and what the state keeps.
// Which password input sends is decided in website_schema.go.

// terraformSetPassword reports whether Terraform set the website's password
// (prior is the state before the change; nil on create).
func terraformSetPassword(prior *websiteResourceModel) bool {
	return prior != nil && (!prior.Password.IsNull() || !prior.PasswordWOVer.IsNull())
}

// sendPassword sends password when set in the configuration (password_wo is
// added by Create and Update, see writeOnlyPassword); as empty, which clears
// it, when the website leaves "password" privacy and Terraform had set the
// password; else not at all.
func sendPassword(_ context.Context, m websiteResourceModel, prior *websiteResourceModel, in *client.WebsiteInput, _ *diag.Diagnostics) {
	switch {
	case !m.Password.IsNull() && !m.Password.IsUnknown():
		pw := m.Password.ValueString()
		in.Password = &pw
	case privacyToAPI(m.Privacy.ValueString()) != client.PrivacyPassword && terraformSetPassword(prior):
		// Leaving password privacy clears the password Terraform set (the
		// server would keep it otherwise).
		empty := ""
		in.Password = &empty
	}
}

// writeOnlyPassword returns password_wo from the configuration, for
// in.Password. Write-only values are only in the configuration, never in the
// plan or state.
func writeOnlyPassword(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) *string {
	var wo types.String
	diags.Append(config.GetAttribute(ctx, path.Root("password_wo"), &wo)...)
	if diags.HasError() || wo.IsNull() || wo.IsUnknown() {
		return nil
	}
	pw := wo.ValueString()
	return &pw
}

// writeOnlyPasswordLost reports whether an update that sent no password
// (sent is nil) found the website without one, although it has "password"
// privacy and password_wo is configured (wo is not nil): the password was
// removed outside Terraform where the plan could not see it (an apply with
// -refresh=false, or a removal after the refresh), so password_wo_version is
// planned unchanged and the update did not send password_wo. Update then
// sends it again, as it always sends password.
func writeOnlyPasswordLost(w *client.Website, sent, wo *string) bool {
	return sent == nil && wo != nil && *wo != "" && !w.PasswordSet && w.PrivacyValue() == client.PrivacyPassword
}

// keepSentPassword keeps the planned password (password, or
// password_wo_version) in the state when the server's answer says that no
// password is set, and warns, instead of letting Terraform fail with
// "inconsistent result" (and, on create, taint the website): when the
// password just sent is one the server treats as empty that the validators
// did not catch, or when none was sent (a password removed outside Terraform
// that could not be sent again). The next refresh finds no password, so the
// next plan sets it again. planned is the plan before applyWebsite.
func keepSentPassword(m *websiteResourceModel, planned websiteResourceModel, sent *string, diags *diag.Diagnostics) {
	if (sent != nil && *sent == "") || m.Privacy.ValueString() != privacyPassword {
		return
	}
	if m.Password.Equal(planned.Password) && m.PasswordWOVer.Equal(planned.PasswordWOVer) {
		return
	}
	m.Password, m.PasswordWOVer = planned.Password, planned.PasswordWOVer
	if sent == nil {
		diags.AddAttributeWarning(path.Root("password"), "Password Missing on the Server",
			"The server reports that the website has no password: it was removed outside Terraform after the last "+
				"refresh, and Terraform could not send it again. The next plan shows it to be set again; apply it.")
		return
	}
	diags.AddAttributeWarning(path.Root("password"), "Password Not Stored",
		"The server accepted the password but reports that the website has none: it treats some values as empty "+
			"(e.g. \"0\"). Choose another password; until then every plan shows it to be set again.")
}

package provider

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// websiteResourceModel is the analytics_website resource's plan and state
// (its schema is in website_schema.go); input and applyWebsite map it to
// and from the client's types.
type websiteResourceModel struct {
	ID            types.String   `tfsdk:"id"`
	Domain        types.String   `tfsdk:"domain"`
	Privacy       types.String   `tfsdk:"privacy"`
	Password      types.String   `tfsdk:"password"`
	PasswordWO    types.String   `tfsdk:"password_wo"`
	PasswordWOVer types.Int64    `tfsdk:"password_wo_version"`
	EmailReports  types.Bool     `tfsdk:"email_reports"`
	ExcludeBots   types.Bool     `tfsdk:"exclude_bots"`
	ExcludeParams types.Set      `tfsdk:"exclude_params"`
	ExcludeIPs    types.Set      `tfsdk:"exclude_ips"`
	CreatedAt     types.String   `tfsdk:"created_at"`
	UpdatedAt     types.String   `tfsdk:"updated_at"`
	SkipDestroy   types.Bool     `tfsdk:"skip_destroy"`
	TrackingCode  types.String   `tfsdk:"tracking_code"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

// websiteIdentityModel is the resource identity (Terraform 1.12 and later):
// the website's id as the API knows it.
type websiteIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// Privacy names in configuration and their API values.
const (
	privacyPublic   = "public"
	privacyPrivate  = "private"
	privacyPassword = "password"
)

var privacyNames = []string{privacyPublic, privacyPrivate, privacyPassword}

func privacyToAPI(name string) int {
	switch name {
	case privacyPrivate:
		return client.PrivacyPrivate
	case privacyPassword:
		return client.PrivacyPassword
	default:
		return client.PrivacyPublic
	}
}

func privacyFromAPI(v int) (string, error) {
	if v >= 0 && v < len(privacyNames) {
		return privacyNames[v], nil
	}
	return "", fmt.Errorf("the server returned privacy %d, which is none of 0 (public), 1 (private), 2 (password)", v)
}

// terraformSetPassword reports whether Terraform set the website's password
// (prior is the state before the change; nil on create).
func terraformSetPassword(prior *websiteResourceModel) bool {
	return prior != nil && (!prior.Password.IsNull() || !prior.PasswordWOVer.IsNull())
}

// input builds the API fields from a plan; prior is the state before the
// change (nil on create). Fields the API returns are always sent. The two it
// never returns are sent only when the configuration manages them, or to
// clear a value that Terraform itself set and the configuration removed:
//   - exclude_params: when set in the configuration; else, if the prior
//     state holds entries (Terraform set them), as empty (NULL on the
//     server); else not at all, so the server keeps its value.
//   - password: when set in the configuration (password; password_wo is
//     added by Create and Update, see writeOnlyPassword); as empty, which
//     clears it, when the website leaves "password" privacy and Terraform had
//     set the password; else not at all.
func (m websiteResourceModel) input(ctx context.Context, prior *websiteResourceModel, diags *diag.Diagnostics) client.WebsiteInput {
	in := client.WebsiteInput{
		Domain:      m.Domain.ValueString(),
		Privacy:     privacyToAPI(m.Privacy.ValueString()),
		Email:       m.EmailReports.ValueBool(),
		ExcludeBots: m.ExcludeBots.ValueBool(),
		ExcludeIPs:  []string{},
	}
	if !m.ExcludeIPs.IsNull() && !m.ExcludeIPs.IsUnknown() {
		diags.Append(m.ExcludeIPs.ElementsAs(ctx, &in.ExcludeIPs, false)...)
	}
	switch {
	case !m.ExcludeParams.IsNull() && !m.ExcludeParams.IsUnknown():
		in.ExcludeParams = []string{}
		diags.Append(m.ExcludeParams.ElementsAs(ctx, &in.ExcludeParams, false)...)
	case prior != nil && len(prior.ExcludeParams.Elements()) > 0:
		in.ExcludeParams = []string{} // clear what Terraform set
	default:
		in.OmitExcludeParams = true
	}
	switch {
	case !m.Password.IsNull() && !m.Password.IsUnknown():
		pw := m.Password.ValueString()
		in.Password = &pw
	case in.Privacy != client.PrivacyPassword && terraformSetPassword(prior):
		// Leaving password privacy clears the password Terraform set (the
		// server would keep it otherwise).
		empty := ""
		in.Password = &empty
	}
	return in
}

// applyWebsite copies the server's view of a website into the model. The
// API does not return the password and exclude_params: the password is kept
// unless the server says none is set (or the privacy is not "password");
// exclude_params is kept as it is (null when not managed).
func (m *websiteResourceModel) applyWebsite(w *client.Website) error {
	privacy, err := privacyFromAPI(w.PrivacyValue())
	if err != nil {
		return err
	}
	m.ID = types.StringValue(strconv.FormatInt(w.ID, 10))
	m.Domain = types.StringValue(w.Domain)
	m.Privacy = types.StringValue(privacy)
	m.EmailReports = types.BoolValue(w.EmailValue())
	m.ExcludeBots = types.BoolValue(w.ExcludeBotsValue())
	m.ExcludeIPs = stringSetValue(w.ExcludeIPs)
	if !w.PasswordSet || privacy != privacyPassword {
		m.Password = types.StringNull()
		// Likewise for password_wo: its version then differs from the
		// configuration's, and the next apply sends the password again.
		m.PasswordWOVer = types.Int64Null()
	}
	if m.ExcludeParams.IsUnknown() {
		m.ExcludeParams = types.SetNull(types.StringType)
	}
	m.CreatedAt = timeValue(w.CreatedAt)
	m.UpdatedAt = timeValue(w.UpdatedAt)
	return nil
}

func timeValue(t time.Time) types.String {
	if t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.Format(time.RFC3339))
}

func (m websiteResourceModel) id(diags *diag.Diagnostics) int64 {
	id, err := strconv.ParseInt(m.ID.ValueString(), 10, 64)
	if err != nil {
		diags.AddAttributeError(path.Root("id"), "Invalid Website ID",
			fmt.Sprintf("The id %q in the state is not a number. Remove the resource from the state and import it again.", m.ID.ValueString()))
	}
	return id
}

package provider

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The resource's model: its plan and state, one field per attribute of
// websiteAttributes (website_attributes.go) that has a resource schema, and
// the functions that fill it: the request built from a plan (input, each
// attribute by its send), the state from an answer (applyWebsite, each
// attribute by its read) and the state of an update that sends nothing
// (appliedLocally).

// websiteResourceModel is the analytics_website resource's plan and state.
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

// websiteModelFields maps the tfsdk name of each field of
// websiteResourceModel to its index.
var websiteModelFields = func() map[string]int {
	t := reflect.TypeFor[websiteResourceModel]()
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		m[t.Field(i).Tag.Get("tfsdk")] = i
	}
	return m
}()

// attribute returns the model's value of the attribute name (a name of the
// resource's schema).
func (m *websiteResourceModel) attribute(name string) attr.Value {
	return reflect.ValueOf(m).Elem().Field(websiteModelField(name)).Interface().(attr.Value) //nolint:forcetypeassert // every field is an attr.Value (TestWebsiteAttributes_model)
}

// setAttribute sets the model's value of the attribute name; v has the
// field's type.
func (m *websiteResourceModel) setAttribute(name string, v attr.Value) {
	reflect.ValueOf(m).Elem().Field(websiteModelField(name)).Set(reflect.ValueOf(v))
}

// websiteModelField is the index of the model's field of the attribute
// name. A missing field is a bug that TestWebsiteAttributes_model names; it
// panics here rather than read or write another attribute's field.
func websiteModelField(name string) int {
	i, ok := websiteModelFields[name]
	if !ok {
		panic("websiteResourceModel (website_model.go) has no field tagged tfsdk:\"" + name + "\"; add it")
	}
	return i
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

// input builds the API fields from a plan, each attribute's by its send
// (website_attributes.go); prior is the state before the change (nil on
// create). Fields the API returns are always sent. The two it never returns
// are sent only when the configuration manages them, or to clear a value
// that Terraform itself set and the configuration removed: exclude_params
// (sendExcludeParams) and password (sendPassword; password_wo is added by
// Create and Update, see writeOnlyPassword).
func (m websiteResourceModel) input(ctx context.Context, prior *websiteResourceModel, diags *diag.Diagnostics) client.WebsiteInput {
	var in client.WebsiteInput
	for _, a := range websiteAttributes {
		if a.send != nil {
			a.send(ctx, m, prior, &in, diags)
		}
	}
	return in
}

// sendExcludeParams sends exclude_params when set in the configuration;
// else, if the prior state holds entries (Terraform set them), as empty
// (NULL on the server); else not at all, so the server keeps its value.
func sendExcludeParams(ctx context.Context, m websiteResourceModel, prior *websiteResourceModel, in *client.WebsiteInput, diags *diag.Diagnostics) {
	switch {
	case !m.ExcludeParams.IsNull() && !m.ExcludeParams.IsUnknown():
		in.ExcludeParams = []string{}
		diags.Append(m.ExcludeParams.ElementsAs(ctx, &in.ExcludeParams, false)...)
	case prior != nil && len(prior.ExcludeParams.Elements()) > 0:
		in.ExcludeParams = []string{} // clear what Terraform set
	default:
		in.OmitExcludeParams = true
	}
}

// applyWebsite copies the server's view of a website into the model: every
// attribute the API returns (website_attributes.go). The API does not return
// the password and exclude_params: the password is kept unless the server
// says none is set (or the privacy is not "password"); exclude_params is
// kept as it is (null when not managed).
func (m *websiteResourceModel) applyWebsite(w *client.Website) error {
	rec := websiteRecord{Website: w}
	for _, a := range websiteAttributes {
		if a.read == nil || a.resource == nil || a.apiField == "" {
			continue
		}
		v, err := a.read(rec)
		if err != nil {
			return err
		}
		m.setAttribute(a.name, v)
	}
	if !w.PasswordSet || m.Privacy.ValueString() != privacyPassword {
		m.Password = types.StringNull()
		// Likewise for password_wo: its version then differs from the
		// configuration's, and the next apply sends the password again.
		m.PasswordWOVer = types.Int64Null()
	}
	if m.ExcludeParams.IsUnknown() {
		m.ExcludeParams = types.SetNull(types.StringType)
	}
	return nil
}

// appliedLocally is the state an update that changes nothing the server
// holds (onlyLocalChange) writes without a request: the plan, with what
// the server computes, and what it keeps of an attribute unset in the
// configuration (unknown in the plan), from the state.
func (plan websiteResourceModel) appliedLocally(state websiteResourceModel) websiteResourceModel {
	plan.ID, plan.CreatedAt, plan.UpdatedAt = state.ID, state.CreatedAt, state.UpdatedAt
	for _, a := range websiteAttributes {
		if a.held() && plan.attribute(a.name).IsUnknown() {
			plan.setAttribute(a.name, state.attribute(a.name))
		}
	}
	return plan
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

// stringSetValue builds a set of strings (empty, never null). A value
// given twice is there once: the web interface stores a list as typed,
// repeated lines included, and a set with a duplicate fails every plan
// ("Duplicate Set Element"). The application matches either line alike,
// so nothing is lost; an update writes the list back without the repeat.
func stringSetValue(values []string) types.Set {
	elems := make([]attr.Value, 0, len(values))
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		if seen[v] {
			continue
		}
		seen[v] = true
		elems = append(elems, types.StringValue(v))
	}
	return types.SetValueMust(types.StringType, elems)
}

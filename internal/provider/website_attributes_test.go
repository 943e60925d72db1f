package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// Every attribute of the resource's schema has its field in the model, of
// its type, and every field of the model (but the timeouts block) is an
// attribute of websiteAttributes.
func TestWebsiteAttributes_model(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fields := map[string]reflect.Type{}
	mt := reflect.TypeFor[websiteResourceModel]()
	for i := range mt.NumField() {
		fields[mt.Field(i).Tag.Get("tfsdk")] = mt.Field(i).Type
	}
	for _, a := range websiteAttributes {
		if a.resource == nil {
			continue
		}
		want := reflect.TypeOf(a.resource.GetType().ValueType(ctx))
		if got, ok := fields[a.name]; !ok || got != want {
			t.Errorf("%s: websiteResourceModel (internal/provider/website_model.go) has no field tagged tfsdk:%q "+
				"of type %v (found %v): add it", a.name, a.name, want, got)
		}
		delete(fields, a.name)
	}
	delete(fields, "timeouts")
	for name := range fields {
		t.Errorf("websiteResourceModel's field tagged tfsdk:%q (internal/provider/website_model.go) is no attribute "+
			"of websiteAttributes: add its entry, with a resource schema, to websiteAttributes "+
			"(internal/provider/website_attributes.go)", name)
	}
}

// nullWebsiteModel is a model with every attribute null.
func nullWebsiteModel(t *testing.T) websiteResourceModel {
	t.Helper()
	ctx := context.Background()
	var m websiteResourceModel
	for _, a := range websiteAttributes {
		if a.resource == nil {
			continue
		}
		ty := a.resource.GetType()
		v, err := ty.ValueFromTerraform(ctx, tftypes.NewValue(ty.TerraformType(ctx), nil))
		if err != nil {
			t.Fatal(err)
		}
		m.setAttribute(a.name, v)
	}
	return m
}

// changedValue is a value of v's type other than v.
func changedValue(name string, v attr.Value) attr.Value {
	switch v := v.(type) {
	case types.String:
		if name == "privacy" { // one of privacyNames
			return types.StringValue(privacyPrivate)
		}
		return types.StringValue(v.ValueString() + "changed")
	case types.Bool:
		return types.BoolValue(!v.ValueBool())
	case types.Int64:
		return types.Int64Value(v.ValueInt64() + 1)
	case types.Set:
		return stringSetValue([]string{"192.0.2.1"})
	case types.List:
		return types.ListValueMust(types.StringType, []attr.Value{types.StringValue("192.0.2.1")})
	}
	panic("no changed value of " + name + ": add its type to changedValue (internal/provider/website_attributes_test.go)")
}

// heldWithoutSend are the attributes the API holds whose entry in
// websiteAttributes has no send, each with where its value is sent instead.
// Any other held attribute without a send would be planned and never sent.
var heldWithoutSend = map[string]string{
	"password_wo":         "write-only: Create and Update send it from the configuration (writeOnlyPassword, website_password.go)",
	"password_wo_version": "a change of it makes Update send password_wo (writeOnlyPassword, website_password.go)",
}

// A change of any attribute the API holds, alone, is sent: the update
// decision sees it, and the request carries it. An attribute added to
// websiteAttributes with an API field is held by default, and needs a send
// unless heldWithoutSend names it.
func TestWebsiteAttributes_heldChangeIsSent(t *testing.T) {
	t.Parallel()
	state := nullWebsiteModel(t)
	state.Domain, state.Privacy = types.StringValue("a.example"), types.StringValue(privacyPublic)
	state.EmailReports, state.ExcludeBots, state.ExcludeIPs = types.BoolValue(false), types.BoolValue(true), stringSetValue(nil)
	state.SkipDestroy = types.BoolValue(false)
	var diags diag.Diagnostics
	before := state.input(context.Background(), &state, &diags)
	held := 0
	for _, a := range websiteAttributes {
		if !a.held() {
			continue
		}
		_, exempt := heldWithoutSend[a.name]
		switch {
		case a.send == nil && !exempt:
			t.Errorf("%s: held by the API (apiField %q) but its entry in websiteAttributes "+
				"(internal/provider/website_attributes.go) has no send, so a change to it is planned and never "+
				"sent: add a send that sets its client.WebsiteInput field from the plan, or name it in "+
				"heldWithoutSend (website_attributes_test.go) with where it is sent", a.name, a.apiField)
			continue
		case a.send != nil && exempt:
			t.Errorf("%s: heldWithoutSend names it, but it has a send: remove it from heldWithoutSend", a.name)
		}
		if a.resource.IsWriteOnly() {
			continue // never in the plan or the state
		}
		held++
		plan := state
		plan.setAttribute(a.name, changedValue(a.name, state.attribute(a.name)))
		if onlyLocalChange(plan, state) {
			t.Errorf("%s: a change to it alone is not sent (onlyLocalChange)", a.name)
		}
		if a.send == nil {
			continue // heldWithoutSend says where it is sent
		}
		if after := plan.input(context.Background(), &state, &diags); reflect.DeepEqual(after, before) {
			t.Errorf("%s: a change to it does not change the request: %+v: its send (internal/provider/"+
				"website_attributes.go) must set its client.WebsiteInput field from the plan", a.name, after)
		}
	}
	for name := range heldWithoutSend {
		if a := websiteAttributeNamed(name); a == nil || !a.held() {
			t.Errorf("heldWithoutSend names %s, which is no attribute the API holds: remove it", name)
		}
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
	if held < 8 {
		t.Errorf("only %d attributes are held by the API", held)
	}
}

// Every attribute the API returns is read back from a record (of a website
// with a value in every column, acctest.FullWebsite) into the resource's
// state and the data sources' values; the 422 answers name the attributes
// they did.
func TestWebsiteAttributes_readBack(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.GetWebsite(context.Background(), srv.Seed(emulator.DefaultAPIKey, acctest.FullWebsite("a.example")).ID)
	if err != nil {
		t.Fatal(err)
	}
	m := nullWebsiteModel(t)
	if err := m.applyWebsite(w); err != nil {
		t.Fatal(err)
	}
	values, err := websiteDataValues(websiteRecord{Website: w, trackingCode: types.StringValue("<script>")})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range websiteAttributes {
		if a.read == nil {
			continue
		}
		if v := values[a.name]; v == nil || v.IsNull() {
			t.Errorf("%s: null in the data sources' values of a record with every column set: check its read "+
				"(internal/provider/website_attributes.go)", a.name)
			continue
		}
		if a.resource != nil && a.apiField != "" && m.attribute(a.name).IsNull() {
			t.Errorf("%s: not read back into the state by applyWebsite (internal/provider/website_model.go)", a.name)
		}
	}
	if _, err := websiteDataObject(w, types.StringValue("<script>")); err != nil {
		t.Error(err)
	}
	// A record whose columns are all NULL: a string the server stores
	// reads as null, not "" (the server never stores ""), but those that
	// nullReadAs names.
	nulls, err := websiteDataValues(websiteRecord{Website: &client.Website{ID: 12, Domain: "a.example"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range websiteAttributes {
		if _, named := nullReadAs[a.name]; !a.held() || named {
			continue
		}
		if s, ok := nulls[a.name].(types.String); ok && !s.IsNull() && s.ValueString() == "" {
			t.Errorf("%s: a NULL column reads as \"\", not null: its read (internal/provider/website_attributes.go) "+
				"must turn NULL (\"\") into types.StringNull()", a.name)
		}
	}
	for field, name := range map[string]string{"domain": "domain", "privacy": "privacy", "password": "password",
		"email": "email_reports", "exclude_bots": "exclude_bots", "exclude_params": "exclude_params", "exclude_ips": "exclude_ips"} {
		if got := apiFieldAttributes[field]; got != name {
			t.Errorf("a 422 about %s names %q, want %q", field, got, name)
		}
	}
}

// nullReadAs are the string attributes the API holds whose NULL reads as a
// value, each with why.
var nullReadAs = map[string]string{
	"domain":  "never NULL",
	"privacy": "NULL shows as public (client.Website.PrivacyValue)",
}

func TestOnlyLocalChange(t *testing.T) {
	t.Parallel()
	// Every attribute a typed null (a new attribute needs no edit here: a
	// zero types.Set or types.List of a field left out never equals itself),
	// then the values of a usual state.
	base := nullWebsiteModel(t)
	base.Domain, base.Privacy = types.StringValue("a.example"), types.StringValue("public")
	base.EmailReports, base.ExcludeBots = types.BoolValue(false), types.BoolValue(true)
	base.ExcludeIPs, base.SkipDestroy = stringSetValue(nil), types.BoolValue(false)
	for _, tc := range []struct {
		name   string
		change func(*websiteResourceModel)
		want   bool
	}{
		{"skip_destroy", func(m *websiteResourceModel) { m.SkipDestroy = types.BoolValue(true) }, true},
		{"updated_at unknown", func(m *websiteResourceModel) { m.UpdatedAt = types.StringUnknown() }, true},
		{"email reports", func(m *websiteResourceModel) { m.EmailReports = types.BoolValue(true) }, false},
		{"exclude_params managed", func(m *websiteResourceModel) { m.ExcludeParams = stringSetValue(nil) }, false},
		{"exclude_ips", func(m *websiteResourceModel) { m.ExcludeIPs = stringSetValue([]string{"10.0.0.0/8"}) }, false},
		{"password_wo version", func(m *websiteResourceModel) { m.PasswordWOVer = types.Int64Value(2) }, false},
		{"privacy", func(m *websiteResourceModel) { m.Privacy = types.StringValue("private") }, false},
		// An attribute that keeps the server's value while unset is unknown
		// in the plan of a website whose state holds null: the server keeps
		// it, so it alone sends nothing.
		{"a held attribute unknown", func(m *websiteResourceModel) { m.ExcludeIPs = types.SetUnknown(types.StringType) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			plan := base
			tc.change(&plan)
			if got := onlyLocalChange(plan, base); got != tc.want {
				t.Errorf("onlyLocalChange = %v, want %v", got, tc.want)
			}
			if !tc.want {
				return
			}
			// The state written without a request: known, the server's
			// values as the state holds them, the local change kept.
			got := plan.appliedLocally(base)
			for _, a := range websiteAttributes {
				if a.held() && got.attribute(a.name).IsUnknown() {
					t.Errorf("%s: unknown in the state written without a request: want the state's %v", a.name, base.attribute(a.name))
				}
			}
			if !got.SkipDestroy.Equal(plan.SkipDestroy) {
				t.Errorf("skip_destroy %v in the state written without a request, want the plan's %v", got.SkipDestroy, plan.SkipDestroy)
			}
		})
	}
}

// Every field of a website's record, as the API returns it (the emulator's
// record), is read back by an attribute, but favorited_at, which the
// provider does not show: a field the API gains needs its attribute.
func TestWebsiteAttributes_everyReturnedFieldIsRead(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	post, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/api/v1/websites",
		strings.NewReader(url.Values{"domain": {"a.example"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	post.Header.Set("Authorization", "Bearer "+emulator.DefaultAPIKey)
	post.Header.Set("Accept", "application/json")
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := srv.HTTP.Client().Do(post)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &body); err != nil || len(body.Data) == 0 {
		t.Fatalf("store answered %s: %v: %s", resp.Status, err, raw)
	}
	read := map[string]bool{"favorited_at": true}
	for _, a := range websiteAttributes {
		if a.read != nil {
			read[a.apiField] = true
		}
	}
	for field := range body.Data {
		if !read[field] {
			t.Errorf("the API returns %q, which no attribute of websiteAttributes reads: %s", field, unreadFieldFix(field))
		}
	}
}

// unreadFieldFix says what to change in websiteAttributes so that the API
// field is read: which entry lacks what.
func unreadFieldFix(field string) string {
	const where = "internal/provider/website_attributes.go"
	if a := websiteAttributeNamed(field); a != nil && a.apiField != field {
		return fmt.Sprintf("the attribute %s has apiField %q: set apiField: %q in its entry (%s)", a.name, a.apiField, field, where)
	}
	for _, a := range websiteAttributes {
		if a.apiField == field && a.read == nil {
			return fmt.Sprintf("the attribute %s has apiField %q but no read: give its entry a read (%s)", a.name, field, where)
		}
	}
	return fmt.Sprintf("add an entry with apiField: %q and a read to websiteAttributes (%s), or, if an entry "+
		"that reads it exists under another name, set its apiField to %q", field, where, field)
}

// websiteAttributeNamed is the entry of websiteAttributes named name, or nil.
func websiteAttributeNamed(name string) *websiteAttribute {
	for i := range websiteAttributes {
		if websiteAttributes[i].name == name {
			return &websiteAttributes[i]
		}
	}
	return nil
}

// untrimmedStrings are the string attributes the server stores as sent,
// each with why: it trims every other string input at both ends.
var untrimmedStrings = map[string]string{
	"password":    "Laravel's TrimStrings skips password; passwordValidator refuses a blank one",
	"password_wo": "sent as password",
}

// The server trims every string input at both ends (but password) and
// stores "" as NULL (Laravel's TrimStrings and ConvertEmptyStringsToNull), so a
// string attribute it holds that the configuration may set to "" or to a
// value with white space at an end would come back other than planned, and
// the apply would fail with "Provider produced inconsistent result after
// apply" after the server changed. Each is refused at plan time instead.
func TestWebsiteAttributes_stringsRefuseWhatTheServerRewrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, a := range websiteAttributes {
		sa, ok := a.resource.(schema.StringAttribute)
		if !ok || !a.held() {
			continue
		}
		refuses := func(v string) bool {
			var diags diag.Diagnostics
			config := configWith(t, a.name, tftypes.NewValue(tftypes.String, v))
			for _, vd := range sa.Validators {
				resp := validator.StringResponse{}
				vd.ValidateString(ctx, validator.StringRequest{Path: path.Root(a.name), PathExpression: path.MatchRoot(a.name),
					ConfigValue: types.StringValue(v), Config: config}, &resp)
				diags.Append(resp.Diagnostics...)
			}
			return diags.HasError()
		}
		// "" (stored NULL) and white space of each kind that the application's
		// TrimStrings takes at either end.
		values := []string{""}
		if _, untrimmed := untrimmedStrings[a.name]; !untrimmed {
			values = append(values, trimmedOnBase(t, a.name, refuses)...)
		}
		for _, v := range values {
			if !refuses(v) {
				stored := fmt.Sprintf("%q", laravel.Trim(v))
				if v == "" {
					stored = "NULL (none)"
				}
				t.Errorf("%s: the configuration may set %q, which the server stores as %s: refuse it at plan time with a "+
					"validator in its schema (internal/provider/website_attributes.go; the checks live in "+
					"internal/provider/validators.go, e.g. stringCheck refusing v != laravel.Trim(v), what the server trims), or name it in untrimmedStrings "+
					"(website_attributes_test.go) with why", a.name, v, stored)
			}
		}
	}
	for name := range untrimmedStrings {
		if websiteAttributeNamed(name) == nil {
			t.Errorf("untrimmedStrings names %s, which is no attribute: remove it", name)
		}
	}
}

// configWith is a configuration of the resource with name set to v and
// every other attribute null.
func configWith(t *testing.T, name string, v tftypes.Value) tfsdk.Config {
	t.Helper()
	ctx := context.Background()
	s := websiteResourceSchema(ctx)
	typ, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the resource's schema is no object")
	}
	vals := map[string]tftypes.Value{}
	for n, at := range typ.AttributeTypes {
		vals[n] = tftypes.NewValue(at, nil)
	}
	vals[name] = v
	return tfsdk.Config{Schema: s, Raw: tftypes.NewValue(typ, vals)}
}

// Each type a website's attribute may have (CONTRIBUTING.md, "Adding an
// attribute": a string, a boolean, an integer, a Set or a List of strings)
// is the same type in the data sources.
func TestWebsiteAttributes_dataSourceTypes(t *testing.T) {
	t.Parallel()
	for _, typ := range []attr.Type{types.StringType, types.BoolType, types.Int64Type,
		types.SetType{ElemType: types.StringType}, types.ListType{ElemType: types.StringType}} {
		if got := dataSourceAttribute("d", typ).GetType(); !got.Equal(typ) {
			t.Errorf("an attribute of type %s is of type %s in the data sources: give it its case in "+
				"dataSourceAttribute (internal/provider/website_attributes.go)", typ, got)
		}
	}
}

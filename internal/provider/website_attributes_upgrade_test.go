package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int32planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// breakingSince010 are the attributes the API returns, added since 0.1.0,
// that do not keep the server's value when unset (Optional without
// Computed, or with a Default), each with what the first plan after the
// upgrade clears or resets (a configuration written for 0.1.0 cannot set
// them), which its BREAKING CHANGES entry of the changelog tells its users.
// None today.
var breakingSince010 = map[string]string{}

// attributesOf010 are the resource's attributes in the state provider 0.1.0
// wrote (testdata/upgrade-0.1.0/terraform.tfstate, which
// TestAccWebsite_upgradeFrom010 replays).
func attributesOf010(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "upgrade-0.1.0", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Instances []struct {
				Attributes map[string]json.RawMessage `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, r := range st.Resources {
		for _, inst := range r.Instances {
			for name := range inst.Attributes {
				names[name] = true
			}
		}
	}
	if !names["domain"] || !names["exclude_bots"] {
		t.Fatalf("0.1.0's state names %v: no domain or exclude_bots", names)
	}
	return names
}

// unsetClearsServersValue says how an attribute the API returns and the
// configuration sets loses the server's value while the configuration
// leaves it unset ("": it keeps it).
func unsetClearsServersValue(a websiteAttribute) string {
	if !a.held() || a.read == nil {
		return ""
	}
	if !a.resource.IsComputed() {
		return "it is Optional without Computed: unset, it is planned null and sent empty, which clears the server's value"
	}
	if d := reflect.ValueOf(a.resource).FieldByName("Default"); d.IsValid() && !d.IsNil() {
		return "it has a Default: unset, the default is planned and sent, which resets the server's value"
	}
	ofNull, ok := planOfUnset(a.resource, true)
	ofValue, _ := planOfUnset(a.resource, false)
	switch {
	case !ok:
		return fmt.Sprintf("planOfUnset (website_attributes_upgrade_test.go) does not run the plan modifiers of a %T, "+
			"so nothing shows that they keep the state's value (add its kind there)", a.resource)
	case ofNull.replace || ofValue.replace:
		return "a plan modifier (RequiresReplace) asks to replace the website on an update of another attribute: a " +
			"state written before the attribute existed holds null and the plan is unknown, so the first such update " +
			"after the upgrade would destroy the website and create it again"
	case !ofNull.plan.IsUnknown():
		return "its plan modifier plans a null in the state as the value (UseStateForUnknown): a state written " +
			"before the attribute existed holds null, so an update of another attribute without a refresh " +
			"(-refresh=false) plans null, shows no change and sends it empty, which clears the server's value " +
			"(use UseNonNullStateForUnknown: the plan is then unknown, and the field is left out)"
	case !ofValue.plan.Equal(ofValue.state):
		return "no plan modifier keeps the state's value (UseNonNullStateForUnknown): every plan that changes another " +
			"attribute shows it as (known after apply) or as a change, and the update sends it or leaves it out as its field of " +
			"client.WebsiteInput is a value or a pointer"
	}
	return ""
}

// unsetPlan is what the plan modifiers of an attribute plan on an update
// of another attribute that leaves it unset.
type unsetPlan struct {
	plan, state attr.Value // the planned value and the state's
	replace     bool       // a modifier asks to replace the website
}

// stateOf is null when stateNull is set, else value.
func stateOf[T attr.Value](stateNull bool, null, value T) T {
	if stateNull {
		return null
	}
	return value
}

// planOfUnset runs the plan modifiers of attribute as the framework does on
// an update with the attribute unset in the configuration (the plan's value
// unknown, being Computed), with a null state or one holding a value; ok is
// false for a kind of attribute it does not know.
func planOfUnset(attribute schema.Attribute, stateNull bool) (unsetPlan, bool) {
	ctx := context.Background()
	state := tfsdk.State{Raw: tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})} // a website exists
	plan := tfsdk.Plan{Raw: state.Raw}                                                        // and is updated
	replace := false
	switch a := attribute.(type) {
	case schema.StringAttribute:
		sv := stateOf(stateNull, types.StringNull(), types.StringValue("x"))
		resp := planmodifier.StringResponse{PlanValue: types.StringUnknown()}
		for _, m := range a.PlanModifiers {
			m.PlanModifyString(ctx, planmodifier.StringRequest{State: state, Plan: plan, StateValue: sv,
				ConfigValue: types.StringNull(), PlanValue: resp.PlanValue}, &resp)
			replace = replace || resp.RequiresReplace
		}
		return unsetPlan{resp.PlanValue, sv, replace}, true
	case schema.BoolAttribute:
		sv := stateOf(stateNull, types.BoolNull(), types.BoolValue(true))
		resp := planmodifier.BoolResponse{PlanValue: types.BoolUnknown()}
		for _, m := range a.PlanModifiers {
			m.PlanModifyBool(ctx, planmodifier.BoolRequest{State: state, Plan: plan, StateValue: sv,
				ConfigValue: types.BoolNull(), PlanValue: resp.PlanValue}, &resp)
			replace = replace || resp.RequiresReplace
		}
		return unsetPlan{resp.PlanValue, sv, replace}, true
	case schema.Int64Attribute:
		sv := stateOf(stateNull, types.Int64Null(), types.Int64Value(1))
		resp := planmodifier.Int64Response{PlanValue: types.Int64Unknown()}
		for _, m := range a.PlanModifiers {
			m.PlanModifyInt64(ctx, planmodifier.Int64Request{State: state, Plan: plan, StateValue: sv,
				ConfigValue: types.Int64Null(), PlanValue: resp.PlanValue}, &resp)
			replace = replace || resp.RequiresReplace
		}
		return unsetPlan{resp.PlanValue, sv, replace}, true
	case schema.SetAttribute:
		sv := stateOf(stateNull, types.SetNull(a.ElementType), types.SetValueMust(a.ElementType, nil))
		resp := planmodifier.SetResponse{PlanValue: types.SetUnknown(a.ElementType)}
		for _, m := range a.PlanModifiers {
			m.PlanModifySet(ctx, planmodifier.SetRequest{State: state, Plan: plan, StateValue: sv,
				ConfigValue: types.SetNull(a.ElementType), PlanValue: resp.PlanValue}, &resp)
			replace = replace || resp.RequiresReplace
		}
		return unsetPlan{resp.PlanValue, sv, replace}, true
	case schema.ListAttribute:
		sv := stateOf(stateNull, types.ListNull(a.ElementType), types.ListValueMust(a.ElementType, nil))
		resp := planmodifier.ListResponse{PlanValue: types.ListUnknown(a.ElementType)}
		for _, m := range a.PlanModifiers {
			m.PlanModifyList(ctx, planmodifier.ListRequest{State: state, Plan: plan, StateValue: sv,
				ConfigValue: types.ListNull(a.ElementType), PlanValue: resp.PlanValue}, &resp)
			replace = replace || resp.RequiresReplace
		}
		return unsetPlan{resp.PlanValue, sv, replace}, true
	}
	return unsetPlan{}, false
}

// An attribute the API returns that was added since 0.1.0 keeps the
// server's value while the configuration leaves it unset, as every
// configuration written for an earlier release does: Optional and Computed,
// without a Default (CONTRIBUTING.md, "Adding an attribute").
// TestAccWebsite_upgradeFrom010 sees a Default only when acctest.FullWebsite
// holds another value than the default; this sees it from the schema.
func TestWebsiteAttributes_addedSince010KeepTheServersValue(t *testing.T) {
	t.Parallel()
	of010 := attributesOf010(t)
	for _, a := range websiteAttributes {
		if a.resource == nil || of010[a.name] {
			continue
		}
		why := unsetClearsServersValue(a)
		_, breaking := breakingSince010[a.name]
		switch {
		case why != "" && !breaking:
			t.Errorf("%s: added since 0.1.0 (not in testdata/upgrade-0.1.0/terraform.tfstate) and returned by the API, "+
				"but %s: after the upgrade, every website whose %s was set in the web interface would lose it. "+
				"Make its schema (internal/provider/website_attributes.go) Optional and Computed without a Default, with "+
				"the plan modifier that keeps the state's value unless it is null (UseNonNullStateForUnknown), and leave its field of "+
				"client.WebsiteInput nil while the plan's value is unknown (CONTRIBUTING.md, \"Adding an attribute\"); or, "+
				"for a deliberate breaking change, name it in breakingSince010 (website_attributes_upgrade_test.go) with "+
				"what the upgrade clears or resets, and add a BREAKING CHANGES entry (make changelog-new)", a.name, why, a.apiField)
		case why == "" && breaking:
			t.Errorf("%s: breakingSince010 names it, but it keeps the server's value when unset: remove it", a.name)
		case breaking && strings.TrimSpace(breakingSince010[a.name]) == "":
			t.Errorf("%s: breakingSince010 names it without what the first plan after the upgrade clears or resets", a.name)
		}
	}
	for name := range breakingSince010 {
		if a := websiteAttributeNamed(name); a == nil || a.resource == nil || of010[name] {
			t.Errorf("breakingSince010 names %s, which is no attribute of the resource added since 0.1.0: remove it", name)
		}
	}
	// The check itself: 0.1.0's exclude_bots (a Default) and an Optional
	// attribute without Computed are refused; an attribute Optional and
	// Computed without a Default is not.
	if unsetClearsServersValue(*websiteAttributeNamed("exclude_bots")) == "" {
		t.Error("unsetClearsServersValue takes exclude_bots, which has a Default, for one that keeps the server's value")
	}
	optional := websiteAttribute{name: "label", apiField: "label", resource: schema.StringAttribute{Optional: true}, read: websiteAttributeNamed("domain").read}
	if unsetClearsServersValue(optional) == "" {
		t.Error("unsetClearsServersValue takes an Optional attribute without Computed for one that keeps the server's value")
	}
	optional.resource = schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true)}
	if unsetClearsServersValue(optional) == "" {
		t.Error("unsetClearsServersValue takes a bool attribute with a Default for one that keeps the server's value")
	}
	optional.resource = schema.StringAttribute{Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	if unsetClearsServersValue(optional) == "" {
		t.Error("unsetClearsServersValue takes an attribute whose plan keeps a null state (UseStateForUnknown) for one " +
			"that keeps the server's value")
	}
	for _, keepsNull := range []schema.Attribute{
		schema.SetAttribute{Optional: true, Computed: true, ElementType: types.StringType,
			PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()}},
		schema.ListAttribute{Optional: true, Computed: true, ElementType: types.StringType,
			PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()}},
		schema.BoolAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
		schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
	} {
		optional.resource = keepsNull
		if unsetClearsServersValue(optional) == "" {
			t.Errorf("unsetClearsServersValue takes a %T whose plan keeps a null state (UseStateForUnknown) for one "+
				"that keeps the server's value", keepsNull)
		}
	}
	// A kind planOfUnset does not run is not taken for one that keeps the
	// server's value.
	for _, unchecked := range []schema.Attribute{
		schema.Int32Attribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Int32{int32planmodifier.UseStateForUnknown()}},
		schema.Float64Attribute{Optional: true, Computed: true},
	} {
		optional.resource = unchecked
		if unsetClearsServersValue(optional) == "" {
			t.Errorf("unsetClearsServersValue takes a %T whose plan modifiers it does not run for one that keeps the "+
				"server's value", unchecked)
		}
	}
	// RequiresReplace plans a replacement while the state holds null and
	// the plan is unknown: the first update of another attribute after the
	// upgrade would destroy and recreate the website.
	optional.resource = schema.StringAttribute{Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown(), stringplanmodifier.RequiresReplace()}}
	if why := unsetClearsServersValue(optional); !strings.Contains(why, "replace") {
		t.Errorf("unsetClearsServersValue takes an attribute with RequiresReplace for one that keeps the server's "+
			"value: %q", why)
	}
	// A plan modifier that plans another value than the state's (here: a
	// constant once the state holds one) does not keep it.
	optional.resource = schema.StringAttribute{Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown(), replacesState{}}}
	if why := unsetClearsServersValue(optional); !strings.Contains(why, "no plan modifier keeps the state's value") {
		t.Errorf("unsetClearsServersValue takes an attribute whose plan replaces the state's value for one that "+
			"keeps the server's value: %q", why)
	}
	optional.resource = schema.StringAttribute{Optional: true, Computed: true}
	if why := unsetClearsServersValue(optional); !strings.Contains(why, "no plan modifier keeps the state's value") {
		t.Errorf("unsetClearsServersValue takes an attribute Optional and Computed without a plan modifier for one that "+
			"keeps the server's value: %q", why)
	}
	optional.resource = schema.StringAttribute{Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()}}
	if why := unsetClearsServersValue(optional); why != "" {
		t.Errorf("unsetClearsServersValue refuses an attribute Optional and Computed without a Default, with "+
			"UseNonNullStateForUnknown: %s", why)
	}
}

// replacesState is a plan modifier that plans "replaced" whenever the state
// holds a value: it keeps none.
type replacesState struct{}

func (replacesState) Description(context.Context) string {
	return "plans another value than the state's"
}
func (replacesState) MarkdownDescription(context.Context) string {
	return "plans another value than the state's"
}
func (replacesState) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.StateValue.IsNull() {
		resp.PlanValue = types.StringValue("replaced")
	}
}

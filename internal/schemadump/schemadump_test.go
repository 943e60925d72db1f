package schemadump

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// Every protocol type maps to its cty type, including those the provider
// does not use today (the comparison with Terraform's own output, in
// internal/repotest, covers only the provider's schema).
func TestCtyType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   tftypes.Type
		want cty.Type
	}{
		{tftypes.String, cty.String},
		{tftypes.Number, cty.Number},
		{tftypes.Bool, cty.Bool},
		{tftypes.DynamicPseudoType, cty.DynamicPseudoType},
		{tftypes.List{ElementType: tftypes.String}, cty.List(cty.String)},
		{tftypes.Set{ElementType: tftypes.Number}, cty.Set(cty.Number)},
		{tftypes.Map{ElementType: tftypes.Bool}, cty.Map(cty.Bool)},
		{tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}, cty.Tuple([]cty.Type{cty.String, cty.Number})},
		{
			tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.List{ElementType: tftypes.Number}}},
			cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.Number)}),
		},
		{
			tftypes.Object{
				AttributeTypes:     map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Bool},
				OptionalAttributes: map[string]struct{}{"b": {}},
			},
			cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Bool}, []string{"b"}),
		},
	}
	for _, tc := range tests {
		var c converter
		if got := c.ctyType(tc.in); !got.Equals(tc.want) || c.err != nil {
			t.Errorf("ctyType(%s) = %#v (error %v), want %#v", tc.in, got, c.err, tc.want)
		}
	}
}

// The flags of a schema that the provider's own does not use today, so that
// the comparison with Terraform's output (internal/repotest) cannot see them
// dropped: a deprecated attribute and block, a nested block's item limits, a
// function parameter that takes null. Each is carried over under the key
// Terraform prints.
func TestConvert_flagsTheProviderDoesNotUse(t *testing.T) {
	t.Parallel()
	var c converter
	b := c.block(&tfprotov6.SchemaBlock{
		Deprecated: true,
		Attributes: []*tfprotov6.SchemaAttribute{{Name: "old", Type: tftypes.String, Optional: true, Deprecated: true}},
		BlockTypes: []*tfprotov6.SchemaNestedBlock{{
			TypeName: "rule", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, MinItems: 1, MaxItems: 3,
			Block: &tfprotov6.SchemaBlock{},
		}},
	})
	p := c.parameter(&tfprotov6.FunctionParameter{Name: "v", Type: tftypes.String, AllowNullValue: true})
	if c.err != nil {
		t.Fatal(c.err)
	}
	for _, tc := range []struct {
		what string
		v    any
		want map[string]any
	}{
		{"block", b, map[string]any{"deprecated": true}},
		{"nested block", b.NestedBlocks["rule"], map[string]any{"min_items": 1.0, "max_items": 3.0, "nesting_mode": "list"}},
		{"attribute", b.Attributes["old"], map[string]any{"deprecated": true, "optional": true}},
		{"parameter", p, map[string]any{"is_nullable": true}},
	} {
		data, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("the %s's JSON has %s = %v, want %v: %s", tc.what, k, got[k], v, data)
			}
		}
	}
}

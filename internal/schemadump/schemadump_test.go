package schemadump

import (
	"testing"

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

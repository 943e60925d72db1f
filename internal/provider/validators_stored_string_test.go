package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A string column's value is refused when the server would store it
// otherwise than sent; and its NULL reads as null.
func TestStoredStringValidator(t *testing.T) {
	t.Parallel()
	for v, refused := range map[string]bool{
		"label": false, "ééé": false, "x\ny": false,
		"": true, " a": true, "a\t": true, "a\u200b": true, "sixsix": true,
	} {
		resp := validator.StringResponse{}
		storedStringValidator(5).ValidateString(context.Background(), validator.StringRequest{
			Path: path.Root("label"), ConfigValue: types.StringValue(v)}, &resp)
		if resp.Diagnostics.HasError() != refused {
			t.Errorf("%q: refused %v, want %v: %v", v, resp.Diagnostics.HasError(), refused, resp.Diagnostics)
		}
	}
	if !storedString("").IsNull() || storedString("a").ValueString() != "a" {
		t.Error("storedString: NULL is not null, or a value is lost")
	}
}

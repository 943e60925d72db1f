package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// websiteValue is a website resource's value with attrs set and every other
// attribute null.
func websiteValue(ctx context.Context, attrs map[string]tftypes.Value) (tftypes.Value, resource.SchemaResponse) {
	var schemaResp resource.SchemaResponse
	(&websiteResource{}).Schema(ctx, resource.SchemaRequest{}, &schemaResp)
	typ, _ := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, t := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
	}
	for name, v := range attrs {
		vals[name] = v
	}
	return tftypes.NewValue(typ, vals), schemaResp
}

// A 422 on the API's password field, for a configuration that gives the
// password as password_wo, is reported on password_wo, the attribute the
// user set, not on the unset password.
func TestCreate_passwordRefusalOnPasswordWO(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/websites") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = w.Write([]byte(`{"message":{"password":["The password may not be greater than 128 characters."]},"status":422}`))
			return
		}
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL+"/api/v1", emulator.DefaultAPIKey, client.Options{Retry: &client.RetryOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	for name, attrs := range map[string]map[string]tftypes.Value{
		"password_wo": {"password_wo": tftypes.NewValue(tftypes.String, "WriteOnly-pw-1"),
			"password_wo_version": tftypes.NewValue(tftypes.Number, 1)},
		"password": {"password": tftypes.NewValue(tftypes.String, "Stored-pw-1")},
	} {
		attrs["domain"] = tftypes.NewValue(tftypes.String, "wo-refused.example.com")
		attrs["privacy"] = tftypes.NewValue(tftypes.String, "password")
		cfg, schemaResp := websiteValue(ctx, attrs)
		planAttrs := map[string]tftypes.Value{}
		for k, v := range attrs {
			if k != "password_wo" { // write-only: null in the plan
				planAttrs[k] = v
			}
		}
		plan, _ := websiteValue(ctx, planAttrs)
		r := &websiteResource{data: newProviderData(c)}
		resp := resource.CreateResponse{State: tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(plan.Type(), nil)}}
		r.Create(ctx, resource.CreateRequest{
			Config: tfsdk.Config{Schema: schemaResp.Schema, Raw: cfg},
			Plan:   tfsdk.Plan{Schema: schemaResp.Schema, Raw: plan},
		}, &resp)
		var refusal diag.DiagnosticWithPath
		for _, d := range resp.Diagnostics {
			if p, ok := d.(diag.DiagnosticWithPath); ok && strings.Contains(d.Detail(), "128 characters") {
				refusal = p
			}
		}
		if refusal == nil {
			t.Errorf("%s: no refusal on an attribute: %v", name, resp.Diagnostics)
			continue
		}
		if !refusal.Path().Equal(path.Root(name)) {
			t.Errorf("%s configured: the server's refusal of the password is on %s, want %s: %s", name,
				refusal.Path(), name, refusal.Detail())
		}
	}
}

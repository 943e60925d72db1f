package provider

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// TestGate_servesEveryCall: the gate serves every protocol call the
// framework's server serves, so that no answer can leave around it; the
// state store calls are the one exception (the provider has no state
// store: Terraform never makes them, and the gate not serving them makes
// tf6server answer "not implemented").
func TestGate_servesEveryCall(t *testing.T) {
	t.Parallel()
	inner, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	stateStore := reflect.TypeFor[tfprotov6.StateStoreServer]()
	protocol := map[string]bool{}
	for _, it := range []reflect.Type{
		reflect.TypeFor[tfprotov6.ProviderServer](),
		reflect.TypeFor[tfprotov6.ListResourceServer](),
		reflect.TypeFor[tfprotov6.ActionServer](),
		stateStore,
	} {
		for i := range it.NumMethod() {
			protocol[it.Method(i).Name] = true
		}
	}
	gateType := reflect.TypeFor[*gate]()
	innerType := reflect.TypeOf(inner)
	for i := range innerType.NumMethod() {
		name := innerType.Method(i).Name
		if !protocol[name] {
			continue
		}
		if _, isStateStore := stateStore.MethodByName(name); isStateStore {
			continue
		}
		if _, ok := gateType.MethodByName(name); !ok {
			t.Errorf("the framework's server serves %s, the gate does not: add it to gate.go through the gate", name)
		}
	}
}

// fakeServer answers every call with an error diagnostic (or a function
// error) that quotes leak.
type fakeServer struct{ leak string }

func answer[Resp any](f *fakeServer) (*Resp, error) {
	resp := new(Resp)
	v := reflect.ValueOf(resp).Elem()
	if d := v.FieldByName("Diagnostics"); d.IsValid() {
		d.Set(reflect.ValueOf([]*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError,
			Summary: "Summary " + f.leak, Detail: "detail: " + f.leak + "…"}}))
	}
	if e := v.FieldByName("Error"); e.IsValid() {
		e.Set(reflect.ValueOf(&tfprotov6.FunctionError{Text: "function " + f.leak}))
	}
	return resp, nil
}

func (f *fakeServer) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return answer[tfprotov6.GetMetadataResponse](f)
}
func (f *fakeServer) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, _ := answer[tfprotov6.GetProviderSchemaResponse](f)
	resp.Provider = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "api_key", Type: tftypes.String, Sensitive: true},
		{Name: "base_url", Type: tftypes.String},
		{Name: "headers", Type: tftypes.Map{ElementType: tftypes.String}, Sensitive: true},
	}}}
	return resp, nil
}
func (f *fakeServer) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return answer[tfprotov6.GetResourceIdentitySchemasResponse](f)
}
func (f *fakeServer) ValidateProviderConfig(context.Context, *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return answer[tfprotov6.ValidateProviderConfigResponse](f)
}
func (f *fakeServer) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return answer[tfprotov6.ConfigureProviderResponse](f)
}
func (f *fakeServer) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{Error: "stop " + f.leak}, nil
}
func (f *fakeServer) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return answer[tfprotov6.ValidateResourceConfigResponse](f)
}
func (f *fakeServer) UpgradeResourceState(context.Context, *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return answer[tfprotov6.UpgradeResourceStateResponse](f)
}
func (f *fakeServer) ReadResource(context.Context, *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return answer[tfprotov6.ReadResourceResponse](f)
}
func (f *fakeServer) PlanResourceChange(context.Context, *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return answer[tfprotov6.PlanResourceChangeResponse](f)
}
func (f *fakeServer) ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return answer[tfprotov6.ApplyResourceChangeResponse](f)
}
func (f *fakeServer) ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return answer[tfprotov6.ImportResourceStateResponse](f)
}
func (f *fakeServer) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return answer[tfprotov6.MoveResourceStateResponse](f)
}
func (f *fakeServer) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return answer[tfprotov6.UpgradeResourceIdentityResponse](f)
}
func (f *fakeServer) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return answer[tfprotov6.GenerateResourceConfigResponse](f)
}
func (f *fakeServer) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return answer[tfprotov6.ValidateDataResourceConfigResponse](f)
}
func (f *fakeServer) ReadDataSource(context.Context, *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return answer[tfprotov6.ReadDataSourceResponse](f)
}
func (f *fakeServer) CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return answer[tfprotov6.CallFunctionResponse](f)
}
func (f *fakeServer) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return answer[tfprotov6.GetFunctionsResponse](f)
}
func (f *fakeServer) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return answer[tfprotov6.ValidateEphemeralResourceConfigResponse](f)
}
func (f *fakeServer) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return answer[tfprotov6.OpenEphemeralResourceResponse](f)
}
func (f *fakeServer) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return answer[tfprotov6.RenewEphemeralResourceResponse](f)
}
func (f *fakeServer) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return answer[tfprotov6.CloseEphemeralResourceResponse](f)
}
func (f *fakeServer) ValidateListResourceConfig(context.Context, *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return answer[tfprotov6.ValidateListResourceConfigResponse](f)
}
func (f *fakeServer) ListResource(context.Context, *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return &tfprotov6.ListResourceServerStream{Results: func(yield func(tfprotov6.ListResourceResult) bool) {
		yield(tfprotov6.ListResourceResult{DisplayName: "name " + f.leak, Diagnostics: []*tfprotov6.Diagnostic{{Summary: "list " + f.leak, Detail: f.leak}}})
	}}, nil
}
func (f *fakeServer) ValidateActionConfig(context.Context, *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return answer[tfprotov6.ValidateActionConfigResponse](f)
}
func (f *fakeServer) PlanAction(context.Context, *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return answer[tfprotov6.PlanActionResponse](f)
}
func (f *fakeServer) InvokeAction(context.Context, *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return &tfprotov6.InvokeActionServerStream{Events: func(yield func(tfprotov6.InvokeActionEvent) bool) {
		if !yield(tfprotov6.InvokeActionEvent{Type: tfprotov6.ProgressInvokeActionEventType{Message: "progress " + f.leak}}) {
			return
		}
		yield(tfprotov6.InvokeActionEvent{Type: tfprotov6.CompletedInvokeActionEventType{
			Diagnostics: []*tfprotov6.Diagnostic{{Summary: "done " + f.leak, Detail: f.leak}}}})
	}}, nil
}

// TestGate_scrubsEveryAnswer calls every method of the gate in front of a
// server whose every answer quotes a registered secret, and looks for the
// secret in everything the answer holds (diagnostics, function errors,
// streamed results and events), reached by reflection.
func TestGate_scrubsEveryAnswer(t *testing.T) {
	t.Parallel()
	const secret = `gate-secret/+="\<&?# Pq8Zr4Lm`
	redact.Add(secret)
	php := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "/", `\/`).Replace(secret)
	g := newGate(&fakeServer{leak: secret + " " + php})
	gv := reflect.ValueOf(g)
	for i := range gv.NumMethod() {
		m := gv.Type().Method(i)
		if m.Type.NumIn() != 3 || m.Type.NumOut() != 2 {
			continue
		}
		out := gv.Method(i).Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.New(m.Type.In(2).Elem())})
		var texts []string
		collectStrings(out[0], &texts)
		if len(texts) == 0 {
			t.Errorf("%s: the fake answered nothing to look at", m.Name)
		}
		for _, s := range texts {
			if strings.Contains(s, "Pq8Zr4Lm") {
				t.Errorf("%s: the answer holds the secret: %q", m.Name, s)
			}
		}
	}
}

// collectStrings appends every string reachable from v, running streams.
func collectStrings(v reflect.Value, into *[]string) {
	if !v.IsValid() {
		return
	}
	switch x := v.Interface().(type) {
	case *tfprotov6.ListResourceServerStream:
		for r := range x.Results {
			collectStrings(reflect.ValueOf(r), into)
		}
		return
	case *tfprotov6.InvokeActionServerStream:
		for e := range x.Events {
			collectStrings(reflect.ValueOf(e), into)
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.String() != "" {
			*into = append(*into, v.String())
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), into)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collectStrings(v.Field(i), into)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectStrings(v.Index(i), into)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			collectStrings(it.Value(), into)
		}
	}
}

// TestGate_learnsSecretsFromTheSchema: a request's sensitive values (the
// api_key, every value of the sensitive headers map) and the user
// information of a URL in any other string are registered before the
// provider sees the request; other values are not.
func TestGate_learnsSecretsFromTheSchema(t *testing.T) {
	t.Parallel()
	g := newGate(&fakeServer{})
	resp, _ := g.inner.GetProviderSchema(context.Background(), nil)
	typ := resp.Provider.ValueType()
	val := tftypes.NewValue(typ, map[string]tftypes.Value{
		"api_key":  tftypes.NewValue(tftypes.String, "learned-key-Hs82kd"),
		"base_url": tftypes.NewValue(tftypes.String, "https://admin:pa/ss-Wq93js@analytics.example.com/x"),
		"headers": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{
			"X-Token": tftypes.NewValue(tftypes.String, "learned-header-Jd72ns"),
		}),
	})
	dv, err := tfprotov6.NewDynamicValue(typ, val)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = g.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: &dv})
	_, _ = g.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{ID: "https://u:import/pw-Kq81ms@example.com/"})
	for _, s := range []string{"learned-key-Hs82kd", "learned-header-Jd72ns", "pa/ss-Wq93js", "import/pw-Kq81ms"} {
		if got := redact.String("x " + s + " y"); strings.Contains(got, s) {
			t.Errorf("%q was not learned: %q", s, got)
		}
	}
	if got := redact.String("analytics.example.com"); got != "analytics.example.com" {
		t.Errorf("a URL's host was taken for a secret: %q", got)
	}
}

// An "@" in the path of a URL whose authority is a real host is no user
// information (the validators accept it): nothing of it is registered, so
// messages that name it stay readable.
func TestAddURLSecrets_pathAtIsNoSecret(t *testing.T) {
	t.Parallel()
	addURLSecrets("https://cdn.jsdelivr-example.net/npm/pkg-Kd82j@1.2.3/t.js")
	if got := redact.String("cdn.jsdelivr-example.net/npm/pkg-Kd82j"); strings.Contains(got, redact.Placeholder) {
		t.Errorf("a path with an @ was taken for a secret: %q", got)
	}
	addURLSecrets("https://admin:2024/Pw-Lq03ne@analytics.example.com")
	if got := redact.String("x 2024/Pw-Lq03ne y"); strings.Contains(got, "Lq03ne") {
		t.Errorf("a password holding a / was not learned: %q", got)
	}
}

package provider

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tfsdklog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/pluginruntime"
	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// The gate is the one place what the provider says leaves through: it wraps
// the framework's protocol 6 server, and for every call
//
//   - registers with the redactor every secret the request carries (the
//     values of sensitive and write-only attributes, the password of an
//     import ID given as a URL: see gate_secrets.go), before the provider
//     sees the request;
//   - masks every form of every known secret in the provider's and the
//     SDK's loggers (the release binary also passes its whole standard error
//     through the redactor: pluginruntime.GateStderr);
//   - passes every diagnostic's summary and detail, every function error and
//     every streamed result and progress message of its answer through the
//     redactor (gate_scrub.go);
//   - turns a panic of the call, or of a stream it answers with, into an
//     error with the secrets taken out (gate_panic.go): the Go runtime
//     writes a crash report, the panic's value included, straight to the
//     process's real standard error, past the log half of the gate;
//   - at its first call, points os.Stdout and os.Stderr back at the gated
//     standard error, away from go-plugin's stream to Terraform
//     (pluginruntime.KeepStdio).
//
// Call sites still quote nothing that may hold a secret; the gate is the
// net under them. It serves every protocol 6 call the framework's server
// serves but for the state store calls: the provider has no state store,
// so Terraform never makes them (TestGate_servesEveryCall holds this).
type gate struct {
	inner   tfprotov6.ProviderServer
	list    tfprotov6.ListResourceServer
	actions tfprotov6.ActionServer
	secrets *schemaSecrets
	// panicked is the error of the first panic: every later call answers
	// it, as after a crash (gate_panic.go).
	panicked atomic.Pointer[error]
}

// stderrGated reports whether the process's standard error passes the
// redactor (a variable for the tests).
var stderrGated = pluginruntime.StderrGated

// keepStdio points os.Stdout and os.Stderr back at the gated standard
// error at the first call, once go-plugin's Serve has pointed them at its
// own stream to Terraform (pluginruntime.KeepStdio).
var keepStdio sync.Once

var (
	_ tfprotov6.ProviderServer     = (*gate)(nil)
	_ tfprotov6.ListResourceServer = (*gate)(nil)
	_ tfprotov6.ActionServer       = (*gate)(nil)
)

// NewServer serves p through the gate. main.go and the tests' provider
// factories both use it.
func NewServer(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		inner, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		return newGate(inner), nil
	}
}

func newGate(inner tfprotov6.ProviderServer) *gate {
	g := &gate{inner: inner, secrets: newSchemaSecrets(inner)}
	g.list, _ = inner.(tfprotov6.ListResourceServer)
	g.actions, _ = inner.(tfprotov6.ActionServer)
	return g
}

// through runs one call through the gate. A panic of the call becomes its
// error, and every later call's (gate.panic): the Go runtime would write
// it, value and all, past every gate.
func through[Req, Resp any](g *gate, ctx context.Context, req *Req, call func(context.Context, *Req) (*Resp, error)) (resp *Resp, err error) {
	keepStdio.Do(pluginruntime.KeepStdio)
	if p := g.panicked.Load(); p != nil {
		return nil, *p
	}
	g.secrets.learn(ctx, req)
	defer func() {
		if v := recover(); v != nil {
			resp, err = nil, g.panic(v)
		}
	}()
	resp, err = call(maskLogs(ctx), req)
	g.scrub(resp)
	return resp, scrubError(err)
}

// maskLogs masks every form of every secret known so far in the loggers of
// ctx: the provider's (tflog) and the SDK's (tfsdklog), unless the
// process's standard error, where those loggers write, passes the redactor
// already (pluginruntime.GateStderr: the release binary on Unix). The masks
// are costly: terraform-plugin-log replaces each form in each log call's
// message and field values before it checks the level, so even with the
// logs off (TF_LOG unset) every log call costs about 7 ms with 1,000
// passwords known (24,000 forms), and a plan of N websites with passwords
// grows as N².
func maskLogs(ctx context.Context) context.Context {
	if stderrGated() {
		return ctx
	}
	forms := redact.Forms()
	if len(forms) == 0 {
		return ctx
	}
	ctx = tflog.MaskMessageStrings(ctx, forms...)
	ctx = tflog.MaskAllFieldValuesStrings(ctx, forms...)
	ctx = tfsdklog.MaskMessageStrings(ctx, forms...)
	return tfsdklog.MaskAllFieldValuesStrings(ctx, forms...)
}

func (g *gate) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return through(g, ctx, req, g.inner.GetMetadata)
}

func (g *gate) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return through(g, ctx, req, g.inner.GetProviderSchema)
}

func (g *gate) GetResourceIdentitySchemas(ctx context.Context, req *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return through(g, ctx, req, g.inner.GetResourceIdentitySchemas)
}

func (g *gate) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return through(g, ctx, req, g.inner.ValidateProviderConfig)
}

func (g *gate) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return through(g, ctx, req, g.inner.ConfigureProvider)
}

func (g *gate) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return through(g, ctx, req, g.inner.StopProvider)
}

func (g *gate) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return through(g, ctx, req, g.inner.ValidateResourceConfig)
}

func (g *gate) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return through(g, ctx, req, g.inner.UpgradeResourceState)
}

func (g *gate) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return through(g, ctx, req, g.inner.ReadResource)
}

func (g *gate) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return through(g, ctx, req, g.inner.PlanResourceChange)
}

func (g *gate) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return through(g, ctx, req, g.inner.ApplyResourceChange)
}

func (g *gate) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return through(g, ctx, req, g.inner.ImportResourceState)
}

func (g *gate) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return through(g, ctx, req, g.inner.MoveResourceState)
}

func (g *gate) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return through(g, ctx, req, g.inner.UpgradeResourceIdentity)
}

func (g *gate) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return through(g, ctx, req, g.inner.GenerateResourceConfig)
}

func (g *gate) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return through(g, ctx, req, g.inner.ValidateDataResourceConfig)
}

func (g *gate) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return through(g, ctx, req, g.inner.ReadDataSource)
}

func (g *gate) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return through(g, ctx, req, g.inner.CallFunction)
}

func (g *gate) GetFunctions(ctx context.Context, req *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return through(g, ctx, req, g.inner.GetFunctions)
}

func (g *gate) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return through(g, ctx, req, g.inner.ValidateEphemeralResourceConfig)
}

func (g *gate) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return through(g, ctx, req, g.inner.OpenEphemeralResource)
}

func (g *gate) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return through(g, ctx, req, g.inner.RenewEphemeralResource)
}

func (g *gate) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return through(g, ctx, req, g.inner.CloseEphemeralResource)
}

func (g *gate) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return through(g, ctx, req, g.list.ValidateListResourceConfig)
}

func (g *gate) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return through(g, ctx, req, g.list.ListResource)
}

func (g *gate) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return through(g, ctx, req, g.actions.ValidateActionConfig)
}

func (g *gate) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return through(g, ctx, req, g.actions.PlanAction)
}

func (g *gate) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return through(g, ctx, req, g.actions.InvokeAction)
}

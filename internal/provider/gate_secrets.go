package provider

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// schemaSecrets learns the secrets of each request before the provider sees
// it, from the provider's own schema: every value of an attribute that is
// sensitive or write-only (and everything inside one: the values of the
// headers map), and the user information of every string that looks like a
// URL with one (a password in base_url, an import ID, a domain). A value is
// a secret because the schema says so, not because a call site remembered
// to register it.
type schemaSecrets struct {
	inner tfprotov6.ProviderServer
	once  sync.Once
	// types maps "provider", "resource.<name>", "data.<name>",
	// "list.<name>", "action.<name>", "ephemeral.<name>" to a schema;
	// functions maps a function to its parameters' types.
	types     map[string]schemaOf
	functions map[string][]tftypes.Type
}

type schemaOf struct {
	typ       tftypes.Type
	sensitive map[string]bool // attribute paths, names joined by "."
}

func newSchemaSecrets(inner tfprotov6.ProviderServer) *schemaSecrets {
	s := &schemaSecrets{inner: inner}
	s.learnEnvironment()
	return s
}

// storeCredentials are the variables the export's object store (the AWS
// SDK) reads its secrets from (AWS_SECRET_KEY is its older name for the
// secret access key, read when AWS_SECRET_ACCESS_KEY is unset); it sends the session token as a header
// (X-Amz-Security-Token), which a store may echo in an error message, and
// the container credentials token as the Authorization header of a
// container's credentials endpoint.
var storeCredentials = map[string]bool{"AWS_SECRET_ACCESS_KEY": true, "AWS_SECRET_KEY": true, "AWS_SESSION_TOKEN": true,
	"AWS_SECURITY_TOKEN": true, "AWS_CONTAINER_AUTHORIZATION_TOKEN": true}

// containerTokenFile names the file holding the container credentials
// token (EKS Pod Identity), which the SDK reads and sends as
// AWS_CONTAINER_AUTHORIZATION_TOKEN.
const containerTokenFile = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"

// maxTokenFile bounds what readTokenFile reads: a token is a few KiB.
const maxTokenFile = 64 << 10

// readTokenFile returns the token in the file name, without the white
// space around it; "" when it cannot be read.
func readTokenFile(name string) string {
	f, err := os.Open(name) //nolint:gosec // the path the SDK reads, from the environment
	if err != nil {
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// learnEnvironment registers the secrets the provider may read from its
// environment rather than its configuration: the API key, the header
// values, the client key, the object store's credentials (the container
// token from its file too), and the user
// information of any URL in an ANALYTICS_* or proxy variable.
func (s *schemaSecrets) learnEnvironment() {
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		switch {
		// Names are compared in upper case: on Windows they are
		// case-insensitive, and the SDK's lookups find aws_secret_key.
		case upper == EnvAPIKey || upper == EnvKeyPEM || storeCredentials[upper]:
			addSecret(value)
		case upper == containerTokenFile:
			addSecret(readTokenFile(value))
		case upper == EnvHeaders:
			var headers map[string]string
			if json.Unmarshal([]byte(value), &headers) == nil {
				for _, v := range headers {
					addSecret(v)
				}
			} else {
				addSecret(value)
			}
		case strings.HasPrefix(upper, "ANALYTICS_") || strings.HasSuffix(upper, "_PROXY"):
			addURLSecrets(value)
		}
	}
}

func (s *schemaSecrets) load(ctx context.Context) {
	s.once.Do(func() {
		s.types = map[string]schemaOf{}
		s.functions = map[string][]tftypes.Type{}
		resp, err := s.inner.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || resp == nil {
			return
		}
		add := func(kind string, schemas map[string]*tfprotov6.Schema) {
			for name, sch := range schemas {
				s.types[kind+"."+name] = schemaFor(sch)
			}
		}
		s.types["provider"] = schemaFor(resp.Provider)
		add("resource", resp.ResourceSchemas)
		add("data", resp.DataSourceSchemas)
		add("list", resp.ListResourceSchemas)
		add("ephemeral", resp.EphemeralResourceSchemas)
		for name, a := range resp.ActionSchemas {
			if a != nil {
				s.types["action."+name] = schemaFor(a.Schema)
			}
		}
		for name, f := range resp.Functions {
			if f == nil {
				continue
			}
			var params []tftypes.Type
			for _, p := range f.Parameters {
				params = append(params, p.Type)
			}
			if f.VariadicParameter != nil {
				params = append(params, f.VariadicParameter.Type)
			}
			s.functions[name] = params
		}
	})
}

func schemaFor(sch *tfprotov6.Schema) schemaOf {
	out := schemaOf{sensitive: map[string]bool{}}
	if sch == nil || sch.Block == nil {
		return out
	}
	out.typ = sch.ValueType()
	sensitivePaths(sch.Block, "", out.sensitive)
	return out
}

func sensitivePaths(b *tfprotov6.SchemaBlock, prefix string, into map[string]bool) {
	for _, a := range b.Attributes {
		attributePaths(a, prefix, into)
	}
	for _, nb := range b.BlockTypes {
		if nb != nil && nb.Block != nil {
			sensitivePaths(nb.Block, prefix+nb.TypeName+".", into)
		}
	}
}

func attributePaths(a *tfprotov6.SchemaAttribute, prefix string, into map[string]bool) {
	if a == nil {
		return
	}
	if a.Sensitive || a.WriteOnly {
		into[prefix+a.Name] = true
	}
	if a.NestedType != nil {
		for _, n := range a.NestedType.Attributes {
			attributePaths(n, prefix+a.Name+".", into)
		}
	}
}

// learn registers the secrets of req.
func (s *schemaSecrets) learn(ctx context.Context, req any) {
	switch r := req.(type) {
	case *tfprotov6.ValidateProviderConfigRequest:
		s.values(ctx, "provider", r.Config)
	case *tfprotov6.ConfigureProviderRequest:
		s.values(ctx, "provider", r.Config)
	case *tfprotov6.ValidateResourceConfigRequest:
		s.values(ctx, "resource."+r.TypeName, r.Config)
	case *tfprotov6.PlanResourceChangeRequest:
		s.values(ctx, "resource."+r.TypeName, r.Config, r.ProposedNewState, r.PriorState)
	case *tfprotov6.ApplyResourceChangeRequest:
		s.values(ctx, "resource."+r.TypeName, r.Config, r.PlannedState, r.PriorState)
	case *tfprotov6.ReadResourceRequest:
		s.values(ctx, "resource."+r.TypeName, r.CurrentState)
	case *tfprotov6.ImportResourceStateRequest:
		addURLSecrets(r.ID)
	case *tfprotov6.ValidateDataResourceConfigRequest:
		s.values(ctx, "data."+r.TypeName, r.Config)
	case *tfprotov6.ReadDataSourceRequest:
		s.values(ctx, "data."+r.TypeName, r.Config)
	case *tfprotov6.ValidateListResourceConfigRequest:
		s.values(ctx, "list."+r.TypeName, r.Config)
	case *tfprotov6.ListResourceRequest:
		s.values(ctx, "list."+r.TypeName, r.Config)
	case *tfprotov6.ValidateActionConfigRequest:
		s.values(ctx, "action."+r.ActionType, r.Config)
	case *tfprotov6.PlanActionRequest:
		s.values(ctx, "action."+r.ActionType, r.Config)
	case *tfprotov6.InvokeActionRequest:
		s.values(ctx, "action."+r.ActionType, r.Config)
	case *tfprotov6.ValidateEphemeralResourceConfigRequest:
		s.values(ctx, "ephemeral."+r.TypeName, r.Config)
	case *tfprotov6.OpenEphemeralResourceRequest:
		s.values(ctx, "ephemeral."+r.TypeName, r.Config)
	case *tfprotov6.CallFunctionRequest:
		s.load(ctx)
		params := s.functions[r.Name]
		for i, arg := range r.Arguments {
			if arg != nil && len(params) > 0 {
				walkStrings(arg, params[min(i, len(params)-1)], nil)
			}
		}
	}
}

// values registers the secrets of values of the schema named key.
func (s *schemaSecrets) values(ctx context.Context, key string, values ...*tfprotov6.DynamicValue) {
	s.load(ctx)
	sch, ok := s.types[key]
	if !ok || sch.typ == nil {
		return
	}
	for _, v := range values {
		if v != nil {
			walkStrings(v, sch.typ, sch.sensitive)
		}
	}
}

// walkStrings registers every string of dv that sits under a sensitive
// path, and the URL secrets of every other string.
func walkStrings(dv *tfprotov6.DynamicValue, typ tftypes.Type, sensitive map[string]bool) {
	val, err := dv.Unmarshal(typ)
	if err != nil {
		return
	}
	_ = tftypes.Walk(val, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		if !v.IsKnown() || v.IsNull() || !v.Type().Is(tftypes.String) {
			return true, nil
		}
		var str string
		if asErr := v.As(&str); asErr != nil {
			return true, nil //nolint:nilerr // a value that is no string holds no secret; the walk goes on
		}
		if underSensitive(p, sensitive) {
			addSecret(str)
		} else {
			addURLSecrets(str)
		}
		return true, nil
	})
}

// underSensitive reports whether p, or an attribute p is inside, is
// sensitive (element keys and indexes do not count).
func underSensitive(p *tftypes.AttributePath, sensitive map[string]bool) bool {
	if len(sensitive) == 0 || p == nil {
		return false
	}
	var name string
	for _, step := range p.Steps() {
		a, ok := step.(tftypes.AttributeName)
		if !ok {
			continue
		}
		if name != "" {
			name += "."
		}
		name += string(a)
		if sensitive[name] {
			return true
		}
	}
	return false
}

// addSecret registers a secret, and each line of one that has several (a
// PEM key) but a PEM armor line (-----BEGIN PRIVATE KEY-----), which is
// no secret and which messages name.
func addSecret(v string) {
	redact.Add(v)
	if strings.Contains(v, "\n") {
		for _, line := range strings.Split(v, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "-----") {
				redact.Add(line)
			}
		}
	}
}

// addURLSecrets registers the user information of a string that may be a
// URL with one (redact.AddURLSecrets).
func addURLSecrets(s string) { redact.AddURLSecrets(s) }

// Package schemadump writes a provider's schema in the JSON form that
// `terraform providers schema -json` prints (terraform-json's
// ProviderSchemas), from the provider's own protocol 6 server in process:
// no Terraform CLI and no provider build. `make docs` hands the result to
// tfplugindocs (--providers-schema); a test in internal/repotest compares
// it with what Terraform itself prints for the same provider.
//
// The conversion restates Terraform's own (internal/plugin6/convert, then
// internal/command/jsonprovider and jsonfunction, of Terraform 1.16.4):
// every attribute, block, nesting mode and flag of the protocol's schema
// carried over, write-only attributes marked as Terraform 1.11 and later
// mark them, the list resources' schemas as the provider declares them
// (Terraform wraps them in a "config" block inside, and unwraps them for
// this output), identity schemas only for resources that have one.
// terraform-json has no field for a deprecation message, which Terraform
// prints: the provider declares none, and the test would show one.
package schemadump

import (
	"context"
	"errors"
	"fmt"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// FormatVersion is the format_version Terraform prints.
const FormatVersion = "1.0"

// DocsAddress is the provider address the docs' schema is written under:
// tfplugindocs looks a provider's schema up under "<name>" or
// "registry.terraform.io/hashicorp/<name>" only, whatever the provider's
// real source.
const DocsAddress = "registry.terraform.io/hashicorp/analytics"

// Dump asks server for its schemas (GetProviderSchema and
// GetResourceIdentitySchemas, as Terraform does) and returns them under the
// provider address addr.
func Dump(ctx context.Context, server tfprotov6.ProviderServer, addr string) (*tfjson.ProviderSchemas, error) {
	resp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetProviderSchema: %w", err)
	}
	if err := diagnosticsError("GetProviderSchema", resp.Diagnostics); err != nil {
		return nil, err
	}
	identities, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetResourceIdentitySchemas: %w", err)
	}
	if err := diagnosticsError("GetResourceIdentitySchemas", identities.Diagnostics); err != nil {
		return nil, err
	}

	var c converter
	ps := &tfjson.ProviderSchema{
		ConfigSchema:             c.schema(resp.Provider),
		ResourceSchemas:          convertMap(resp.ResourceSchemas, c.schema),
		DataSourceSchemas:        convertMap(resp.DataSourceSchemas, c.schema),
		EphemeralResourceSchemas: convertMap(resp.EphemeralResourceSchemas, c.schema),
		ListResourceSchemas:      convertMap(resp.ListResourceSchemas, c.schema),
		ActionSchemas:            convertMap(resp.ActionSchemas, c.action),
		Functions:                convertMap(resp.Functions, c.function),
		ResourceIdentitySchemas:  convertMap(identities.IdentitySchemas, c.identity),
	}
	if ps.ConfigSchema == nil {
		ps.ConfigSchema = &tfjson.Schema{} // Terraform prints {"version":0}
	}
	if c.err != nil {
		return nil, c.err
	}
	return &tfjson.ProviderSchemas{
		FormatVersion: FormatVersion,
		Schemas:       map[string]*tfjson.ProviderSchema{addr: ps},
	}, nil
}

func diagnosticsError(rpc string, diags []*tfprotov6.Diagnostic) error {
	var errs []error
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, fmt.Errorf("%s: %s: %s", rpc, d.Summary, d.Detail))
		}
	}
	return errors.Join(errs...)
}

// convertMap converts each value of m, or returns nil for an empty m (the
// JSON form leaves the key out).
func convertMap[V, W any](m map[string]V, f func(V) W) map[string]W {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]W, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

// converter keeps the first error met (a type that cty cannot read), so the
// walk itself stays free of error plumbing.
type converter struct{ err error }

func (c *converter) schema(s *tfprotov6.Schema) *tfjson.Schema {
	if s == nil {
		return nil
	}
	return &tfjson.Schema{Version: uint64(s.Version), Block: c.block(s.Block)}
}

func (c *converter) action(s *tfprotov6.ActionSchema) *tfjson.ActionSchema {
	if s.Schema == nil {
		return &tfjson.ActionSchema{Block: &tfjson.SchemaBlock{}}
	}
	return &tfjson.ActionSchema{Block: c.block(s.Schema.Block)}
}

func (c *converter) block(b *tfprotov6.SchemaBlock) *tfjson.SchemaBlock {
	if b == nil {
		return &tfjson.SchemaBlock{} // Terraform prints {}
	}
	out := &tfjson.SchemaBlock{
		Description:     b.Description,
		DescriptionKind: descriptionKind(b.DescriptionKind),
		Deprecated:      b.Deprecated,
	}
	if len(b.Attributes) > 0 {
		out.Attributes = make(map[string]*tfjson.SchemaAttribute, len(b.Attributes))
		for _, a := range b.Attributes {
			out.Attributes[a.Name] = c.attribute(a)
		}
	}
	if len(b.BlockTypes) > 0 {
		out.NestedBlocks = make(map[string]*tfjson.SchemaBlockType, len(b.BlockTypes))
		for _, nb := range b.BlockTypes {
			out.NestedBlocks[nb.TypeName] = &tfjson.SchemaBlockType{
				NestingMode: blockNesting(nb.Nesting),
				Block:       c.block(nb.Block),
				MinItems:    uint64(nb.MinItems),
				MaxItems:    uint64(nb.MaxItems),
			}
		}
	}
	return out
}

func (c *converter) attribute(a *tfprotov6.SchemaAttribute) *tfjson.SchemaAttribute {
	out := &tfjson.SchemaAttribute{
		Description:     a.Description,
		DescriptionKind: descriptionKind(a.DescriptionKind),
		Deprecated:      a.Deprecated,
		Required:        a.Required,
		Optional:        a.Optional,
		Computed:        a.Computed,
		Sensitive:       a.Sensitive,
		WriteOnly:       a.WriteOnly,
	}
	if a.Type != nil {
		out.AttributeType = c.ctyType(a.Type)
	}
	if a.NestedType != nil {
		nested := &tfjson.SchemaNestedAttributeType{
			NestingMode: objectNesting(a.NestedType.Nesting),
			Attributes:  make(map[string]*tfjson.SchemaAttribute, len(a.NestedType.Attributes)),
		}
		for _, na := range a.NestedType.Attributes {
			nested.Attributes[na.Name] = c.attribute(na)
		}
		out.AttributeNestedType = nested
	}
	return out
}

func (c *converter) identity(s *tfprotov6.ResourceIdentitySchema) *tfjson.IdentitySchema {
	out := &tfjson.IdentitySchema{Version: uint64(s.Version)}
	if len(s.IdentityAttributes) > 0 {
		out.Attributes = make(map[string]*tfjson.IdentityAttribute, len(s.IdentityAttributes))
		for _, a := range s.IdentityAttributes {
			out.Attributes[a.Name] = &tfjson.IdentityAttribute{
				IdentityType:      c.ctyType(a.Type),
				Description:       a.Description,
				RequiredForImport: a.RequiredForImport,
				OptionalForImport: a.OptionalForImport,
			}
		}
	}
	return out
}

func (c *converter) function(f *tfprotov6.Function) *tfjson.FunctionSignature {
	out := &tfjson.FunctionSignature{
		Description:        f.Description,
		Summary:            f.Summary,
		DeprecationMessage: f.DeprecationMessage,
	}
	if f.Return != nil {
		out.ReturnType = c.ctyType(f.Return.Type)
	}
	for _, p := range f.Parameters {
		out.Parameters = append(out.Parameters, c.parameter(p))
	}
	if f.VariadicParameter != nil {
		out.VariadicParameter = c.parameter(f.VariadicParameter)
	}
	return out
}

func (c *converter) parameter(p *tfprotov6.FunctionParameter) *tfjson.FunctionParameter {
	return &tfjson.FunctionParameter{
		Name:        p.Name,
		Description: p.Description,
		IsNullable:  p.AllowNullValue,
		Type:        c.ctyType(p.Type),
	}
}

// ctyType turns a protocol type into cty's (both print it in the same JSON
// form, which Terraform's output uses).
func (c *converter) ctyType(t tftypes.Type) cty.Type {
	switch {
	case t == nil:
		return cty.NilType
	case t.Is(tftypes.String):
		return cty.String
	case t.Is(tftypes.Number):
		return cty.Number
	case t.Is(tftypes.Bool):
		return cty.Bool
	case t.Is(tftypes.DynamicPseudoType):
		return cty.DynamicPseudoType
	}
	switch t := t.(type) {
	case tftypes.List:
		return cty.List(c.ctyType(t.ElementType))
	case tftypes.Set:
		return cty.Set(c.ctyType(t.ElementType))
	case tftypes.Map:
		return cty.Map(c.ctyType(t.ElementType))
	case tftypes.Tuple:
		elems := make([]cty.Type, len(t.ElementTypes))
		for i, e := range t.ElementTypes {
			elems[i] = c.ctyType(e)
		}
		return cty.Tuple(elems)
	case tftypes.Object:
		attrs := make(map[string]cty.Type, len(t.AttributeTypes))
		var optional []string
		for name, a := range t.AttributeTypes {
			attrs[name] = c.ctyType(a)
			if _, ok := t.OptionalAttributes[name]; ok {
				optional = append(optional, name)
			}
		}
		if len(optional) > 0 {
			return cty.ObjectWithOptionalAttrs(attrs, optional)
		}
		return cty.Object(attrs)
	}
	if c.err == nil {
		c.err = fmt.Errorf("schemadump: no cty type for the protocol type %s", t)
	}
	return cty.NilType
}

func descriptionKind(k tfprotov6.StringKind) tfjson.SchemaDescriptionKind {
	if k == tfprotov6.StringKindMarkdown {
		return tfjson.SchemaDescriptionKindMarkdown
	}
	return tfjson.SchemaDescriptionKindPlain
}

func blockNesting(n tfprotov6.SchemaNestedBlockNestingMode) tfjson.SchemaNestingMode {
	switch n {
	case tfprotov6.SchemaNestedBlockNestingModeSingle:
		return tfjson.SchemaNestingModeSingle
	case tfprotov6.SchemaNestedBlockNestingModeGroup:
		return tfjson.SchemaNestingModeGroup
	case tfprotov6.SchemaNestedBlockNestingModeList:
		return tfjson.SchemaNestingModeList
	case tfprotov6.SchemaNestedBlockNestingModeSet:
		return tfjson.SchemaNestingModeSet
	case tfprotov6.SchemaNestedBlockNestingModeMap:
		return tfjson.SchemaNestingModeMap
	default:
		return ""
	}
}

func objectNesting(n tfprotov6.SchemaObjectNestingMode) tfjson.SchemaNestingMode {
	switch n {
	case tfprotov6.SchemaObjectNestingModeSingle:
		return tfjson.SchemaNestingModeSingle
	case tfprotov6.SchemaObjectNestingModeList:
		return tfjson.SchemaNestingModeList
	case tfprotov6.SchemaObjectNestingModeSet:
		return tfjson.SchemaNestingModeSet
	case tfprotov6.SchemaObjectNestingModeMap:
		return tfjson.SchemaNestingModeMap
	default:
		return ""
	}
}

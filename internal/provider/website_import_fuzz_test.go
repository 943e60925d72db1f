package provider

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// FuzzImportID: the ID of terraform import (importTarget, after
// ImportState's trimming). For any input: no panic; it is exactly one of
// an id (positive, and printing and reading it again gives the same id), a
// domain (one the domain validator accepts: canonical, or a domain the
// server stores in Unicode or with a trailing dot) or a refusal that
// says what import takes; with a password the fuzzer draws in it as URL
// user information, the refusal holds no piece of it in any form.
func FuzzImportID(f *testing.F) {
	for _, s := range []string{"12", "012", "+12", "-12", "0", "99999999999999999999", "example.com", "Example.com",
		"https://www.example.com/", "user:pw@example.com", "12.5", "1e3", " 12 ", "", "xn--mnchen-3ya.de",
		"münchen.de", "shop.example.com.", "München.DE", "münchen.de."} {
		f.Add(s, "", "", fuzzSecret)
	}
	f.Add("example.com", "a/", "", fuzzSecret)
	f.Add("https://www.example.com/", "2024/", "", `P+w="\<&x y`)
	f.Fuzz(func(t *testing.T, in, before, after, core string) {
		raw := strings.TrimSpace(in)
		id, problem := importTarget(raw)
		switch {
		case problem != "":
			if id != 0 || !strings.Contains(problem, "Import takes the website's numeric id or its exact domain") {
				t.Errorf("importTarget(%q) = %d, %q: a refusal must say what import takes", raw, id, problem)
			}
		case id > 0:
			if again, p := importTarget(strconv.FormatInt(id, 10)); again != id || p != "" {
				t.Errorf("importTarget(%q) = %d, which reads back as %d, %q", raw, id, again, p)
			}
		case id == 0:
			if _, storedOnly := storedOnlyDomain(raw); !storedOnly {
				if p := domainProblem(raw); p != "" {
					t.Errorf("importTarget(%q) takes it as a domain that the validator refuses: %s", raw, p)
				}
			}
		default:
			t.Errorf("importTarget(%q) = %d", raw, id)
		}
		secret := withUserInfo(raw, before, core, after)
		_, p := importTarget(secret)
		secretCheck{secret: before + core + after, clean: []string{raw}}.check(t, secret, nil, "", p)
	})
}

// FuzzImportIdentity: the identity's id given to import (Terraform 1.12
// and later), through ImportState itself (with an unconfigured provider,
// which fails after the identity is read). For any id: no panic; an id
// that is refused is an error on the attribute id that names it; an id
// that is accepted is a website id that prints back to itself.
func FuzzImportIdentity(f *testing.F) {
	for _, s := range []string{"12", "012", "+12", "-1", "0", "99999999999999999999", "9223372036854775807",
		"example.com", " 12 ", "", "１２"} {
		f.Add(s)
	}
	ctx := context.Background()
	r := &websiteResource{}
	var schemaResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &schemaResp)
	typ := schemaResp.IdentitySchema.Type().TerraformType(ctx)
	f.Fuzz(func(t *testing.T, in string) {
		req := resource.ImportStateRequest{Identity: &tfsdk.ResourceIdentity{
			Schema: schemaResp.IdentitySchema,
			Raw:    tftypes.NewValue(typ, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, in)}),
		}}
		var resp resource.ImportStateResponse
		r.ImportState(ctx, req, &resp)
		if !resp.Diagnostics.HasError() {
			t.Fatalf("identity id %q: an unconfigured provider imported it", in)
		}
		if resp.Diagnostics[0].Summary() == "Provider Not Configured" {
			raw := strings.TrimSpace(in)
			id, err := strconv.ParseInt(raw, 10, 64)
			if err != nil || id <= 0 || strconv.FormatInt(id, 10) != raw {
				t.Errorf("identity id %q is accepted, but it is not a website id that prints back to itself", in)
			}
			return
		}
		checkRefusals(t, resp.Diagnostics, path.Root("id"), in)
	})
}

// FuzzWebsiteID: the website_id and id attributes of the data sources and
// the export action (websiteIDValidator). Accepted: a positive int64 that
// prints back to itself. Refused: an error on the attribute, naming it.
func FuzzWebsiteID(f *testing.F) {
	for _, s := range []string{"12", "012", "+12", "-1", "0", "99999999999999999999", "9223372036854775807",
		"9223372036854775808", " 12", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		at := path.Root("website_id")
		diags := validateString(websiteIDValidator(), at, in)
		checkRefusals(t, diags, at, in)
		if !diags.HasError() {
			id, err := strconv.ParseInt(in, 10, 64)
			if err != nil || id <= 0 || strconv.FormatInt(id, 10) != in {
				t.Errorf("website_id %q is accepted, but it is not a website id that prints back to itself", in)
			}
		}
	})
}

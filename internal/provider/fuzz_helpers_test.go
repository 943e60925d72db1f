package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The properties the fuzz targets of this package share (Fuzz* in the
// *_fuzz_test.go files; their corpora in testdata/fuzz/<target>/).

// fuzzSecret is planted in the user information of a URL, in a password or
// in an API key: no message may repeat it, in any case (a domain is
// lower-cased before it is quoted).
const fuzzSecret = "Zq7sEcReTx"

// holdsSecret reports whether s repeats fuzzSecret, in any case.
func holdsSecret(s string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(fuzzSecret))
}

// validateString runs a string validator on value at the attribute attr.
func validateString(v validator.String, attr path.Path, value string) diag.Diagnostics {
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{
		Path: attr, PathExpression: attr.Expression(), ConfigValue: types.StringValue(value),
	}, resp)
	return resp.Diagnostics
}

// checkRefusals checks that every diagnostic is an error on attr whose
// detail names attr (its path string, e.g. "base_url").
func checkRefusals(t *testing.T, diags diag.Diagnostics, attr path.Path, input string) {
	t.Helper()
	for _, d := range diags {
		if d.Severity() != diag.SeverityError {
			t.Errorf("%q: a %s, not an error: %s: %s", input, d.Severity(), d.Summary(), d.Detail())
		}
		wp, ok := d.(diag.DiagnosticWithPath)
		if !ok || !wp.Path().Equal(attr) {
			t.Errorf("%q: the diagnostic %q is not on %s", input, d.Summary(), attr)
		}
		if !strings.Contains(d.Detail(), attr.String()) {
			t.Errorf("%q: the message does not name %s: %s", input, attr, d.Detail())
		}
	}
}

// checkNoSecret fails when a diagnostic repeats fuzzSecret.
func checkNoSecret(t *testing.T, diags diag.Diagnostics, input string) {
	t.Helper()
	for _, d := range diags {
		if holdsSecret(d.Summary()) || holdsSecret(d.Detail()) {
			t.Errorf("%q: a message repeats the secret: %s: %s", input, d.Summary(), d.Detail())
		}
	}
}

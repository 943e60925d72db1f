package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/analytics-tf/terraform-provider-analytics/internal/leakcheck"
)

// The properties the fuzz targets of this package share (Fuzz* in the
// *_fuzz_test.go files; their corpora in testdata/fuzz/<target>/).

// fuzzSecret is the seed of the secrets the fuzzer draws (a password in a
// URL's user information, a website's password, an API key, a header
// value): the corpora written before the secrets were drawn hold it as
// their secret.
const fuzzSecret = "Zq7sEcReTx"

// validateString runs a string validator on value at the attribute attr.
func validateString(v validator.String, attr path.Path, value string) diag.Diagnostics {
	d, _ := validateStringLogged(v, attr, value)
	return d
}

// logContext is a context whose tflog output (the provider's root logger,
// every level) goes to the returned buffer, as JSON lines.
func logContext() (context.Context, *bytes.Buffer) {
	var b bytes.Buffer
	return tflogtest.RootLogger(context.Background(), &b), &b
}

// validateStringLogged runs a string validator on value at the attribute
// attr, and returns its diagnostics and what it logged.
func validateStringLogged(v validator.String, attr path.Path, value string) (diag.Diagnostics, string) {
	ctx, logs := logContext()
	resp := &validator.StringResponse{}
	v.ValidateString(ctx, validator.StringRequest{
		Path: attr, PathExpression: attr.Expression(), ConfigValue: types.StringValue(value),
	}, resp)
	return resp.Diagnostics, logs.String()
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

// secretCheck is what a user could see of one input holding a secret: the
// diagnostics, other messages (a refusal's text from the environment's
// check), and the log.
type secretCheck struct {
	secret string
	// registered: the secret is the value of a sensitive or write-only
	// attribute, which the protocol gate (gate.go) registers with the
	// redactor before anything is said; the checked texts are then what
	// the gate lets out (leakcheck.Gate: scrubDiagnostics' redactor, with
	// a Set of its own, so that the process's does not grow with every
	// input tried). Otherwise (a password inside a URL or an import ID, a
	// value from the environment), the texts are checked as the provider
	// wrote them: the gate registers those too, but the quote sites must
	// not repeat them in the first place.
	registered bool
	// clean are the parts of the input that hold no secret and that a
	// message may quote (a host, a header's name).
	clean []string
	// others are the input's other secrets, which the gate registers too
	// when registered is set (another header's value).
	others []string
}

// check fails when a piece of the secret, in any form (leakcheck), is in
// any diagnostic's summary or detail, any of texts, or logs. A secret that
// leakcheck.Skip sets aside (shorter than the redactor's redact.MinLength,
// too common to be told from other text, or in the clean parts) is not
// checked: the target's other properties still are.
func (c secretCheck) check(t *testing.T, input string, diags diag.Diagnostics, logs string, texts ...string) {
	t.Helper()
	if leakcheck.Skip(c.secret, c.clean...) != "" {
		return
	}
	gate := leakcheck.Gate(c.registered, append([]string{c.secret}, c.others...)...)
	var channels []leakcheck.Channel
	for _, d := range diags {
		channels = append(channels, leakcheck.Channel{Name: "a diagnostic's summary", Text: gate(d.Summary())},
			leakcheck.Channel{Name: "a diagnostic's detail", Text: gate(d.Detail())})
	}
	for _, s := range texts {
		channels = append(channels, leakcheck.Channel{Name: "a message", Text: gate(s)})
	}
	channels = append(channels, leakcheck.Channel{Name: "the log", Text: gate(logs)})
	for _, p := range leakcheck.Check(c.secret, channels...) {
		t.Errorf("%q: %s", input, p)
	}
}

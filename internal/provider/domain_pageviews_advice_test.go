package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The warning about an adopted website stored in Unicode or with a trailing
// dot, and the refusal of a new one, say what to do: "create a new website
// with domain = X" / "Set domain = X", X being the ASCII form a browser
// sends. For some domains the server stores, X is refused: "ü.123." gives
// "xn--tda.123", which the server itself refuses ("Invalid domain name.":
// an all-digit last label, and a browser cannot open it either), and
// "bücher_shop.example" or "bücher..example" give a form the provider's own
// validator refuses. The advice then leads to another error.
func TestStoredOnlyDomain_adviceIsAccepted(t *testing.T) {
	t.Parallel()
	advice := regexp.MustCompile(`domain = "([^"]*)"`)
	for _, d := range []string{"ü.123.", "bücher_shop.example", "bücher..example"} {
		if serverRefuses(d) {
			t.Fatalf("the server refuses %q", d)
		}
		var diags diag.Diagnostics
		checkNewStoredOnlyDomain(types.StringValue(d), &diags) // a new website: refused
		texts := []string{storedOnlyNotice(d)}                 // an adopted one: warned about
		for _, dg := range diags {
			texts = append(texts, dg.Detail())
		}
		for _, text := range texts {
			for _, m := range advice.FindAllStringSubmatch(text, -1) {
				if p := domainProblem(m[1]); p != "" {
					t.Errorf("%q: the advice names domain = %q, which is refused: %s", d, m[1], p)
				}
			}
		}
	}
}

// A website stored in Unicode is adopted with its stored domain (a warning,
// not an error), also when no browser can open it, for a leading combining
// mark or a zero-width joiner: the server stores these as written (its rule
// checks only the last label), so a website made in the web interface can
// have them. Today the validator refuses them ("not a valid
// internationalised domain name"), so such a website cannot be adopted at
// all; the warning would say it records no pageview and to create a new
// website under a valid name.
func TestDomainValidator_unicodeStoredDomainNoBrowserOpensIsAdoptable(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"\u0301bücher.example", "b\u200dücher.example"} {
		if serverRefuses(in) {
			t.Fatalf("the server refuses %q", in)
		}
		if diags := validateString(domainValidator(), path.Root("domain"), in); diags.HasError() {
			t.Errorf("%q, stored as written by the server, cannot be adopted: %v", in, diags)
		}
	}
}

// An import ID with white space around a Unicode host ("bücher.example "
// pasted from a document) names only "xn--bcher-kva.example", not the form
// the server stores the host in, which the trimmed value is: the import by
// the named domain then finds no website made in the web interface.
func TestImportTarget_spacedUnicodeNamesTheStoredForm(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{" bücher.example", "bücher.example "} {
		if _, problem := importTarget(raw); !strings.Contains(problem, `"bücher.example"`) {
			t.Errorf("importTarget(%q) does not name \"bücher.example\": %s", raw, problem)
		}
	}
}

// A website stored with a trailing dot is adopted with its stored domain,
// the issue says, also when the name before the dot is one the provider
// would refuse: "example.123." is stored as written (the rule lets an
// all-digit last label through when a dot follows), and today the
// validator refuses it ("ends with dots"), so such a website cannot be
// adopted at all.
func TestDomainValidator_trailingDotStoredDomainIsAdoptable(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"example.123."} {
		if serverRefuses(in) {
			t.Fatalf("the server refuses %q", in)
		}
		if diags := validateString(websiteDomainValidator(), path.Root("domain"), in); diags.HasError() {
			t.Errorf("%q, stored as written by the server, cannot be adopted: %v", in, diags)
		}
	}
}

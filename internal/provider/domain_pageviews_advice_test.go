package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The warning about an adopted website stored in Unicode or with a trailing
// dot, and the refusal of a new one, say what to do: "create a new website
// with domain = X" / "Set domain = X", X the advised domain (advisedDomain
// of the form a browser sends). For some domains the server stores, that
// form is refused: "ü.123." gives "xn--tda.123", which the server itself
// refuses, and "bücher_shop.example" or "bücher..example" give a form the
// provider's own validator refuses; the advice then led to another error.
// The advised domain is one the validator accepts, or none (the messages
// then ask for a valid host name).
func TestStoredOnlyDomain_adviceIsAccepted(t *testing.T) {
	t.Parallel()
	for d, want := range map[string]string{
		"ü.123.": "", "bücher_shop.example": "", "bücher..example": "", "my_shop.example.com": "",
		"bücher.example": "xn--bcher-kva.example", "shop.example.com.": "shop.example.com", "01.2.3.4": "1.2.3.4",
	} {
		if serverRefuses(d) {
			t.Fatalf("the server refuses %q", d)
		}
		b, ok := storedOnlyDomain(d)
		if !ok {
			t.Errorf("%q: not a stored-only domain", d)
			continue
		}
		a := advisedDomain(b)
		if a != want {
			t.Errorf("%q: advises %q, want %q", d, a, want)
		}
		if a != "" && domainProblem(a) != "" {
			t.Errorf("%q: advises %q, which is refused: %s", d, a, domainProblem(a))
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

// A Unicode domain spelt in upper case ("BÜCHER.example") for a website
// the web interface stored as "bücher.example": the error names the
// stored form as the one that manages the imported website, which the
// validator accepts (a warning only), before the ASCII form a new website
// needs. Before, it only advised the ASCII form, a different domain on
// the server: following it planned the imported website's replacement.
func TestDomainValidator_upperCaseUnicodeNamesTheStoredForm(t *testing.T) {
	t.Parallel()
	for in, stored := range map[string]string{"BÜCHER.example": "bücher.example", "https://www.Bücher.example": "bücher.example"} {
		diags := validateString(domainValidator(), path.Root("domain"), in)
		if !diags.HasError() {
			t.Fatalf("%q accepted: %v", in, diags)
		}
		want := fmt.Sprintf("is managed with domain = %q", stored)
		if d := diags[0].Detail(); !strings.Contains(d, want) || strings.Index(d, want) > strings.Index(d, "Set domain =") {
			t.Errorf("%q: the error does not first name the stored form (%s):\n%s", in, want, d)
		}
		if diags := validateString(domainValidator(), path.Root("domain"), stored); diags.HasError() {
			t.Errorf("the stored form %q is refused: %v", stored, diags)
		}
	}
}

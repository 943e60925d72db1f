package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The domain validator's suggestion (Set domain = "...") for a value is the
// value's canonical_domain: one rule. For two code points they disagree,
// because the validator lower-cases with Go's simple case mapping before the
// IDNA mapping while canonical_domain maps first: İ (U+0130) and ẞ (U+1E9E).
// For "aİb.example" the validator also says the server stores
// "aib.example", which neither PHP's strtolower nor mb_strtolower does.
func TestDomainValidator_suggestionIsCanonicalDomain(t *testing.T) {
	t.Parallel()
	set := regexp.MustCompile(`Set domain = "([^"]*)"`)
	for _, in := range []string{"aİb.example", "aẞb.example"} {
		want, problem := canonicalDomainOf(in)
		if problem != "" {
			t.Fatalf("canonical_domain(%q): %s", in, problem)
		}
		for _, d := range validateString(domainValidator(), path.Root("domain"), in) {
			if m := set.FindStringSubmatch(d.Detail()); m != nil && m[1] != want {
				t.Errorf("%q: the validator suggests %q, canonical_domain gives %q: %s", in, m[1], want, d.Detail())
			}
		}
	}
}

// A website whose stored domain is in Unicode is adopted with its stored
// domain (a warning, not an error), also when the domain is not valid under
// the strict IDNA profile the provider uses (a label with "_" or a leading
// or trailing "-"). The server stores these as written (its rule checks only
// the last label), and a browser (the WHATWG URL standard does not check
// hyphens nor the STD3 rules) still opens them; today the validator refuses
// them, so such a website can only be imported with a configuration that
// plans its replacement, or not at all.
func TestDomainValidator_unicodeStoredDomainOutsideStrictIDNAIsAdoptable(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"bücher_shop.example", "-bücher.example", "bücher-.example"} {
		if serverRefuses(in) {
			t.Fatalf("the server refuses %q", in)
		}
		if diags := validateString(domainValidator(), path.Root("domain"), in); diags.HasError() {
			t.Errorf("%q, stored as written by the server, cannot be adopted: %v", in, diags)
		}
	}
}

// An import ID given as a URL whose host is in Unicode names the form the
// server stores that host in ("bücher.example"), whatever the URL around
// it. Today "https://www.bücher.example" names "bücher.example" but
// "https://bücher.example/" (a trailing slash, as a copied URL has) and
// "bücher.example:443" name only "xn--bcher-kva.example", which a website
// made in the web interface as bücher.example does not have: the import by
// that domain then finds nothing. The same holds for a trailing dot.
func TestImportTarget_unicodeURLNamesTheStoredForm(t *testing.T) {
	t.Parallel()
	for raw, stored := range map[string]string{
		"https://www.bücher.example": `"bücher.example"`,
		"https://bücher.example/":    `"bücher.example"`,
		"bücher.example:443":         `"bücher.example"`,
		"https://shop.example.com./": `"shop.example.com."`,
	} {
		if _, problem := importTarget(raw); !strings.Contains(problem, stored) {
			t.Errorf("importTarget(%q) does not name %s: %s", raw, stored, problem)
		}
	}
}

// A Unicode domain ending with two dots is refused for its dots, the true
// reason, not for being Unicode.
func TestDomainProblem_unicodeWithTwoDotsNamesTheDots(t *testing.T) {
	t.Parallel()
	if p := domainProblem("bücher.example.."); !strings.Contains(p, "ends with dots") {
		t.Errorf("domainProblem(bücher.example..) = %s", p)
	}
}

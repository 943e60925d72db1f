package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// TestHexLastLabelRecordsNoPageviews (review rev44af): the WHATWG URL
// standard parses a host whose last label is a number, "0x" hexadecimal
// included, as an IPv4 address: a browser sends http://1.2.3.0x4/ as host
// "1.2.3.4", and refuses http://example.0x1f/ outright. The tracking
// endpoint matches the stored domain literally, so a website with such a
// domain records no pageview, which the provider refuses for a new website
// (domain_pageviews.go, as it refuses "01.2.3.4"). The server stores them
// as written (the last label is not all digits); the validator and
// canonical_domain accepted them without a word. With a trailing dot the
// validator saw the browser form, called the ASCII name "in Unicode", and
// suggested "0.0.0.0" where canonical_domain gave "000.0x0".
func TestHexLastLabelRecordsNoPageviews(t *testing.T) {
	t.Parallel()
	for in, browser := range map[string]string{"1.2.3.0x4": "1.2.3.4", "000.0x0": "0.0.0.0", "example.0x1f": ""} {
		if b := browserForm(in); b != browser {
			t.Fatalf("premise: a browser sends %q for %q, want %q", b, in, browser)
		}
		if serverRefuses(in) {
			t.Fatalf("premise: the server refuses %q", in)
		}
		diags := validateString(domainValidator(), path.Root("domain"), in)
		if len(diags) == 0 {
			t.Errorf("%q is accepted without a word, but a browser sends %q for it: the website records no pageview", in, browser)
		}
	}
	in := "000.0X0."
	diags := validateString(domainValidator(), path.Root("domain"), in)
	out, problem := canonicalDomainOf(in)
	for _, d := range diags {
		if strings.Contains(d.Detail(), "in Unicode") {
			t.Errorf("%q: the message calls an ASCII name Unicode:\n%s", in, d.Detail())
		}
		if _, s, ok := strings.Cut(d.Detail(), "Set domain = \""); ok && problem == "" {
			if suggested, _, _ := strings.Cut(s, "\""); suggested != out {
				t.Errorf("%q: the validator suggests %q, canonical_domain gives %q", in, suggested, out)
			}
		}
	}
}

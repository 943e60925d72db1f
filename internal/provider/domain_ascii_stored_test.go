package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// An ASCII domain with "_" in a label, or a label that starts with "-", is
// stored by the server as written, and a browser sends such a host as it is
// (the WHATWG URL standard checks neither hyphens nor the STD3 rules), so
// the website records pageviews: "my_shop.example.com" is a working
// website. The validator refuses it, saying "no website's host name has
// this form, so it is most likely a mistake", which is not true, and a
// website made so in the web interface cannot be adopted at all (its
// stored domain is refused; any other plans its replacement). The Unicode
// forms of the same ("bücher_shop.example") are adopted with a warning.
func TestDomainValidator_asciiStoredDomainBrowsersSendIsAdoptable(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"my_shop.example.com", "-shop.example.com"} {
		if serverRefuses(in) {
			t.Fatalf("the server refuses %q", in)
		}
		if diags := validateString(websiteDomainValidator(), path.Root("domain"), in); diags.HasError() {
			t.Errorf("%q, stored as written and sent so by a browser, cannot be adopted: %v", in, diags)
		}
	}
}

// "01.2.3.4" is stored as written (the rule's IPv4 branch takes "01"), but
// a browser reads it as the IPv4 address 1.2.3.4 (the WHATWG host parser)
// and sends that, so the website records no pageview. The refusal says
// "most likely a mistake" and names no fix; it should say why and
// suggest "1.2.3.4".
func TestDomainProblem_zeroPaddedIPv4SuggestsTheAddress(t *testing.T) {
	t.Parallel()
	if serverRefuses("01.2.3.4") {
		t.Fatal("the server refuses 01.2.3.4")
	}
	if p := domainProblem("01.2.3.4"); !strings.Contains(p, `"1.2.3.4"`) {
		t.Errorf("domainProblem(01.2.3.4) names no fix: %s", p)
	}
}

package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestHexReplacementNamesTheAddress: an adopted website stored
// (web interface) as "1.2.3.0x4", whose configuration is changed to
// "1.2.3.4", the address a browser sends for it (and the one the refusal of
// the hex domain advises: "Set domain = \"1.2.3.4\""). The plan replaces the
// website, and d07810c makes it warn "Replacing a Website for Its ASCII
// Domain ... domain = \"1.2.3.4\" is its ASCII form": "1.2.3.0x4" is ASCII
// already; "1.2.3.4" is the IPv4 address a browser reads. The warning is
// the one the user sees before losing the website's statistics: it must
// name what actually differs.
func TestHexReplacementNamesTheAddress(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	warnASCIIReplacement(types.StringValue("1.2.3.0x4"), types.StringValue("1.2.3.4"), &diags)
	if len(diags) == 0 {
		t.Fatal("premise: the replacement of 1.2.3.0x4 by 1.2.3.4 is warned about")
	}
	for _, d := range diags {
		if strings.Contains(d.Summary(), "ASCII") || strings.Contains(d.Detail(), "ASCII form") {
			t.Errorf("the warning calls 1.2.3.4 the ASCII form of the ASCII domain 1.2.3.0x4:\n%s: %s", d.Summary(), d.Detail())
		}
	}
}

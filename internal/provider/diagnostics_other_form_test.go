package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// A data source looking a website up by the ASCII form of its domain
// ("xn--bcher-kva.example", the form the provider asks for) finds nothing
// when the website was made in the web interface and is stored in Unicode
// ("bücher.example"). The import by domain then names the other form
// (otherFormHint); the data sources' "Website Not Found" only says to
// check the spelling, lower case and "www.", which sends the user nowhere.
func TestWebsiteDomainNotFound_namesTheOtherForm(t *testing.T) {
	t.Parallel()
	for domain, other := range map[string]string{
		"xn--bcher-kva.example": `"bücher.example"`,
		"bücher.example":        `"xn--bcher-kva.example"`,
		"shop.example.com.":     `"shop.example.com"`,
	} {
		var diags diag.Diagnostics
		addWebsiteDomainNotFound(&diags, path.Root("domain"), domain)
		if len(diags) != 1 || !strings.Contains(diags[0].Detail(), other) {
			t.Errorf("%q not found: the message does not name %s: %v", domain, other, diags)
		}
	}
}

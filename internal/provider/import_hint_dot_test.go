package provider

import (
	"strings"
	"testing"
)

// An import by "shop.example.com" that finds nothing names the Unicode form
// a website may be stored in (for an xn-- domain), but not the trailing-dot
// form: a website made in the web interface as "shop.example.com." (the
// issue's own example) is then reported "not found" with no hint, although
// canonical_domain and the provider's advice both give the dotless form.
func TestOtherFormHint_namesTheTrailingDotForm(t *testing.T) {
	t.Parallel()
	for domain, other := range map[string]string{
		"shop.example.com": `"shop.example.com."`,
	} {
		if h := otherFormHint(domain); !strings.Contains(h, other) {
			t.Errorf("otherFormHint(%q) = %q, does not name %s", domain, h, other)
		}
	}
}

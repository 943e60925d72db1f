package provider

import (
	"strings"
	"testing"
)

// TestBaseURLProblem_noSchemeFixKeepsNoSchemeInHost: a base_url with a
// mistyped scheme ("https:/host", "http:host") has no "://", so it is
// taken as having no scheme, and the fix proposed puts https:// in front
// of the typo: "https://https:/analytics.example.com", which the rule
// accepts (host "https:") but reaches no installation.
func TestBaseURLProblem_noSchemeFixKeepsNoSchemeInHost(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"https:/analytics.example.com", "http:/analytics.example.com/x"} {
		got := baseURLProblem("base_url", raw)
		if strings.Contains(got, `"https://https:`) || strings.Contains(got, `"https://http:`) {
			t.Errorf("%q: %s", raw, got)
		}
	}
}

package provider

import (
	"regexp"
	"strings"
	"testing"
)

// quotedFix finds the URLs a refusal proposes (quoted, with a scheme).
var quotedFix = regexp.MustCompile(`"(https?://[^"]*)"`)

// TestBaseURLRule_noSchemeQuery: a base_url without scheme is refused
// without repeating its query string or fragment (an access token, say),
// and the fix the refusal proposes is accepted by the same rule.
func TestBaseURLRule_noSchemeQuery(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"analytics.example.com/x?access_token=Tq8vNw3Rk2",
		"analytics.example.com?access_token=Tq8vNw3Rk2",
		"analytics.example.com/a#Tq8vNw3Rk2",
		"//analytics.example.com:8443/a/?Tq8vNw3Rk2",
	} {
		p, _ := baseURLRule.check("base_url", raw)
		if p == "" || !strings.Contains(p, "has no scheme") {
			t.Fatalf("%q: %q", raw, p)
		}
		if strings.Contains(p, "Tq8vNw3Rk2") {
			t.Errorf("%q: the refusal repeats the query or fragment: %s", raw, p)
		}
		fixes := quotedFix.FindAllStringSubmatch(p, -1)
		if len(fixes) == 0 {
			t.Errorf("%q: no fix proposed: %s", raw, p)
		}
		for _, m := range fixes {
			if again, _ := baseURLRule.check("base_url", m[1]); again != "" {
				t.Errorf("%q: the proposed fix %q is refused by the same rule: %s", raw, m[1], again)
			}
		}
	}
}

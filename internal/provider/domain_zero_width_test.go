package provider

import (
	"strings"
	"testing"
)

// Laravel's TrimStrings removes U+200B (zero width space), U+FEFF (the
// byte order mark) and U+180E at a value's ends, as it removes white space: the server
// stores "example.com\u200b" as "example.com", which records pageviews.
// domainProblem checks the ends with unicode.IsSpace, which these are not,
// and so says the server "would store it as written" and that the website
// "would never record a pageview": neither is true. The true reason is the
// white-space one: the server removes it, and the configuration would
// differ from the stored domain.
func TestDomainProblem_zeroWidthAtEndsSaysTheServerRemovesIt(t *testing.T) {
	t.Parallel()
	for in, stored := range map[string]string{
		"example.com\u200b":    "example.com",
		"\ufeffexample.com":    "example.com",
		"bücher.example\u200b": "bücher.example",
		"example.com\u180e":    "example.com", // PCRE's \s takes U+180E; unicode.IsSpace does not
	} {
		if serverRefuses(in) {
			t.Fatalf("the server refuses %q", in)
		}
		p := domainProblem(in)
		if strings.Contains(p, "as written") || strings.Contains(p, "never record a pageview") {
			t.Errorf("%q, which the server stores as %q: %s", in, stored, p)
		}
	}
}

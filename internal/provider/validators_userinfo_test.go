package provider

import (
	"strings"
	"testing"
)

// A URL setting whose password holds a "/", "?" or "#" (so that URL
// parsers read a part of it as the host and port and the rest as the path
// or query) is refused, and the message repeats no part of it; an "@" in
// the path or query of a URL whose authority is a real host is accepted.
func TestURLSettings_refuseHiddenUserInfo(t *testing.T) {
	t.Parallel()
	const pw = "Pw-hidden-91"
	hidden := []string{
		"https://admin:2024/" + pw + "@analytics.example.com",
		"https://admin:2024/" + pw + "@analytics.example.com/",
		"https://admin:/" + pw + "@analytics.example.com",
		"https://admin:2024/" + pw + "@intranet:8080",
		"https://admin.corp:2024/" + pw + "@intranet",
		"https://admin:20/24/" + pw + "@analytics.example.com",
		"https://ad.min:20/24/" + pw + "@analytics.example.com",
		"https://admin:2024?" + pw + "@analytics.example.com/",
		"https://admin:2024#" + pw + "@analytics.example.com",
		"https://token/" + pw + "@analytics.example.com",
		"http://admin:2024/" + pw + "@127.0.0.1:8080",
	}
	for _, rule := range []settingRule{baseURLRule, trackingURLRule, trackingScriptURLRule} {
		for _, in := range hidden {
			p, _ := rule.check(rule.attr, in)
			if p == "" {
				t.Errorf("%s = %q is accepted", rule.attr, in)
				continue
			}
			if strings.Contains(p, pw) || strings.Contains(p, "2024") || strings.Contains(p, "admin") ||
				strings.Contains(p, "token") || !strings.HasPrefix(p, rule.attr) {
				t.Errorf("%s = %q: the message repeats a part of the value, or does not name %s: %s", rule.attr, in,
					rule.attr, p)
			}
		}
	}
	for rule, in := range map[*settingRule]string{
		&trackingScriptURLRule: "https://cdn.jsdelivr.net/npm/analytics@1.2.3/js/script.js",
		&trackingURLRule:       "https://example.com/@analytics",
		&baseURLRule:           "https://example.com/team@2024/analytics",
	} {
		if p, _ := rule.check(rule.attr, in); p != "" {
			t.Errorf("%s = %q (an \"@\" in the path): refused: %s", rule.attr, in, p)
		}
	}
	if p, _ := trackingScriptURLRule.check("tracking_script_url", "https://cdn.example.com/script.js?ref=ops@example.com"); p != "" {
		t.Errorf("an \"@\" in the query of tracking_script_url is refused: %s", p)
	}
	for _, in := range hidden {
		if d, p := canonicalDomainOf(in); p == "" || strings.Contains(p, pw) || strings.Contains(p, "2024") {
			t.Errorf("canonical_domain(%q) = %q, %q: want a refusal that repeats nothing of the value", in, d, p)
		}
	}
	if d, p := canonicalDomainOf("https://www.example.com/@user"); d != "example.com" || p != "" {
		t.Errorf("canonical_domain of a URL with \"@\" in its path: %q, %q", d, p)
	}
}

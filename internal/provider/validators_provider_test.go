package provider

import (
	"net/url"
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

// TestBaseURLProblem_encodedURLNotQuoted: a base URL pasted in its
// percent-encoded form (copied from a login redirect's ?redirect= or a
// proxy's log) has no "://", "@", "?" or "#", so the "has no scheme"
// message quotes it whole: its password and access token included, merely
// escaped. Messages about a URL never repeat its query or user
// information, in any form.
func TestBaseURLProblem_encodedURLNotQuoted(t *testing.T) {
	t.Parallel()
	const password, token = "Pa55w0rdXYZ", "tok3nABCDEF"
	for _, raw := range []string{
		url.QueryEscape("https://user:" + password + "@analytics.example.com/?access_token=" + token),
		"analytics.example.com%3Faccess_token%3D" + token + "%23" + password,
	} {
		for _, r := range []settingRule{baseURLRule, trackingURLRule, trackingScriptURLRule} {
			msg := r.problem(r.attr, raw)
			if msg == "" {
				t.Errorf("%s %q: accepted", r.attr, raw)
				continue
			}
			if strings.Contains(msg, password) || strings.Contains(msg, token) {
				t.Errorf("%s: the message repeats the encoded URL's password or token: %s", r.attr, msg)
			}
		}
	}
}

// TestTrackingScriptURL_fixWithoutQuery: tracking_script_url with
// user credentials gets a fix that repeats the query string whole. When the
// query holds the API key (or a header value), that fix is then refused by
// the known-secret check (holdsSecret), as for base_url;
// and a message about a URL never repeats its query.
func TestTrackingScriptURL_fixWithoutQuery(t *testing.T) {
	t.Parallel()
	const token = "tok3nABCDEF0123456789"
	raw := "https://user:pw@cdn.example.com/js/script.js?access_token=" + token
	msg := trackingScriptURLRule.problem(trackingScriptURLRule.attr, raw)
	if strings.Contains(msg, token) {
		t.Errorf("the fix repeats the query string: %s", msg)
	}
}

// TestBaseURLProblem_fixWithoutHost: "https://user:secret@" (no
// host) is told to remove the credentials "e.g. \"https:\"", a fix the
// same rule refuses. Every fix a message proposes must pass the rule.
func TestBaseURLProblem_fixWithoutHost(t *testing.T) {
	t.Parallel()
	msg := baseURLProblem("base_url", "https://user:s3cretpass@")
	m := regexp.MustCompile(`e\.g\. "([^"]*)"`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("no fix proposed: %s", msg)
	}
	if p := baseURLProblem("base_url", m[1]); p != "" {
		t.Errorf("the proposed fix %q is refused: %s\n(the message: %s)", m[1], p, msg)
	}
}

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

package provider

import (
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// withUserInfo puts user information holding the password before + core +
// after into raw: right after its "://", or in front of it when it has
// none. The password may hold the "/", "?", "#" or "@" that make a URL
// parser end the user information early.
func withUserInfo(raw, before, core, after string) string {
	info := "user:" + before + core + after + "@"
	if scheme, rest, ok := strings.Cut(raw, "://"); ok {
		return scheme + "://" + info + rest
	}
	return info + raw
}

// fuzzURLSetting states what every URL setting of the provider block
// (base_url, tracking_url, tracking_script_url) must do, from the block
// (the validator) and from its environment variable (the configuration
// pass): no panic; a refusal is an error on the attribute that names it,
// or names the variable; with a password the fuzzer draws in the URL,
// wherever a parser would end it, no diagnostic, message or log line holds
// a piece of it in any form (as written: the attribute is not sensitive,
// so only the quote sites keep the password out). accepted adds the
// setting's own round trip for the values it accepts. A URL with user
// information is refused, from the block and from the environment. A fix
// a refusal proposes is accepted by the same rule, and a refusal never
// repeats a query string that the fuzzer's secret is in, nor, when the
// URL is percent-encoded whole, its password or query string.
func fuzzURLSetting(f *testing.F, rule settingRule, accepted func(t *testing.T, v string)) {
	for _, s := range []string{"https://analytics.example.com", "http://127.0.0.1:8080/analytics/", "analytics.example.com",
		"https://example.com/a?b=c#d", "ftp://example.com", "https://", "https://[::1]:443/x", " https://example.com/\n",
		"https://exa mple.com", "https://example.com:port/", "https://%zz", "HTTPS://Example.COM//x/", "mailto:x@example.com",
		"https://example.com/js/script.js?v=1", "//example.com/x", "https://:443/"} {
		f.Add(s, "", "", fuzzSecret)
	}
	f.Add("https://example.com/", "a/", "", fuzzSecret)
	f.Add("https://example.com/", "", "?x", fuzzSecret)
	f.Add("example.com", "", "#", fuzzSecret)
	f.Add("ftp://example.com", "1/", "", fuzzSecret)
	f.Add("https://analytics.example.com", "2024/", "", `P+w="\<&x y`)
	// A "/", "?" or "#" in the password: URL parsers see no user information.
	f.Add("https://analytics.example.com", "2024/", "", "Pw0rdSecret")
	f.Add("http://", "#", "", "0")
	f.Add("https://cdn.example.com/js/script.js", "", "?v=1", "Pw0rdSecret")
	f.Add("https%3A%2F%2Fanalytics.example.com", "", "", "Pw0rdSecret")
	at := path.Root(rule.attr)
	f.Fuzz(func(t *testing.T, raw, before, after, core string) {
		diags := validateString(rule.validator(), at, raw)
		checkRefusals(t, diags, at, raw)
		env := "The " + rule.env + " environment variable"
		if p, _ := rule.check(env, raw); p != "" && !strings.Contains(p, rule.env) {
			t.Errorf("%q from the environment: the message does not name %s: %s", raw, rule.env, p)
		} else if p == "" && strings.TrimSpace(raw) != "" {
			if diags.HasError() {
				t.Errorf("%q: accepted from the environment, refused in the block", raw)
			}
			accepted(t, strings.TrimSpace(raw))
		}
		// A fix that a refusal proposes is accepted by the same rule.
		refusal, _ := rule.check(env, raw)
		for _, m := range proposedFix.FindAllStringSubmatch(refusal, -1) {
			fix, err := strconv.Unquote(m[1])
			if err != nil {
				t.Fatalf("%q: %v", m[1], err)
			}
			if again, _ := rule.check(rule.attr, fix); again != "" {
				t.Errorf("%q: the proposed fix %q is refused by the same rule: %s", raw, fix, again)
			}
		}
		// A refusal never repeats a query string (an access token, say).
		if !strings.ContainsAny(raw, "?#@") {
			q := strings.TrimSpace(raw) + "?access_token=" + before + core + after
			d, logs := validateStringLogged(rule.validator(), at, q)
			if p, _ := rule.check(env, q); p != "" || d.HasError() {
				secretCheck{secret: before + core + after, clean: []string{raw, rule.env}}.check(t, q, d, logs, p)
			}
		}
		secret := withUserInfo(raw, before, core, after)
		d, logs := validateStringLogged(rule.validator(), at, secret)
		p, _ := rule.check(env, secret)
		secretCheck{secret: before + core + after, clean: []string{raw, rule.env}}.check(t, secret, d, logs, p)
		checkRefusals(t, d, at, secret)
		// Percent-encoded whole (pasted from a redirect's ?redirect=), the
		// password and the query string are not repeated either.
		for _, enc := range []string{url.QueryEscape(secret), url.QueryEscape(strings.TrimSpace(raw) + "?access_token=" + before + core + after)} {
			d, logs := validateStringLogged(rule.validator(), at, enc)
			if p, _ := rule.check(env, enc); p != "" || d.HasError() {
				secretCheck{secret: before + core + after, clean: []string{raw, rule.env}}.check(t, enc, d, logs, p)
			}
		}
		// User information is never accepted, wherever a URL parser would
		// end it: accepted, the password would be in the plan (tracking_code
		// is not sensitive) and in every request's URL.
		if !d.HasError() || p == "" {
			t.Errorf("%q: a URL with user information is accepted (from the block: %v, from the environment: %v)",
				secret, !d.HasError(), p == "")
		}
	})
}

// proposedFix finds the URLs a refusal proposes as its fix.
var proposedFix = regexp.MustCompile(`(?:e\.g\.|Use) ("https?://(?:[^"\\]|\\.)*")`)

// FuzzBaseURL: base_url (baseURLRule). What it accepts, the client takes
// (client.ParseBaseURL), and the API root it derives is a fixed point: the
// base URL it prints gives the same root again.
func FuzzBaseURL(f *testing.F) {
	fuzzURLSetting(f, baseURLRule, func(t *testing.T, v string) {
		u, err := client.ParseBaseURL(v)
		if err != nil {
			t.Fatalf("base_url %q is accepted, but the client refuses it: %v", v, err)
		}
		again, err := client.ParseBaseURL(u.String())
		if err != nil || again.String() != u.String() {
			t.Errorf("base_url %q: the API root %q does not round-trip: %v, %v", v, u, again, err)
		}
	})
}

// trackingAttr reads the value of a tracking code's attribute (data-host,
// src), unescaped.
var trackingAttr = regexp.MustCompile(`(data-host|src)="([^"]*)"`)

func trackingAttrs(code string) map[string]string {
	out := map[string]string{}
	for _, m := range trackingAttr.FindAllStringSubmatch(code, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// FuzzTrackingURL: tracking_url (trackingURLRule). The accepted value,
// without its trailing slashes as the configuration pass keeps it, is
// accepted again (a fixed point) and is what the tracking code's data-host
// says, and the script's address is that value followed by /js/script.js.
func FuzzTrackingURL(f *testing.F) {
	fuzzURLSetting(f, trackingURLRule, func(t *testing.T, v string) {
		public := strings.TrimRight(v, "/")
		if p, _ := trackingURLRule.check("tracking_url", public); p != "" {
			t.Fatalf("tracking_url %q is accepted, but not as the provider keeps it, %q: %s", v, public, p)
		}
		got := trackingAttrs(trackingCode(public, "", false))
		if got["data-host"] != public || got["src"] != public+"/js/script.js" {
			t.Errorf("tracking_url %q: the tracking code says %v", v, got)
		}
	})
}

// FuzzTrackingScriptURL: tracking_script_url (trackingScriptURLRule). The
// accepted value is the tracking code's src, as it is.
func FuzzTrackingScriptURL(f *testing.F) {
	fuzzURLSetting(f, trackingScriptURLRule, func(t *testing.T, v string) {
		if got := trackingAttrs(trackingCode("https://analytics.example.com", v, false)); got["src"] != v {
			t.Errorf("tracking_script_url %q: the tracking code's src is %q", v, got["src"])
		}
	})
}

// FuzzAPIKey: api_key (apiKeyRule), from the block or the environment, the
// key drawn by the fuzzer (before, core and after): no diagnostic (after
// the gate: api_key is sensitive), no log line and no message about the
// environment variable (as written) holds a piece of the key in any form;
// a refusal names the setting.
func FuzzAPIKey(f *testing.F) {
	for _, s := range []string{"", "abc", " \n", "key\n", "k e y", "\x00", "\u2028"} {
		f.Add(s, "", fuzzSecret)
	}
	f.Add(" ", "\n", `k/+="\<&?# y`)
	f.Fuzz(func(t *testing.T, before, after, core string) {
		key := before + core + after
		diags, logs := validateStringLogged(apiKeyRule.validator(), path.Root("api_key"), key)
		secretCheck{secret: key, registered: true}.check(t, key, diags, logs)
		checkRefusals(t, diags, path.Root("api_key"), key)
		p, _ := apiKeyRule.check("The "+EnvAPIKey+" environment variable", key)
		secretCheck{secret: key, clean: []string{EnvAPIKey}}.check(t, key, nil, "", p)
	})
}

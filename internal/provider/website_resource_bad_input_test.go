package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// The catalog of bad input: every attribute's invalid values, each with
// the error it must get at plan time. The table runs through the provider's
// protocol server (TestBadInputCatalog, fast, no Terraform), and the cases
// where the CLI matters, or where the provider could reach an API, through
// the real CLI as PlanOnly steps (TestAccBadInputCatalog), which also
// proves that no case sends an API request.

// Kinds of configuration a catalog case is about.
const (
	kindResource   = ""           // analytics_website resource (domain defaults to example.com)
	kindProvider   = "provider"   // the provider block (plus a valid resource)
	kindDataSource = "data"       // data "analytics_website"
	kindDataList   = "websites"   // data "analytics_websites"
	kindDataStats  = "statistics" // data "analytics_website_statistics"

	catalogWO = "password_wo"
)

type badInput struct {
	name string
	kind string
	// attrs are the configured attributes: string, bool, int, []string,
	// []any (elements may be nil), map[string]string (a nested block) or
	// nil (null). Resource cases get
	// domain = "example.com" unless they set domain.
	attrs map[string]any
	// env sets ANALYTICS_BASE_URL / ANALYTICS_API_KEY for provider cases;
	// unlisted ones are unset.
	env map[string]string
	// want is the error (acctest.ExpectError pattern: a space matches any white space).
	want string
	// attr is the attribute the error is attached to.
	attr string
	// cliOnly marks cases that only Terraform can produce (type conversion).
	cliOnly bool
	// notIn are strings the provider's diagnostics must not repeat (secrets).
	notIn []string
}

// dependsOnCLI reports whether c's outcome depends on the CLI that plans
// it: a write-only attribute (Terraform 1.11 sends it as such), an error
// only the CLI produces (cliOnly), or the first case of its kind, which
// shows how the CLI shows that kind's diagnostics. shown holds the kinds
// already shown; dependsOnCLI adds c's.
func (c badInput) dependsOnCLI(shown map[string]bool) bool {
	_, writeOnly := c.attrs[catalogWO]
	_, writeOnlyVersion := c.attrs[catalogWO+"_version"]
	first := !shown[c.kind]
	shown[c.kind] = true
	return writeOnly || writeOnlyVersion || c.cliOnly || first
}

func longDomain(n int) string {
	// labels of 63 characters and a last shorter one, then ".com"
	var labels []string
	rest := n - len(".com")
	for rest > 0 {
		l := min(63, rest)
		if rest-l == 1 { // leave room for a one-character label, not an empty one
			l--
		}
		labels = append(labels, strings.Repeat(string(rune('a'+len(labels))), l))
		rest -= l + 1
	}
	return strings.Join(labels, ".") + ".com"
}

func badInputCatalog() []badInput {
	pw := func(extra map[string]any) map[string]any {
		m := map[string]any{"privacy": "password"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return []badInput{
		// domain
		{name: "domain empty", attrs: map[string]any{"domain": ""}, want: `Invalid Domain.*must not be empty.*e.g. "example.com"`, attr: "domain"},
		{name: "domain blank", attrs: map[string]any{"domain": "   "}, want: `The domain is only white space`, attr: "domain"},
		{name: "domain leading space", attrs: map[string]any{"domain": " example.com"}, want: `has white space or a line break at its ends, which the server removes. Set domain = "example.com"`, attr: "domain"},
		{name: "domain inner space", attrs: map[string]any{"domain": "exam ple.com"}, want: `contains white space.*which no host name has.*server would store it as written.*browser sends only the page's host name.*never record a pageview.*Set domain = "example.com"`, attr: "domain"},
		{name: "domain newline", attrs: map[string]any{"domain": "example.com\n"}, want: `white space or a line break at its ends, which the server removes`, attr: "domain"},
		{name: "domain inner newline", attrs: map[string]any{"domain": "exam\nple.com"}, want: `line break, which no host name has. The server refuses it \("Invalid domain name."\)`, attr: "domain"},
		{name: "domain 256 characters", attrs: map[string]any{"domain": longDomain(256)}, want: `is 256 characters long; the server accepts at most 255`, attr: "domain"},
		{name: "domain 259 characters", attrs: map[string]any{"domain": longDomain(259)}, want: `is 259 characters long`, attr: "domain"},
		{name: "domain path", attrs: map[string]any{"domain": "example.com/blog"}, want: `contains a path or query \("/blog"\), which the server does not remove. The server refuses it \("Invalid domain name."\). Set domain = "example.com"`, attr: "domain"},
		{name: "domain path with a dot", attrs: map[string]any{"domain": "example.com/a.html"}, want: `contains a path or query.*server would store it as written.*never record a pageview.*Set domain = "example.com"`, attr: "domain"},
		{name: "domain URL with path", attrs: map[string]any{"domain": "https://example.com/blog"}, want: `contains a path or query.*"example.com"`, attr: "domain"},
		{name: "domain query", attrs: map[string]any{"domain": "example.com?utm=1"}, want: `contains a path or query`, attr: "domain"},
		{name: "domain fragment", attrs: map[string]any{"domain": "example.com#top"}, want: `contains a path or query`, attr: "domain"},
		{name: "domain port", attrs: map[string]any{"domain": "example.com:8080"}, want: `contains a port \("8080"\).*Set "example.com"`, attr: "domain"},
		{name: "domain URL with port", attrs: map[string]any{"domain": "https://example.com:443"}, want: `contains a port`, attr: "domain"},
		{name: "domain IDN", attrs: map[string]any{"domain": "münchen.de"}, want: `Domain Records No Pageviews.*This plan creates a website.*"münchen.de" is in Unicode. The server stores it as written, but a browser sends a page's host in ASCII \(punycode\).*"xn--mnchen-3ya.de".*matches it against the stored domain literally.*records no pageview.*Set domain = "xn--mnchen-3ya.de".*already has this domain can be imported`, attr: "domain"},
		{name: "domain IDN upper case", attrs: map[string]any{"domain": "MÜNCHEN.DE"}, want: `Invalid Domain.*The domain "münchen.de" is in Unicode.*Set domain = "xn--mnchen-3ya.de"`, attr: "domain"},
		{name: "domain IDN Japanese", attrs: map[string]any{"domain": "例え.jp"}, want: `Domain Records No Pageviews.*punycode.*"xn--r8jz45g.jp"`, attr: "domain"},
		{name: "domain scheme and www", attrs: map[string]any{"domain": "https://www.Example.com"}, want: `stores the domain "https://www.Example.com" as "example.com".*Set domain = "example.com"`, attr: "domain"},
		{name: "domain www", attrs: map[string]any{"domain": "WWW.example.com"}, want: `Set domain = "example.com"`, attr: "domain"},
		{name: "domain upper case", attrs: map[string]any{"domain": "Example.COM"}, want: `lower-cases domains.*Set domain = "example.com"`, attr: "domain"},
		{name: "domain other scheme", attrs: map[string]any{"domain": "ftp://example.com"}, want: `URL scheme "ftp://".*Set domain = "example.com"`, attr: "domain"},
		{name: "domain scheme only", attrs: map[string]any{"domain": "https://"}, want: `is empty once the server removes the scheme`, attr: "domain"},
		{name: "domain credentials", attrs: map[string]any{"domain": "user:hunter2@example.com"}, want: `user information.*Set domain = "example.com"`, attr: "domain", notIn: []string{"hunter2"}},
		{name: "domain IPv6", attrs: map[string]any{"domain": "2001:db8::1"}, want: `is an IPv6 address.*only host names and IPv4`, attr: "domain"},
		{name: "domain IPv6 with port", attrs: map[string]any{"domain": "[2001:db8::1]:8080"}, want: `is an IPv6 address`, attr: "domain"},
		{name: "domain trailing dot", attrs: map[string]any{"domain": "example.com."}, want: `Domain Records No Pageviews.*This plan creates a website.*"example.com." ends with a dot. The server stores it as written.*without a trailing dot, here "example.com".*Set domain = "example.com"`, attr: "domain"},
		{name: "domain two trailing dots", attrs: map[string]any{"domain": "example.com.."}, want: `Invalid Domain.*The domain "example.com.." ends with dots. The server refuses it \("Invalid domain name."\). Set domain = "example.com"`, attr: "domain"},
		{name: "domain user information stored", attrs: map[string]any{"domain": "user@example.com"}, want: `user information.*not part of a host name. The server would store it as written.*never record a pageview.*Set domain = "example.com"`, attr: "domain"},
		{name: "domain other scheme stored", attrs: map[string]any{"domain": "ftp://example.com"}, want: `URL scheme "ftp://", which the server does not remove.*server would store it as written.*never record a pageview`, attr: "domain"},
		{name: "domain single label", attrs: map[string]any{"domain": "localhost"}, want: `not a valid host name. The server refuses it \("Invalid domain name."\).*"www2.example.com"`, attr: "domain"},
		{name: "domain leading hyphen", attrs: map[string]any{"domain": "-bad.example.com"}, want: `Domain Is Not a Host Name.*This plan creates a website.*"-bad.example.com" is not a valid host name.*can likely not be reached, though the server stores it as written.*e.g. domain = "bad.example.com"`, attr: "domain"},
		{name: "domain underscore", attrs: map[string]any{"domain": "exa_mple.com"}, want: `Domain Is Not a Host Name.*"exa_mple.com" is not a valid host name.*can likely not be reached, though the server stores it as written.*e.g. domain = "exa-mple.com"`, attr: "domain"},
		{name: "domain numeric TLD", attrs: map[string]any{"domain": "example.123"}, want: `not a valid host name. The server refuses it`, attr: "domain"},
		{name: "domain bad IPv4", attrs: map[string]any{"domain": "192.0.2.999"}, want: `not a valid host name.*or an IPv4 address`, attr: "domain"},
		{name: "domain empty label", attrs: map[string]any{"domain": "a..example.com"}, want: `not a valid host name`, attr: "domain"},
		{name: "domain label over 63", attrs: map[string]any{"domain": strings.Repeat("x", 64) + ".com"}, want: `at most 63 characters each`, attr: "domain"},

		// privacy
		{name: "privacy empty", attrs: map[string]any{"privacy": ""}, want: `privacy value must be one of: \["public" "private" "password"\]`, attr: "privacy"},
		{name: "privacy capitalised", attrs: map[string]any{"privacy": "Password"}, want: `privacy value must be one of`, attr: "privacy"},
		{name: "privacy unknown name", attrs: map[string]any{"privacy": "secret"}, want: `privacy value must be one of.*got: "secret"`, attr: "privacy"},
		{name: "privacy number", attrs: map[string]any{"privacy": "2"}, want: `privacy value must be one of`, attr: "privacy"},

		// password and password_wo, alone and in combination with privacy
		{name: "password missing", attrs: pw(nil), want: `Missing Password.*A new website with privacy = "password".*"password" or "password_wo" must be set`, attr: "password"},
		{name: "password with public privacy", attrs: map[string]any{"password": "s3cret-pass"}, want: `Password Without Password Privacy.*privacy is "public".*remove password`, attr: "password"},
		{name: "password with private privacy", attrs: map[string]any{"privacy": "private", "password": "s3cret-pass"}, want: `Password Without Password Privacy.*privacy is "private"`, attr: "password"},
		{name: "password empty", attrs: pw(map[string]any{"password": ""}), want: `Invalid Password.*The password is empty or only white space`, attr: "password"},
		{name: "password blank", attrs: pw(map[string]any{"password": "   "}), want: `empty or only white space`, attr: "password"},
		{name: "password zero", attrs: pw(map[string]any{"password": "0"}), want: `Invalid Password.*The password "0" is stored, but the server treats it as no password.*Choose another password`, attr: "password"},
		{name: "password_wo zero", attrs: pw(map[string]any{catalogWO: "0", "password_wo_version": 1}), want: `The password_wo "0" is stored, but the server treats it as no password`, attr: catalogWO},
		{name: "password tab and newline", attrs: pw(map[string]any{"password": "\t\n"}), want: `empty or only white space`, attr: "password"},
		{name: "password 129 characters", attrs: pw(map[string]any{"password": strings.Repeat("p", 129)}), want: `password is 129 characters long; the server accepts at most 128`, attr: "password"},
		{name: "password 129 non-ASCII characters", attrs: pw(map[string]any{"password": strings.Repeat("é", 129)}), want: `129 characters long`, attr: "password"},
		{name: "password and password_wo", attrs: pw(map[string]any{"password": "s3cret-pass", catalogWO: "s3cret-pass", "password_wo_version": 1}), want: `Invalid Attribute Combination.*Attribute "password" cannot be specified when "password_wo" is specified`, attr: catalogWO},
		{name: "password_wo without version", attrs: pw(map[string]any{catalogWO: "s3cret-pass"}), want: `Attribute "password_wo_version" must be specified when "password_wo" is specified`, attr: catalogWO},
		{name: "password_wo_version without password_wo", attrs: pw(map[string]any{"password": "s3cret-pass", "password_wo_version": 1}), want: `Attribute "password_wo" must be specified when "password_wo_version" is specified`, attr: "password_wo_version"},
		{name: "password_wo with public privacy", attrs: map[string]any{catalogWO: "s3cret-pass", "password_wo_version": 1}, want: `Password Without Password Privacy.*privacy is "public".*remove password_wo`, attr: catalogWO},
		{name: "password_wo empty", attrs: pw(map[string]any{catalogWO: "", "password_wo_version": 1}), want: `The password_wo is empty or only white space`, attr: catalogWO},
		{name: "password_wo 129 characters", attrs: pw(map[string]any{catalogWO: strings.Repeat("w", 129), "password_wo_version": 1}), want: `password_wo is 129 characters long`, attr: catalogWO},

		// booleans: Terraform's own type conversion
		{name: "email_reports not a bool", attrs: map[string]any{"email_reports": "yes"}, want: `Inappropriate value for attribute "email_reports": a bool is required`, cliOnly: true},
		{name: "exclude_bots not a bool", attrs: map[string]any{"exclude_bots": "maybe"}, want: `Inappropriate value for attribute "exclude_bots": a bool is required`, cliOnly: true},

		// exclude_ips
		{name: "exclude_ips empty entry", attrs: map[string]any{"exclude_ips": []string{""}}, want: `Invalid IP Exclusion.*In exclude_ips, an entry is empty; remove it`, attr: "exclude_ips"},
		{name: "exclude_ips null entry", attrs: map[string]any{"exclude_ips": []any{nil, "10.0.0.1"}}, want: `In exclude_ips, an entry is null; remove it`, attr: "exclude_ips"},
		{name: "exclude_ips white space", attrs: map[string]any{"exclude_ips": []string{" 10.0.0.1"}}, want: `In exclude_ips, " 10.0.0.1" contains white space`, attr: "exclude_ips"},
		{name: "exclude_ips two per line", attrs: map[string]any{"exclude_ips": []string{"10.0.0.1\n10.0.0.2"}}, want: `white space or a line break; give one address or range per entry`, attr: "exclude_ips"},
		{name: "exclude_ips bad IPv4", attrs: map[string]any{"exclude_ips": []string{"10.0.0.300"}}, want: `"10.0.0.300" is not an IPv4 or IPv6 address or CIDR range.*never match it`, attr: "exclude_ips"},
		{name: "exclude_ips leading zero", attrs: map[string]any{"exclude_ips": []string{"010.0.0.1"}}, want: `"010.0.0.1" is not an IPv4 or IPv6 address`, attr: "exclude_ips"},
		{name: "exclude_ips bad CIDR", attrs: map[string]any{"exclude_ips": []string{"10.0.0.0/33"}}, want: `"10.0.0.0/33" is not a valid CIDR range`, attr: "exclude_ips"},
		{name: "exclude_ips bad IPv6 CIDR", attrs: map[string]any{"exclude_ips": []string{"2001:db8::/129"}}, want: `is not a valid CIDR range`, attr: "exclude_ips"},
		{name: "exclude_ips zone", attrs: map[string]any{"exclude_ips": []string{"fe80::1%eth0"}}, want: `"fe80::1%eth0" is not an IPv4 or IPv6 address`, attr: "exclude_ips"},
		{name: "exclude_ips host name", attrs: map[string]any{"exclude_ips": []string{"example.com"}}, want: `"example.com" is not an IPv4 or IPv6 address`, attr: "exclude_ips"},
		{name: "exclude_ips range", attrs: map[string]any{"exclude_ips": []string{"10.0.0.1-10.0.0.9"}}, want: `is not an IPv4 or IPv6 address or CIDR range`, attr: "exclude_ips"},
		{name: "exclude_ips duplicate IPv6", attrs: map[string]any{"exclude_ips": []string{"2001:db8::1", "2001:DB8:0::1"}}, want: `Duplicate IP Exclusion.*denote the same address or range \(2001:db8::1\); keep only one`, attr: "exclude_ips"},
		{name: "exclude_ips duplicate CIDR", attrs: map[string]any{"exclude_ips": []string{"10.0.0.0/8", "10.1.2.3/8"}}, want: `Duplicate IP Exclusion.*\(10.0.0.0/8\)`, attr: "exclude_ips"},

		// exclude_params
		{name: "exclude_params empty entry", attrs: map[string]any{"exclude_params": []string{""}}, want: `Invalid Query Parameter Exclusion.*In exclude_params, an entry is empty`, attr: "exclude_params"},
		{name: "exclude_params null entry", attrs: map[string]any{"exclude_params": []any{nil}}, want: `In exclude_params, an entry is null`, attr: "exclude_params"},
		{name: "exclude_params space", attrs: map[string]any{"exclude_params": []string{"utm source"}}, want: `"utm source" contains white space or a line break`, attr: "exclude_params"},
		{name: "exclude_params newline", attrs: map[string]any{"exclude_params": []string{"utm_source\nfbclid"}}, want: `give one parameter name per entry`, attr: "exclude_params"},
		{name: "exclude_params tab", attrs: map[string]any{"exclude_params": []string{"utm_source\t"}}, want: `contains white space`, attr: "exclude_params"},
		{name: "exclude_params zero-width space at an end", attrs: map[string]any{"exclude_params": []string{"utm_source\u200b"}}, want: `"utm_source\\u200b" begins or ends with an invisible character that the server trims.*remove that character`, attr: "exclude_params"},
		{name: "exclude_params assignment", attrs: map[string]any{"exclude_params": []string{"a=b"}}, want: `"a=b" is not a bare query parameter name.*e.g. "utm_source"`, attr: "exclude_params"},
		{name: "exclude_params question mark", attrs: map[string]any{"exclude_params": []string{"?utm_source"}}, want: `not a bare query parameter name`, attr: "exclude_params"},
		{name: "exclude_params all and more", attrs: map[string]any{"exclude_params": []string{"&", "utm_source"}}, want: `Conflicting Query Parameter Exclusions.*"&" already excludes every query parameter`, attr: "exclude_params"},

		// timeouts block
		{name: "timeouts create not a duration", attrs: map[string]any{"timeouts": map[string]string{"create": "abc"}}, want: `"abc" must be a string containing a sequence of decimal numbers`, attr: "timeouts"},
		{name: "timeouts create negative", attrs: map[string]any{"timeouts": map[string]string{"create": "-5m"}}, want: `Invalid Timeout.*timeouts.create = "-5m" is not a positive duration`, attr: "timeouts"},
		{name: "timeouts read zero", attrs: map[string]any{"timeouts": map[string]string{"read": "0s"}}, want: `timeouts.read = "0s" is not a positive duration`, attr: "timeouts"},

		// data "analytics_website"
		{name: "data id letters", kind: kindDataSource, attrs: map[string]any{"id": "abc"}, want: `Invalid Website ID.*id = "abc" is not a website id.*set domain instead`, attr: "id"},
		{name: "data id zero", kind: kindDataSource, attrs: map[string]any{"id": "0"}, want: `id = "0" is not a website id`, attr: "id"},
		{name: "data id negative", kind: kindDataSource, attrs: map[string]any{"id": "-1"}, want: `id = "-1" is not a website id`, attr: "id"},
		{name: "data id with space", kind: kindDataSource, attrs: map[string]any{"id": " 12"}, want: `id = " 12" is not a website id`, attr: "id"},
		{name: "data id decimal", kind: kindDataSource, attrs: map[string]any{"id": "1.5"}, want: `is not a website id`, attr: "id"},
		{name: "data id empty", kind: kindDataSource, attrs: map[string]any{"id": ""}, want: `id = "" is not a website id`, attr: "id"},
		{name: "data id and domain", kind: kindDataSource, attrs: map[string]any{"id": "12", "domain": "example.com"}, want: `Invalid Attribute Combination.*2 attributes specified when one \(and only one\) of \[id,domain\] is required`, attr: "id"},
		{name: "data neither id nor domain", kind: kindDataSource, attrs: map[string]any{}, want: `Invalid Attribute Combination.*No attribute specified when one \(and only one\) of \[id,domain\] is required`},
		{name: "data domain not canonical", kind: kindDataSource, attrs: map[string]any{"domain": "https://www.example.com"}, want: `Set domain = "example.com"`, attr: "domain"},
		{name: "data domain empty", kind: kindDataSource, attrs: map[string]any{"domain": ""}, want: `must not be empty`, attr: "domain"},

		// data "analytics_websites"
		{name: "websites search empty", kind: kindDataList, attrs: map[string]any{"search": ""}, want: `search string length must be at least 1`, attr: "search"},
		{name: "websites sort_by", kind: kindDataList, attrs: map[string]any{"sort_by": "name"}, want: `sort_by value must be one of: \["id" "domain"\]`, attr: "sort_by"},
		{name: "websites sort", kind: kindDataList, attrs: map[string]any{"sort": "up"}, want: `sort value must be one of: \["asc" "desc"\]`, attr: "sort"},

		// data "analytics_website_statistics"
		{name: "statistics neither website_id nor domain", kind: kindDataStats, attrs: map[string]any{"days": 2}, want: `Invalid Attribute Combination.*No attribute specified when one \(and only one\) of \[website_id,domain\] is required`},
		{name: "statistics website_id letters", kind: kindDataStats, attrs: map[string]any{"website_id": "abc"}, want: `Invalid Website ID.*website_id = "abc" is not a website id`, attr: "website_id"},
		{name: "statistics domain not canonical", kind: kindDataStats, attrs: map[string]any{"domain": "WWW.example.com"}, want: `Set domain = "example.com"`, attr: "domain"},
		{name: "statistics from not a date", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "from": "2025-1-5", "to": "2025-01-31"}, want: `Invalid Date.*from = "2025-1-5" is not a date written YYYY-MM-DD, e.g. "2025-01-31"`, attr: "from"},
		{name: "statistics to a day that does not exist", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "from": "2025-02-01", "to": "2025-02-30"}, want: `to = "2025-02-30" is not a date written YYYY-MM-DD`, attr: "to"},
		{name: "statistics to with a time", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "from": "2025-02-01", "to": "2025-02-03T00:00:00Z"}, want: `is not a date written YYYY-MM-DD`, attr: "to"},
		{name: "statistics from after to", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "from": "2025-02-01", "to": "2025-01-31"}, want: `Invalid Date Range.*from = "2025-02-01" comes after to = "2025-01-31".*Swap them, or set days`, attr: "to"},
		{name: "statistics range too long", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "from": "2000-01-01", "to": "2025-01-01"}, want: `Date Range Too Long.*spans 9133 days; the data source reads at most 3660`, attr: "to"},
		{name: "statistics from without to", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "from": "2025-01-01"}, want: `Attribute "to" must be specified when "from" is specified`, attr: "from"},
		{name: "statistics days and from/to", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "days": 7, "from": "2025-01-01", "to": "2025-01-07"}, want: `Attribute "from" cannot be specified when "days" is specified`, attr: "days"},
		{name: "statistics days zero", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "days": 0}, want: `days value must be between 1 and 3660, got: 0`, attr: "days"},
		{name: "statistics days too many", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "days": 3661}, want: `days value must be between 1 and 3660, got: 3661`, attr: "days"},
		{name: "statistics dimension pageviews", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "dimension": "pageviews"}, want: `dimension value must be one of: \["browser" "os" "device" "country" "city" "page"`, attr: "dimension"},
		{name: "statistics dimension unknown", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "dimension": "pages"}, want: `dimension value must be one of.*got: "pages"`, attr: "dimension"},
		{name: "statistics limit 101", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "dimension": "page", "limit": 101}, want: `limit value must be between 1 and 100, got: 101`, attr: "limit"},
		{name: "statistics limit without dimension", kind: kindDataStats, attrs: map[string]any{"website_id": "1", "limit": 5}, want: `Attribute "dimension" must be specified when "limit" is specified`, attr: "limit"},

		// provider block
		{name: "base_url without scheme", kind: kindProvider, attrs: map[string]any{"base_url": "analytics.example.com", "api_key": "k"}, want: `Invalid Analytics Base URL.*base_url "analytics.example.com" has no scheme.*e.g. "https://analytics.example.com"`, attr: "base_url"},
		{name: "base_url with credentials", kind: kindProvider, attrs: map[string]any{"base_url": "https://admin:hunter2@analytics.example.com", "api_key": "k"}, want: `base_url contains user credentials.*remove them, e.g. "https://analytics.example.com", and set api_key`, attr: "base_url", notIn: []string{"hunter2"}},
		{name: "base_url credentials without scheme", kind: kindProvider, attrs: map[string]any{"base_url": "admin:hunter2@analytics.example.com", "api_key": "k"}, want: `base_url has no scheme and contains user information`, attr: "base_url", notIn: []string{"hunter2"}},
		{name: "base_url with query", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com/?api_token=tok123", "api_key": "k"}, want: `base_url must not contain a query string.*never in the URL. Use "https://analytics.example.com/"`, attr: "base_url", notIn: []string{"tok123"}},
		{name: "base_url with fragment", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com/stats#x", "api_key": "k"}, want: `must not contain a query string or fragment.*"https://analytics.example.com/stats"`, attr: "base_url"},
		{name: "base_url other scheme", kind: kindProvider, attrs: map[string]any{"base_url": "ftp://analytics.example.com", "api_key": "k"}, want: `base_url uses the scheme "ftp://".*"https://analytics.example.com"`, attr: "base_url"},
		{name: "base_url empty", kind: kindProvider, attrs: map[string]any{"base_url": "", "api_key": "k"}, want: `base_url is empty. Set it to the URL of the analytics installation`, attr: "base_url"},
		{name: "base_url blank", kind: kindProvider, attrs: map[string]any{"base_url": "  ", "api_key": "k"}, want: `base_url is empty`, attr: "base_url"},
		{name: "base_url white space", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com /x", "api_key": "k"}, want: `base_url contains white space`, attr: "base_url"},
		{name: "base_url no host", kind: kindProvider, attrs: map[string]any{"base_url": "https://", "api_key": "k"}, want: `base_url "https:" has no host name`, attr: "base_url"},
		{name: "base_url bad port", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com:port", "api_key": "k"}, want: `base_url is not a valid URL.*port is a number`, attr: "base_url"},
		{name: "timeout abc", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com", "api_key": "k", "timeout": "abc"}, want: `Invalid Duration.*timeout = "abc" is not a positive duration.*"30s"`, attr: "timeout"},
		{name: "timeout without unit", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com", "api_key": "k", "timeout": "30"}, want: `timeout = "30" is not a positive duration`, attr: "timeout"},
		{name: "timeout zero", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com", "api_key": "k", "timeout": "0s"}, want: `timeout = "0s" is not a positive duration`, attr: "timeout"},
		{name: "timeout negative", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com", "api_key": "k", "timeout": "-5s"}, want: `timeout = "-5s" is not a positive duration`, attr: "timeout"},
		{name: "api_key empty", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com", "api_key": ""}, want: `Invalid Analytics API Key.*api_key is empty.*Account > API`, attr: "api_key"},
		{name: "api_key trailing newline", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com", "api_key": "k3y-from-file\n"}, want: `api_key contains white space or a line break.*trimspace\(file\("..."\)\)`, attr: "api_key", notIn: []string{"k3y-from-file"}},
		{name: "base_url and api_key missing", kind: kindProvider, attrs: map[string]any{}, want: `Missing Analytics Base URL.*"base_url" attribute.*ANALYTICS_BASE_URL environment variable.*Missing Analytics API Key.*"api_key" attribute.*ANALYTICS_API_KEY environment variable`, attr: "base_url"},
		{name: "base_url missing", kind: kindProvider, attrs: map[string]any{"api_key": "k"}, want: `Missing Analytics Base URL.*Set the "base_url" attribute in the provider block or the ANALYTICS_BASE_URL environment variable`, attr: "base_url"},
		{name: "api_key missing", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com"}, want: `Missing Analytics API Key.*Set the "api_key" attribute in the provider block or the ANALYTICS_API_KEY environment variable`, attr: "api_key"},
		{name: "base_url from environment without scheme", kind: kindProvider, attrs: map[string]any{"api_key": "k"}, env: map[string]string{EnvBaseURL: "analytics.example.com"}, want: `The ANALYTICS_BASE_URL environment variable "analytics.example.com" has no scheme`, attr: "base_url"},
		{name: "api_key from environment with white space", kind: kindProvider, attrs: map[string]any{"base_url": "https://analytics.example.com"}, env: map[string]string{EnvAPIKey: "env-k3y \n"}, want: `The ANALYTICS_API_KEY environment variable contains white space or a line break`, attr: "api_key", notIn: []string{"env-k3y"}},
	}
}

// validInputs are edge values that must pass, so that the catalog's
// validators are not simply refusing everything.
func validInputs() []badInput {
	return []badInput{
		{name: "punycode domain", attrs: map[string]any{"domain": "xn--mnchen-3ya.de"}},
		{name: "IPv4 domain", attrs: map[string]any{"domain": "192.0.2.10"}},
		{name: "255 characters domain", attrs: map[string]any{"domain": longDomain(255)}},
		{name: "password 128 characters", attrs: map[string]any{"privacy": "password", "password": strings.Repeat("é", 128)}},
		{name: "password 00", attrs: map[string]any{"privacy": "password", "password": "00"}},
		{name: "password_wo", attrs: map[string]any{"privacy": "password", catalogWO: "s3cret-pass", "password_wo_version": 3}},
		{name: "exclusions", attrs: map[string]any{
			"exclude_ips":    []string{"203.0.113.7", "10.0.0.0/8", "2001:db8::/32", "2001:db8::1"},
			"exclude_params": []string{"utm_source", "fbclid", "ids[]"},
		}},
		{name: "exclude every parameter", attrs: map[string]any{"exclude_params": []string{"&"}}},
		{name: "data by id", kind: kindDataSource, attrs: map[string]any{"id": "12"}},
		{name: "statistics by id, default window", kind: kindDataStats, attrs: map[string]any{"website_id": "12"}},
		{name: "statistics one day", kind: kindDataStats, attrs: map[string]any{"website_id": "12", "from": "2024-02-29", "to": "2024-02-29"}},
		{name: "statistics longest range", kind: kindDataStats, attrs: map[string]any{"website_id": "12", "from": "2015-01-01", "to": "2025-01-07"}},
		{name: "statistics by domain, top 100", kind: kindDataStats, attrs: map[string]any{"domain": "example.com", "days": 3660, "dimension": "visitors_hour", "limit": 100}},
		{name: "provider with path prefix", kind: kindProvider, attrs: map[string]any{"base_url": "https://example.com/analytics/", "api_key": "k", "timeout": "90s"}},
		{name: "provider from environment", kind: kindProvider, attrs: map[string]any{}, env: map[string]string{EnvBaseURL: "http://127.0.0.1:8080", EnvAPIKey: "k"}},
	}
}

// hclValue renders v as an HCL expression.
func hclValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", v)
	case bool:
		return fmt.Sprint(v)
	case int:
		return fmt.Sprint(v)
	case []string:
		quoted := make([]string, len(v))
		for i, s := range v {
			quoted[i] = fmt.Sprintf("%q", s)
		}
		return "[" + strings.Join(quoted, ", ") + "]"
	case []any:
		elems := make([]string, len(v))
		for i, e := range v {
			elems[i] = hclValue(e)
		}
		return "[" + strings.Join(elems, ", ") + "]"
	}
	panic(fmt.Sprintf("hclValue: unsupported %T", v))
}

// sortedKeys lists m's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// hclBody renders attributes (and map values as nested blocks).
func hclBody(attrs map[string]any) string {
	var b strings.Builder
	for _, k := range sortedKeys(attrs) {
		if block, ok := attrs[k].(map[string]string); ok {
			fmt.Fprintf(&b, "  %s {\n", k)
			for _, bk := range sortedKeys(block) {
				fmt.Fprintf(&b, "    %s = %q\n", bk, block[bk])
			}
			b.WriteString("  }\n")
			continue
		}
		fmt.Fprintf(&b, "  %s = %s\n", k, hclValue(attrs[k]))
	}
	return b.String()
}

func (c badInput) resourceAttrs() map[string]any {
	attrs := map[string]any{"domain": "example.com"}
	for k, v := range c.attrs {
		attrs[k] = v
	}
	return attrs
}

// hcl is the case's whole configuration; providerBlock is used for
// everything but provider cases.
func (c badInput) hcl(providerBlock string) string {
	switch c.kind {
	case kindProvider:
		return "provider \"analytics\" {\n" + hclBody(c.attrs) + "}\n" + websiteHCL(`domain = "example.com"`)
	case kindDataSource:
		return providerBlock + "data \"analytics_website\" \"test\" {\n" + hclBody(c.attrs) + "}\n"
	case kindDataList:
		return providerBlock + "data \"analytics_websites\" \"test\" {\n" + hclBody(c.attrs) + "}\n"
	case kindDataStats:
		return providerBlock + "data \"analytics_website_statistics\" \"test\" {\n" + hclBody(c.attrs) + "}\n"
	default:
		return providerBlock + "resource \"analytics_website\" \"test\" {\n" + hclBody(c.resourceAttrs()) + "}\n"
	}
}

// tfValue converts a catalog value to a value of type typ.
func tfValue(t *testing.T, typ tftypes.Type, v any) tftypes.Value {
	t.Helper()
	switch v := v.(type) {
	case nil:
		return tftypes.NewValue(typ, nil)
	case string:
		return tftypes.NewValue(typ, v)
	case bool:
		return tftypes.NewValue(typ, v)
	case int:
		return tftypes.NewValue(typ, new(big.Float).SetInt64(int64(v)))
	case []string:
		elems := make([]any, len(v))
		for i, s := range v {
			elems[i] = s
		}
		return tfValue(t, typ, elems)
	case []any:
		var elem tftypes.Type
		switch c := typ.(type) {
		case tftypes.Set:
			elem = c.ElementType
		case tftypes.List:
			elem = c.ElementType
		default:
			t.Fatalf("a list for %s", typ)
		}
		vals := make([]tftypes.Value, len(v))
		for i, e := range v {
			vals[i] = tfValue(t, elem, e)
		}
		return tftypes.NewValue(typ, vals)
	case map[string]string:
		attrs := map[string]any{}
		for k, s := range v {
			attrs[k] = s
		}
		return objectValue(t, typ, attrs)
	}
	t.Fatalf("tfValue: unsupported %T", v)
	return tftypes.Value{}
}

// objectValue builds an object of type typ: the given attributes, every
// other one null.
func objectValue(t *testing.T, typ tftypes.Type, attrs map[string]any) tftypes.Value {
	t.Helper()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		t.Fatalf("objectValue: %s is not an object type", typ)
	}
	vals := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		vals[name] = tfValue(t, at, attrs[name])
	}
	for name := range attrs {
		if _, known := obj.AttributeTypes[name]; !known {
			t.Fatalf("objectValue: no attribute %q", name)
		}
	}
	return tftypes.NewValue(typ, vals)
}

func dynamicValue(t *testing.T, typ tftypes.Type, attrs map[string]any) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, objectValue(t, typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// validate runs c's configuration through the provider's protocol server the
// way Terraform does at plan time (validation, then, for the provider
// block, Configure, for a resource the plan of a new website) and returns
// the diagnostics.
func (c badInput) validate(t *testing.T) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	server, schemas, diags := c.validateConfig(t)
	if hasError(diags) {
		return diags
	}
	switch c.kind {
	case kindProvider:
		cfg := dynamicValue(t, schemas.Provider.ValueType(), c.attrs)
		conf, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.8.5", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		return append(diags, conf.Diagnostics...)
	case kindDataSource, kindDataList, kindDataStats:
		return diags
	default:
		// Then the plan of a new website (the provider is not configured,
		// so nothing reaches an API), as Terraform plans a creation.
		typ := schemas.ResourceSchemas["analytics_website"].ValueType()
		proposed := map[string]any{}
		for k, v := range c.resourceAttrs() {
			if k != catalogWO {
				proposed[k] = v // write-only values are never in a plan
			}
		}
		null, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
			TypeName:         "analytics_website",
			PriorState:       &null,
			ProposedNewState: dynamicValue(t, typ, proposed),
			Config:           dynamicValue(t, typ, c.resourceAttrs()),
		})
		if err != nil {
			t.Fatal(err)
		}
		return append(diags, plan.Diagnostics...)
	}
}

// validateConfig runs the validation of c's configuration (Terraform's
// validate, which comes before any configure or plan: an error there
// stops the CLI before the provider could reach an API) through a new
// protocol server, which it returns with the schemas and the diagnostics.
func (c badInput) validateConfig(t *testing.T) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse, []*tfprotov6.Diagnostic) {
	t.Helper()
	ctx := context.Background()
	server, err := NewServer(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	switch c.kind {
	case kindProvider:
		v, err := server.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{
			Config: dynamicValue(t, schemas.Provider.ValueType(), c.attrs)})
		if err != nil {
			t.Fatal(err)
		}
		return server, schemas, v.Diagnostics
	case kindDataSource, kindDataList, kindDataStats:
		name := map[string]string{kindDataSource: "analytics_website", kindDataList: "analytics_websites",
			kindDataStats: "analytics_website_statistics"}[c.kind]
		resp, err := server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{
			TypeName: name, Config: dynamicValue(t, schemas.DataSourceSchemas[name].ValueType(), c.attrs),
		})
		if err != nil {
			t.Fatal(err)
		}
		return server, schemas, resp.Diagnostics
	default:
		typ := schemas.ResourceSchemas["analytics_website"].ValueType()
		resp, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{
			TypeName:           "analytics_website",
			Config:             dynamicValue(t, typ, c.resourceAttrs()),
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		return server, schemas, resp.Diagnostics
	}
}

// refusedByValidation reports whether c's configuration gets an error
// from the provider's validation (see validateConfig).
func refusedByValidation(t *testing.T, c badInput) bool {
	t.Helper()
	_, _, diags := c.validateConfig(t)
	return hasError(diags)
}

func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// caseEnvNames are the provider's environment variables a case may set.
var caseEnvNames = []string{EnvBaseURL, EnvAPIKey}

// setCaseEnv sets the provider's environment variables for case c.
func setCaseEnv(t *testing.T, c badInput) {
	t.Helper()
	for _, name := range caseEnvNames {
		t.Setenv(name, c.env[name])
	}
}

// setCaseProviderEnv sets them for the providers env's TestCase serves.
func setCaseProviderEnv(env *acctest.Env, c badInput) {
	for _, name := range caseEnvNames {
		env.SetProviderEnv(name, c.env[name])
	}
}

func checkCaseDiagnostics(t *testing.T, c badInput, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	var text []string
	attrFound := c.attr == ""
	for _, d := range diags {
		if d.Severity != tfprotov6.DiagnosticSeverityError {
			continue
		}
		text = append(text, d.Summary+": "+d.Detail)
		if d.Attribute != nil {
			if steps := d.Attribute.Steps(); len(steps) > 0 && steps[0] == tftypes.AttributeName(c.attr) {
				attrFound = true
			}
		}
	}
	all := strings.Join(text, "\n")
	if !acctest.ExpectError(c.want).MatchString(all) {
		t.Errorf("the errors do not match %q:\n%s", c.want, all)
	}
	if !attrFound {
		t.Errorf("no error is attached to the attribute %q; errors:\n%s", c.attr, all)
	}
	for _, secret := range c.notIn {
		if strings.Contains(all, secret) {
			t.Errorf("an error repeats %q, which must not be shown:\n%s", secret, all)
		}
	}
}

// TestBadInputCatalog runs the catalog through the protocol server,
// without Terraform: every case gets its error on its attribute, and every
// valid edge value passes.
func TestBadInputCatalog(t *testing.T) {
	for _, c := range badInputCatalog() {
		if c.cliOnly {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			if c.kind == kindProvider {
				setCaseEnv(t, c) // the provider reads the environment: not parallel
			} else {
				t.Parallel()
			}
			checkCaseDiagnostics(t, c, c.validate(t))
		})
	}
	for _, c := range validInputs() {
		t.Run("valid "+c.name, func(t *testing.T) {
			if c.kind == kindProvider {
				setCaseEnv(t, c)
			} else {
				t.Parallel()
			}
			if diags := c.validate(t); len(diags) > 0 {
				for _, d := range diags {
					t.Errorf("%s: %s: %s (%v)", d.Severity, d.Summary, d.Detail, d.Attribute)
				}
			}
		})
	}
}

// TestAccBadInputCatalog runs the catalog through the real CLI as PlanOnly
// steps and checks that none of them reached the API: the cases whose
// outcome depends on the CLI (dependsOnCLI) and, on Terraform 1.8.5 (make
// test's first run), every case whose error comes after the validation
// (at configure or plan time, when the provider could reach an API).
// TestBadInputCatalog checks every case's diagnostics without a CLI: a
// case refused by validation gets the same diagnostics from the same
// provider through the CLI, which validates the whole configuration
// before it configures the provider or plans anything, so that case
// cannot reach the API.
func TestAccBadInputCatalog(t *testing.T) {
	acctest.CLIDependent(t, "write-only attributes (password_wo): Terraform 1.11; each CLI shows the diagnostics")
	env := acctest.New(t)
	var steps []resource.TestStep
	shown := map[string]bool{} // kinds whose diagnostics a CLI showed
	for _, c := range badInputCatalog() {
		cli := c.dependsOnCLI(shown)
		if !cli && (acctest.RepeatPass() || refusedByValidation(t, c)) {
			continue
		}
		steps = append(steps, resource.TestStep{
			PreConfig:   func() { setCaseProviderEnv(env, c) },
			Config:      c.hcl(env.ProviderBlock()),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(c.want),
		})
	}
	// Valid resource edge values plan cleanly, as creations that are not
	// applied: one plan creates a website with each (a domain of its own
	// where the case sets none: one plan cannot create two websites with
	// one domain). (Data sources would be read, and so reach the API;
	// password_wo needs Terraform 1.11, see
	// TestAccWebsite_passwordWriteOnly.)
	var valid strings.Builder
	for i, c := range validInputs() {
		if _, writeOnly := c.attrs[catalogWO]; c.kind != kindResource || writeOnly {
			continue
		}
		if acctest.RepeatPass() && i > 0 {
			break // the first shows that a CLI plans a valid create
		}
		attrs := c.resourceAttrs()
		if _, ok := c.attrs["domain"]; !ok {
			attrs["domain"] = fmt.Sprintf("valid%d.example.com", i)
		}
		fmt.Fprintf(&valid, "resource \"analytics_website\" \"valid%d\" {\n%s}\n", i, hclBody(attrs))
	}
	steps = append(steps, resource.TestStep{
		PreConfig:          func() { setCaseProviderEnv(env, badInput{}) },
		Config:             env.ProviderBlock() + valid.String(),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	})
	env.TestCase(t, resource.TestCase{
		// Every step only plans: nothing is made, and nothing is listed to
		// show it, so that the request count below holds only the plans'.
		CheckDestroy: func(*terraform.State) error { return nil },
		Steps:        steps,
	})
	// Only the plans of valid new websites ask who the key belongs to (for
	// the website limit check) and list the user's websites (one list per
	// plan, for the held-domain check of every create); nothing else
	// reaches the API. (Requests are counted on the in-process emulator
	// only.)
	if env.Emulator == nil {
		return
	}
	if s := env.Stats(); s.Total != s.ByRoute["GET /api/v1/account"]+s.ByRoute["GET /api/v1/websites"] ||
		s.ByRoute["GET /api/v1/websites"] > s.ByRoute["GET /api/v1/account"] {
		t.Errorf("the plan-time catalog sent API requests other than GET /account and one list per plan: %+v", s.ByRoute)
	}
}

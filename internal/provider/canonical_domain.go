package provider

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"golang.org/x/net/idna"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
	"github.com/analytics-tf/terraform-provider-analytics/internal/userinfo"
)

// The domain's canonical form, the one rule behind the domain validator
// (domainValidator) and provider::analytics::canonical_domain: what the
// server stores (canonicalDomain), why it would refuse or rewrite a domain
// (domainProblem), and the canonical form of a URL or host name
// (canonicalDomainOf).

// canonicalDomainFunction is provider::analytics::canonical_domain.
type canonicalDomainFunction struct{}

var _ function.Function = canonicalDomainFunction{}

func newCanonicalDomainFunction() function.Function { return canonicalDomainFunction{} }

func (canonicalDomainFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "canonical_domain"
}

func (canonicalDomainFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The domain of a URL or host name, in the form the server stores",
		MarkdownDescription: "Returns the domain of a URL or host name in the form phpAnalytics stores and `analytics_website`'s " +
			"`domain` accepts: surrounding white space, the `http://` or `https://` scheme, user information, the port, " +
			"the path, query and fragment, a trailing dot and a leading `www.` removed, lower case, and an " +
			"internationalised name in its ASCII (punycode) form. Fails, naming the problem, for what can never be a " +
			"website's domain (another scheme, an IPv6 address, an invalid host name). The result is the value " +
			"`domain` validates, so `canonical_domain(x) == x` exactly when `x` needs no change.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "url",
				MarkdownDescription: "A URL (`https://www.Example.com/blog/`) or host name (`Example.com`).",
			},
		},
		Return: function.StringReturn{},
	}
}

func (canonicalDomainFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var in string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &in))
	if resp.Error != nil {
		return
	}
	out, problem := canonicalDomainOf(in)
	if problem != "" {
		// Terraform ends the message with its own full stop.
		resp.Error = function.NewArgumentFuncError(0, strings.TrimSuffix(problem, "."))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, out))
}

// canonicalDomainOf returns the domain of a URL or host name in the form the
// server stores and the domain validator accepts, or why there is none (a
// sentence naming the problem). It is the one implementation behind
// provider::analytics::canonical_domain and the validator's suggestions:
// canonicalDomainOf(d) == d exactly when domainProblem(d) == "".
//
// On top of the server's own rewriting (canonicalDomain: lower case, the
// http:// and https:// schemes and a leading "www." removed), it removes
// what the server would refuse but what is clearly not part of the host:
// surrounding white space, user information, the port, the path, query and
// fragment, and a trailing dot; and it gives an internationalised name in
// ASCII.
func canonicalDomainOf(s string) (string, string) {
	if userinfo.Hidden(strings.TrimSpace(s)) {
		// An "@" after a "/", "?" or "#" that may end user information
		// whose password holds that character: what URL parsers take for
		// the host may be the user name.
		return "", "The value may hold user information (user:password@ before the host, not repeated here) whose " +
			"password contains \"/\", \"?\" or \"#\", so that the host cannot be told. Give a URL or host name " +
			"without credentials, e.g. \"https://www.example.com/\"."
	}
	d, problem := canonicalForm(s)
	if problem != "" && strings.Contains(s, "@") {
		// Text before an "@" may be a password; where a "/", "?", "#" or
		// "@" in it ends the user information early, part of it is read as
		// the host. Nothing of the value is repeated.
		return "", "The value contains user information (text before \"@\", not repeated here) and no valid host " +
			"name once it is removed. Give a URL or host name without credentials, e.g. \"https://www.example.com/\"."
	}
	return d, problem
}

// canonicalForm is canonicalDomainOf, its messages free to quote the value.
func canonicalForm(s string) (string, string) {
	d := strings.TrimSpace(s)
	if d == "" {
		return "", "The value is empty or only white space; give a URL or host name, e.g. \"https://www.example.com/\"."
	}
	if scheme, rest, ok := strings.Cut(d, "://"); ok {
		if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
			return "", fmt.Sprintf("The URL scheme %q is not a website's: give an http:// or https:// URL, or a host name.",
				scheme+"://")
		}
		d = rest
	}
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		d = d[:i] // path, query, fragment
	}
	if i := strings.LastIndex(d, "@"); i >= 0 {
		d = d[i+1:] // user information, never repeated
	}
	if ip, ok := ipv6Host(d); ok {
		return "", fmt.Sprintf("The host is an IPv6 address (%s); the server accepts only host names and IPv4 addresses.", ip)
	}
	if host, _, ok := strings.Cut(d, ":"); ok {
		d = host // port
	}
	d = strings.TrimRight(d, ".")
	if strings.ContainsFunc(d, unicode.IsSpace) {
		return "", fmt.Sprintf("The host %q contains white space.", d)
	}
	// The server's rewriting comes first, as on store: a Unicode name is
	// lower-cased as the server does (mb_strtolower: "ẞ" becomes "ß", which
	// the IDNA mapping alone would make "ss"), so that the ASCII form is the
	// one a browser sends for the domain the server would store, and the
	// validator's suggestions, made from that stored form, are this result.
	d = canonicalDomain(d)
	if strings.ContainsFunc(d, func(r rune) bool { return r > unicode.MaxASCII }) {
		ascii, err := idna.Lookup.ToASCII(d)
		if err != nil {
			return "", fmt.Sprintf("The host %q is not a valid internationalised domain name (%v).", d, err)
		}
		d = ascii
	}
	d = canonicalDomain(d)
	if d == "" {
		return "", "The value has no host name once the scheme and \"www.\" are removed."
	}
	if p := domainProblem(d); p != "" {
		return "", p
	}
	return d, ""
}

// maxDomainLength is the server's limit on domain (max:255).
const maxDomainLength = 255

// canonicalDomain rewrites a domain the way the server does before it
// validates and stores it: lower case, every "http://" and "https://"
// removed, and, when the result starts with "www.", every "www." removed.
func canonicalDomain(s string) string { return domainrule.Canonical(s) }

// serverRefuses reports whether the server answers "Invalid domain name."
// to domain as configured (after its own trimming and rewriting).
func serverRefuses(domain string) bool {
	return !domainrule.Valid(domainrule.Canonical(laravel.Trim(domain)))
}

// noPageviews is why a domain the server would store is refused anyway when
// what a browser sends as the page's host can never equal it.
const noPageviews = "The server would store it as written, but a browser sends only the page's host name (in ASCII, " +
	"without a trailing dot), and the tracking endpoint matches it against the stored domain literally: the website " +
	"would never record a pageview."

// serverAnswer says what the server does with domain: it refuses it, or it
// stores it and ifStored says why that is no better.
func serverAnswer(domain, ifStored string) string {
	if serverRefuses(domain) {
		return "The server refuses it (\"Invalid domain name.\")."
	}
	return ifStored
}

// domainProblem returns why the server would refuse domain or store it in
// another form, as a sentence that says how to fix it, or "" when the domain
// is accepted as it is.
func domainProblem(domain string) string {
	switch {
	case domain == "":
		return "The domain must not be empty. Set it to the host name of the website, e.g. \"example.com\"."
	case laravel.Trim(domain) == "":
		return "The domain is only white space. Set it to the host name of the website, e.g. \"example.com\"."
	case strings.Contains(domain, "@"):
		// The text before the last "@" may hold a password, whole or (when
		// it holds a "/", "?" or "#") cut short: no part of it is repeated.
		return "The domain contains user information (text before \"@\"), which is not part of a host name. " +
			serverAnswer(domain, noPageviews) + " " + suggestDomain(domain[strings.LastIndex(domain, "@")+1:])
	case laravel.Trim(domain) != domain && !strings.ContainsFunc(laravel.Trim(domain), unicode.IsSpace):
		// White space, a line break, U+200B, U+FEFF or U+180E: what the
		// server's TrimStrings removes.
		return fmt.Sprintf("The domain %q has white space or a line break at its ends, which the server removes. %s",
			domain, suggestDomain(laravel.Trim(domain)))
	case strings.ContainsFunc(domain, unicode.IsSpace):
		return fmt.Sprintf("The domain %q contains white space or a line break, which no host name has. %s %s",
			domain, serverAnswer(domain, noPageviews), suggestDomain(strings.Join(strings.Fields(laravel.Trim(domain)), "")))
	}
	if scheme, rest, ok := strings.Cut(domain, "://"); ok && !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return fmt.Sprintf("The domain %q starts with the URL scheme %q, which the server does not remove (it only "+
			"removes http:// and https://). %s %s", domain, scheme+"://", serverAnswer(domain, noPageviews), suggestDomain(rest))
	}
	canonical := canonicalDomain(domain)
	if canonical == "" {
		return fmt.Sprintf("The domain %q is empty once the server removes the scheme and \"www.\". Set it to the "+
			"host name of the website, e.g. \"example.com\".", domain)
	}
	p := canonicalProblem(canonical)
	if canonical == domain {
		return p
	}
	stores := fmt.Sprintf("The server stores the domain %q as %q (it lower-cases domains and removes the scheme "+
		"and a leading \"www.\").", domain, canonical)
	if p == "" {
		return fmt.Sprintf("%s Set domain = %q so that plans stay stable.", stores, canonical)
	}
	if _, ok := storedOnlyDomain(canonical); ok {
		// A website can have it (the web interface stores it): an import
		// keeps it only under that form; any other replaces the website.
		return fmt.Sprintf("%s A website that already has it (an import) is managed with domain = %q; any other "+
			"spelling replaces it. A new website cannot have it: %s", stores, canonical, p)
	}
	return p
}

// suggestDomain proposes fixed, a shortened form of a refused domain, when
// the server accepts it (possibly after its own rewriting).
func suggestDomain(fixed string) string {
	if c, p := canonicalDomainOf(fixed); p == "" {
		return fmt.Sprintf("Set domain = %q.", c)
	}
	return "Set it to the bare host name of the website, e.g. \"example.com\"."
}

// canonicalProblem checks a domain already in canonical form.
func canonicalProblem(d string) string {
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		return fmt.Sprintf("The domain %q contains a path or query (%q), which the server does not remove. %s %s",
			d, d[i:], serverAnswer(d, noPageviews), suggestDomain(d[:i]))
	}
	if b, ok := storedOnlyDomain(d); ok {
		return pageviewsProblem(d, b)
	}
	if strings.HasSuffix(d, "..") {
		return fmt.Sprintf("The domain %q ends with dots. %s %s", d, serverAnswer(d, noPageviews),
			suggestDomain(strings.TrimRight(d, ".")))
	}
	if strings.ContainsFunc(d, func(r rune) bool { return r > unicode.MaxASCII }) {
		ascii, err := idna.Lookup.ToASCII(strings.TrimSuffix(d, "."))
		if err != nil {
			return fmt.Sprintf("The domain %q is not a valid internationalised domain name (%v). %s Give the "+
				"website's host name in its ASCII (punycode, xn--) form.", d, err, serverAnswer(d, noPageviews))
		}
		return fmt.Sprintf("The domain %q is in Unicode. %s %s", d, serverAnswer(d, noPageviews), suggestDomain(ascii))
	}
	if ip, ok := ipv6Host(d); ok {
		return fmt.Sprintf("The domain %q is an IPv6 address (%s); the server accepts only host names and IPv4 "+
			"addresses (\"Invalid domain name.\"). Use the website's host name, e.g. \"example.com\".", d, ip)
	}
	if host, port, ok := strings.Cut(d, ":"); ok {
		return fmt.Sprintf("The domain %q contains a port (%q); websites are tracked per host name. %s Set %q.",
			d, port, serverAnswer(d, noPageviews), host)
	}
	if trimmed := strings.TrimRight(d, "."); trimmed != d && trimmed != "" {
		return fmt.Sprintf("The domain %q ends with dots. %s %s", d, serverAnswer(d, noPageviews), suggestDomain(trimmed))
	}
	if len(d) > maxDomainLength {
		return fmt.Sprintf("The domain is %d characters long; the server accepts at most %d. Use the website's real "+
			"host name.", len(d), maxDomainLength)
	}
	if !isHostname(d) && !isIPv4(d) {
		return fmt.Sprintf("The domain %q is not a valid host name. %s Use dot-separated labels of letters, digits "+
			"and hyphens (not starting or ending with a hyphen, at most 63 characters each), ending in a non-numeric "+
			"top-level label, e.g. \"www2.example.com\", or an IPv4 address.", d, serverAnswer(d,
			"The server would store it as written, but no website's host name has this form, so it is most likely a mistake."))
	}
	return ""
}

// ipv6Host reports whether d is an IPv6 address, bare ("2001:db8::1") or in
// brackets with an optional port ("[2001:db8::1]:8080").
func ipv6Host(d string) (string, bool) {
	host := d
	if strings.HasPrefix(d, "[") {
		end := strings.Index(d, "]")
		if end < 0 {
			return "", false
		}
		host = d[1:end]
	} else if strings.Count(d, ":") < 2 {
		return "", false
	}
	a, err := netip.ParseAddr(host)
	if err != nil || !a.Is6() {
		return "", false
	}
	return a.String(), true
}

// isHostname reports whether d is a DNS host name that a browser sends as
// it is: its last label is no number (the WHATWG URL standard reads a host
// whose last label is decimal, or hexadecimal after "0x", as an IPv4
// address: http://1.2.3.0x4/ is http://1.2.3.4/).
func isHostname(d string) bool {
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
				return false
			}
		}
	}
	return !endsInNumber(labels[len(labels)-1])
}

// endsInNumber reports whether the last label of an ASCII host, last, is
// a number to the WHATWG URL standard (its "ends in a number" checker):
// decimal digits, or "0x" followed by hexadecimal ones.
func endsInNumber(last string) bool {
	if hex, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

func isIPv4(d string) bool {
	a, err := netip.ParseAddr(d)
	return err == nil && a.Is4()
}

package provider

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"golang.org/x/net/idna"
)

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

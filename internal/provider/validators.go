package provider

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/net/idna"
)

// maxDomainLength is the server's limit on domain (max:255).
const maxDomainLength = 255

// canonicalDomain rewrites a domain the way the server does before it
// validates and stores it: lower case, every "http://" and "https://"
// removed, and, when the result starts with "www.", every "www." removed.
func canonicalDomain(s string) string {
	s = strings.ToLower(s)
	s = strings.ReplaceAll(s, "http://", "")
	s = strings.ReplaceAll(s, "https://", "")
	if strings.HasPrefix(s, "www.") {
		s = strings.ReplaceAll(s, "www.", "")
	}
	return s
}

// domainProblem returns why the server would refuse domain or store it in
// another form, as a sentence that says how to fix it, or "" when the domain
// is accepted as it is.
func domainProblem(domain string) string {
	switch {
	case domain == "":
		return "The domain must not be empty. Set it to the host name of the website, e.g. \"example.com\"."
	case strings.TrimSpace(domain) != domain || strings.ContainsFunc(domain, unicode.IsSpace):
		return fmt.Sprintf("The domain %q contains white space. Set it to the bare host name, e.g. %q.",
			domain, strings.Join(strings.Fields(domain), ""))
	}
	canonical := canonicalDomain(domain)
	if canonical != domain && canonicalProblem(canonical) == "" {
		return fmt.Sprintf("The server stores the domain %q as %q (it lower-cases domains and removes the scheme "+
			"and a leading \"www.\"). Set domain = %q so that plans stay stable.", domain, canonical, canonical)
	}
	if p := canonicalProblem(canonical); p != "" {
		return p
	}
	return ""
}

// canonicalProblem checks a domain already in canonical form.
func canonicalProblem(d string) string {
	if strings.ContainsFunc(d, func(r rune) bool { return r > unicode.MaxASCII }) {
		ascii, err := idna.Lookup.ToASCII(d)
		if err != nil {
			return fmt.Sprintf("The domain %q is not a valid internationalised domain name (%v). "+
				"The server only accepts ASCII host names; give the punycode (xn--) form.", d, err)
		}
		return fmt.Sprintf("The domain %q contains non-ASCII characters, which the server refuses. "+
			"Give its ASCII (punycode) form instead: domain = %q.", d, ascii)
	}
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		return fmt.Sprintf("The domain %q contains a path or query (%q); the server does not strip it and refuses "+
			"the domain. Set only the host name, %q.", d, d[i:], d[:i])
	}
	if host, port, ok := strings.Cut(d, ":"); ok {
		return fmt.Sprintf("The domain %q contains a port (%q); websites are tracked per host name. Set %q.", d, port, host)
	}
	if len(d) > maxDomainLength {
		return fmt.Sprintf("The domain is %d characters long; the server accepts at most %d.", len(d), maxDomainLength)
	}
	if !isHostname(d) && !isIPv4(d) {
		return fmt.Sprintf("The domain %q is not a valid host name (the server answers \"Invalid domain name.\"). "+
			"Use dot-separated labels of letters, digits and hyphens (not starting or ending with a hyphen, at most "+
			"63 characters each), ending in a non-numeric top-level label, e.g. \"www2.example.com\", or an IPv4 address.", d)
	}
	return ""
}

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
	tld := labels[len(labels)-1]
	return strings.ContainsFunc(tld, func(r rune) bool { return r < '0' || r > '9' })
}

func isIPv4(d string) bool {
	a, err := netip.ParseAddr(d)
	return err == nil && a.Is4()
}

// domainValidator refuses, at plan time, domains the server would refuse or
// rewrite.
type domainValidator struct{}

func (domainValidator) Description(context.Context) string {
	return "must be a host name or IPv4 address in the server's canonical form"
}

func (v domainValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (domainValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if p := domainProblem(req.ConfigValue.ValueString()); p != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Domain", p)
	}
}

// durationValidator accepts a positive Go duration.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "must be a positive duration such as \"30s\" or \"2m\""
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration",
			fmt.Sprintf("%q is not a positive duration. Use a number with a unit, such as \"30s\", \"90s\" or \"2m\".",
				req.ConfigValue.ValueString()))
	}
}

// setStrings returns the known, non-null string elements of a set value.
func setStrings(v types.Set) []string {
	var out []string
	for _, e := range v.Elements() {
		if s, ok := e.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			out = append(out, s.ValueString())
		}
	}
	return out
}

// excludeIPsValidator checks that every entry is an IPv4/IPv6 address or
// CIDR range, and that no two entries denote the same address or range.
type excludeIPsValidator struct{}

func (excludeIPsValidator) Description(context.Context) string {
	return "each entry must be an IPv4 or IPv6 address or a CIDR range, listed once"
}

func (v excludeIPsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// normalizeIPEntry returns the canonical text of an address or range, or an
// explanation of why the entry is not one.
func normalizeIPEntry(s string) (string, string) {
	switch {
	case s == "":
		return "", "an entry is empty; remove it"
	case strings.ContainsFunc(s, unicode.IsSpace):
		return "", fmt.Sprintf("%q contains white space or a line break; give one address or range per entry", s)
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return "", fmt.Sprintf("%q is not a valid CIDR range (e.g. \"10.0.0.0/8\" or \"2001:db8::/32\")", s)
		}
		return p.Masked().String(), ""
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return "", fmt.Sprintf("%q is not an IPv4 or IPv6 address or CIDR range (e.g. \"203.0.113.7\", "+
			"\"2001:db8::1\" or \"10.0.0.0/8\"); the server would silently never match it", s)
	}
	return a.String(), ""
}

func (excludeIPsValidator) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]string{}
	for _, s := range setStrings(req.ConfigValue) {
		norm, problem := normalizeIPEntry(s)
		if problem != "" {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid IP Exclusion", "In exclude_ips, "+problem+".")
			continue
		}
		if prev, dup := seen[norm]; dup {
			resp.Diagnostics.AddAttributeError(req.Path, "Duplicate IP Exclusion",
				fmt.Sprintf("In exclude_ips, %q and %q denote the same address or range (%s); keep only one.", prev, s, norm))
			continue
		}
		seen[norm] = s
	}
}

// excludeParamsValidator checks query parameter names.
type excludeParamsValidator struct{}

func (excludeParamsValidator) Description(context.Context) string {
	return "each entry must be a query parameter name, or \"&\" alone for every parameter"
}

func (v excludeParamsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func paramProblem(s string) string {
	switch {
	case s == "":
		return "an entry is empty; remove it"
	case s == "&":
		return ""
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return fmt.Sprintf("%q contains white space or a line break; give one parameter name per entry", s)
	case strings.ContainsAny(s, "&=?#"):
		return fmt.Sprintf("%q is not a bare query parameter name (it contains one of & = ? #); give only the name, e.g. \"utm_source\"", s)
	}
	return ""
}

func (excludeParamsValidator) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	entries := setStrings(req.ConfigValue)
	for _, s := range entries {
		if p := paramProblem(s); p != "" {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid Query Parameter Exclusion", "In exclude_params, "+p+".")
		}
	}
	if len(entries) > 1 {
		for _, s := range entries {
			if s == "&" {
				resp.Diagnostics.AddAttributeError(req.Path, "Conflicting Query Parameter Exclusions",
					"In exclude_params, \"&\" already excludes every query parameter; remove the other entries or the \"&\".")
				break
			}
		}
	}
}

// passwordValidator refuses passwords the server would refuse (1..128
// characters) and blank ones.
type passwordValidator struct{}

func (passwordValidator) Description(context.Context) string {
	return "must be 1 to 128 characters and not blank"
}

func (v passwordValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// maxPasswordLength is the server's limit on password (max:128).
const maxPasswordLength = 128

func (passwordValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	pw := req.ConfigValue.ValueString()
	switch n := len([]rune(pw)); {
	case strings.TrimSpace(pw) == "":
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Password",
			"The password is empty or only white space. Set a real password, or remove the attribute and use a privacy other than \"password\".")
	case n > maxPasswordLength:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Password",
			fmt.Sprintf("The password is %d characters long; the server accepts at most %d. Use a shorter password.", n, maxPasswordLength))
	}
}

// stringSetValue builds a set of strings (empty, never null).
func stringSetValue(values []string) types.Set {
	elems := make([]attr.Value, 0, len(values))
	for _, v := range values {
		elems = append(elems, types.StringValue(v))
	}
	return types.SetValueMust(types.StringType, elems)
}

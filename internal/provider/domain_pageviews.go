package provider

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/net/idna"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// A domain in Unicode ("bücher.example") or ending with a dot
// ("shop.example.com.") is one the server stores as written (created in the
// web interface, or through the API). Such a website records no pageview
// from a browser: a browser sends the page's host in ASCII (the WHATWG URL
// standard writes http://bücher.example/ as http://xn--bcher-kva.example/)
// and without the trailing dot, and the tracking endpoint matches the
// stored domain literally. The provider refuses a new website so, but an
// existing one is managed with its stored domain, with a warning: adopting
// it must never replace it (a replacement deletes its statistics).

// storedOnlyDomain reports whether d is such a domain: exactly as the
// server stores it (nothing to trim, nothing to rewrite) and accepts it, and wrong only in being Unicode or
// ending with one dot. It returns the ASCII form a new website would use.
func storedOnlyDomain(d string) (string, bool) {
	t := strings.TrimSuffix(d, ".")
	nonASCII := strings.ContainsFunc(t, func(r rune) bool { return r > unicode.MaxASCII })
	if (t == d && !nonASCII) || t == "" || strings.HasSuffix(t, ".") || strings.ContainsAny(t, "/?#@:") ||
		strings.ContainsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) ||
		laravel.Trim(d) != d || domainrule.Canonical(d) != d || !domainrule.Valid(d) {
		return "", false
	}
	if !nonASCII {
		ascii, problem := canonicalDomainOf(d)
		return ascii, problem == ""
	}
	ascii, err := browserHost.ToASCII(t)
	return ascii, err == nil
}

// browserHost is the host name a browser sends for a Unicode host: the
// WHATWG URL standard's domain to ASCII, which, unlike the strict lookup
// profile, neither applies the STD3 rules nor checks hyphens, so that
// "bücher_shop.example" and "-bücher.example" (which the server stores as
// written) have an ASCII form too.
var browserHost = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false))

// storedOnlyWhy says what is wrong with such a domain d, whose ASCII form
// is ascii.
func storedOnlyWhy(d, ascii string) string {
	what := "is in Unicode"
	switch t := strings.TrimSuffix(d, "."); {
	case t != d && t == ascii:
		what = "ends with a dot"
	case t != d:
		what = "is in Unicode and ends with a dot"
	}
	return fmt.Sprintf("The domain %q %s. The server stores it as written, but a browser sends a page's host in "+
		"ASCII (punycode) and without a trailing dot, here %q, and the tracking endpoint matches it against the "+
		"stored domain literally: a website with this domain records no pageview from a browser.", d, what, ascii)
}

// pageviewsProblem is the refusal of such a domain for a new website (the
// canonical form's problem).
func pageviewsProblem(d, ascii string) string {
	return storedOnlyWhy(d, ascii) + fmt.Sprintf(" Set domain = %q. (A website that already has this domain can "+
		"be imported and managed with it; see the guide on adopting existing websites.)", ascii)
}

// storedOnlyWarning is the warning of an existing website with such a
// domain: it is managed as it is, and how to get pageviews.
func storedOnlyWarning(d, ascii string) string {
	return storedOnlyWhy(d, ascii) + fmt.Sprintf(" A website's domain cannot change. To record pageviews, create a "+
		"new website with domain = %q, and if this website's statistics matter, export them first (the "+
		"analytics_website_statistics_export action): deleting the website deletes them.", ascii)
}

// checkNewStoredOnlyDomain refuses, at plan time, a website about to be
// created (new, or the new one of a replacement) with such a domain.
func checkNewStoredOnlyDomain(domain types.String, diags *diag.Diagnostics) {
	if domain.IsNull() || domain.IsUnknown() {
		return
	}
	if ascii, ok := storedOnlyDomain(domain.ValueString()); ok {
		diags.AddAttributeError(path.Root("domain"), "Domain Records No Pageviews",
			"This plan creates a website with this domain. "+pageviewsProblem(domain.ValueString(), ascii))
	}
}

// warnStoredOnlyDomain warns, at plan time, about a website in the state
// (imported, or adopted) that keeps such a domain.
func warnStoredOnlyDomain(domain types.String, diags *diag.Diagnostics) {
	if n := storedOnlyNotice(domain.ValueString()); n != "" && !domain.IsUnknown() {
		diags.AddAttributeWarning(path.Root("domain"), "Website Records No Pageviews", n)
	}
}

// storedOnlyNotice is the domain validator's warning for such a domain: it
// names an existing website (imported, or looked up), which is managed as
// it is.
func storedOnlyNotice(d string) string {
	if ascii, ok := storedOnlyDomain(d); ok {
		return storedOnlyWarning(d, ascii)
	}
	return ""
}

// warnASCIIReplacement warns when a website stored in Unicode or with a
// trailing dot is replaced because the configuration names its ASCII form:
// the same host to a browser, but another domain to the server, so the
// website and its statistics are deleted.
func warnASCIIReplacement(prior, planned types.String, diags *diag.Diagnostics) {
	ascii, ok := storedOnlyDomain(prior.ValueString())
	if !ok || planned.IsUnknown() || planned.ValueString() != ascii {
		return
	}
	diags.AddAttributeWarning(path.Root("domain"), "Replacing a Website for Its ASCII Domain",
		fmt.Sprintf("The website's stored domain is %q; domain = %q is its ASCII form, but a domain cannot change: "+
			"this plan deletes the website, with its statistics, and creates a new one. That new website records "+
			"pageviews, which the old one never did. To keep the old website as it is, set domain = %q.",
			prior.ValueString(), ascii, prior.ValueString()))
}

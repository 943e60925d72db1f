package provider

import (
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/net/idna"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// A domain in Unicode ("bücher.example"), ending with a dot
// ("shop.example.com."), or otherwise not a DNS host name ("my_shop.example.com",
// "01.2.3.4") can be one the server stores as written (created in the web
// interface, or through the API). A browser sends the page's host in ASCII
// (the WHATWG URL standard writes http://bücher.example/ as
// http://xn--bcher-kva.example/), without the trailing dot, and reads an
// IPv4 address's zero-padded parts as octal; the tracking endpoint matches
// the stored domain literally, so such a website records no pageview from a
// browser, and one that is no DNS host name can hardly be reached. The
// provider refuses a new website so, but an existing one is managed with its
// stored domain, with a warning: adopting it must never replace it (a
// replacement deletes its statistics).

// storedOnlyDomain reports whether d is such a domain: exactly as the
// server stores it (nothing to trim, nothing to rewrite) and accepts it, and
// refused by the strict host name check. A label before the last may hold
// anything but a line feed there: white space, "/", "?", or "@" after user
// information pasted with a URL (which the messages about such a domain
// leave out: quoteDomain). It returns the host a browser sends for the
// website's pages ("" when no browser can open one): d itself for an ASCII
// name a browser sends as it is.
func storedOnlyDomain(d string) (string, bool) {
	if d == "" || !utf8.ValidString(d) || laravel.Trim(d) != d || domainrule.Canonical(d) != d || !domainrule.Valid(d) ||
		isHostname(d) || isIPv4(d) {
		return "", false
	}
	return browserForm(strings.TrimSuffix(d, ".")), true
}

// browserForm is the host a browser sends for the host name t (the WHATWG
// URL standard's host parser): its domain to ASCII, then, when the last
// label is a number, the IPv4 address it reads; "" when it fails, as for a
// name with a forbidden domain code point (white space, a control
// character, "/?#:@<>[\]^|%" and the like).
func browserForm(t string) string {
	if strings.ContainsAny(t, "/?#:@<>[\\]^|%") || strings.ContainsFunc(t, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}) {
		return ""
	}
	ascii, err := browserHost.ToASCII(t)
	if err != nil || ascii == "" {
		return ""
	}
	labels := strings.Split(ascii, ".")
	if endsInNumber(labels[len(labels)-1]) {
		return whatwgIPv4(labels)
	}
	return ascii
}

// whatwgIPv4 is the WHATWG URL standard's IPv4 parser of a host's labels:
// a part is hexadecimal after "0x", octal after a leading "0", else
// decimal, and the last may fill the remaining bytes; "" on failure.
func whatwgIPv4(parts []string) string {
	if len(parts) > 4 {
		return ""
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
			p, base = p[2:], 16
		case len(p) >= 2 && p[0] == '0':
			p, base = p[1:], 8
		case p == "":
			return ""
		}
		if p == "" {
			continue // "0x" alone is 0
		}
		n, err := strconv.ParseUint(p, base, 64)
		if err != nil || n > math.MaxUint32 {
			return ""
		}
		nums[i] = n
	}
	var addr uint64
	for i, n := range nums {
		if i < len(nums)-1 {
			if n > 255 {
				return ""
			}
			addr |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(nums))) {
			return ""
		}
		addr += n
	}
	return netip.AddrFrom4([4]byte{byte(addr >> 24), byte(addr >> 16), byte(addr >> 8), byte(addr)}).String()
}

// browserHost is the host name a browser sends for a Unicode host: the
// WHATWG URL standard's domain to ASCII, which, unlike the strict lookup
// profile, neither applies the STD3 rules nor checks hyphens, so that
// "bücher_shop.example" and "-bücher.example" (which the server stores as
// written) have an ASCII form too.
var browserHost = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false))

// notHostName is what a DNS host name is, the fix of a domain that is not.
const notHostName = "dot-separated labels of letters, digits and hyphens, none starting or ending with a hyphen"

// storedOnlyWhy says what is wrong with such a domain d, whose browser
// form is b (storedOnlyDomain), and its summary: the website records no
// pageview, or (a name a browser sends as written) can hardly be reached.
func storedOnlyWhy(d, b string) (summary, why string) {
	q := quoteDomain(d)
	const noPageview = "The server stores it as written, but %s, and the tracking endpoint matches it against the " +
		"stored domain literally: a website with this domain records no pageview from a browser."
	t := strings.TrimSuffix(d, ".")
	switch {
	case b == d:
		return "Not a Host Name", fmt.Sprintf("The domain %s is not a valid host name (DNS names are %s), so a "+
			"website with it can likely not be reached, though the server stores it as written and a browser that "+
			"reaches it sends it so.", q, notHostName)
	case b == "":
		return "No Pageviews", fmt.Sprintf("The domain %s is no host a browser can open (the WHATWG URL standard "+
			"refuses it). "+noPageview, q, "no browser sends it")
	case strings.Trim(t, "0123456789.") == "" && b != t:
		return "No Pageviews", fmt.Sprintf("The domain %s is an IPv4 address written with a leading zero, which a "+
			"browser reads as octal (the WHATWG URL standard): it sends %q. "+noPageview, q, b, "a browser sends "+
			"the address it reads")
	case isIPv4(b) && b != t:
		return "No Pageviews", fmt.Sprintf("The domain %s ends in a hexadecimal number (\"0x\"), which makes it an "+
			"IPv4 address to a browser (the WHATWG URL standard): it sends %q. "+noPageview, q, b, "a browser sends "+
			"the address it reads")
	}
	what := "is in Unicode"
	switch {
	case t != d && t == b:
		what = "ends with a dot"
	case t != d:
		what = "is in Unicode and ends with a dot"
	}
	return "No Pageviews", fmt.Sprintf("The domain %s %s. "+noPageview, q, what, fmt.Sprintf("a browser sends a "+
		"page's host in ASCII (punycode) and without a trailing dot, here %q", b))
}

// advisedDomain is the domain to advise instead of such a domain whose
// browser form is b: b when the provider accepts it, else "".
func advisedDomain(b string) string {
	if !acceptedHost(b) {
		return ""
	}
	return b
}

// acceptedHost reports whether domainProblem(h) is "" for h, a lower-case
// ASCII host name, without calling it (which would advise again).
func acceptedHost(h string) bool {
	return h != "" && len(h) <= maxDomainLength && canonicalDomain(h) == h && (isHostname(h) || isIPv4(h)) &&
		!serverRefuses(h)
}

// hostNameLike is a host name close to b, a name a browser sends: "_"
// written "-", hyphens and empty labels at the ends of labels removed; ""
// when that is no host name the provider accepts.
func hostNameLike(b string) string {
	var labels []string
	for l := range strings.SplitSeq(strings.ReplaceAll(b, "_", "-"), ".") {
		if l = strings.Trim(l, "-"); l != "" {
			labels = append(labels, l)
		}
	}
	if h := strings.Join(labels, "."); acceptedHost(h) {
		return h
	}
	return ""
}

// pageviewsProblem is the refusal of such a domain for a new website (the
// canonical form's problem).
func pageviewsProblem(d, b string) string {
	_, why := storedOnlyWhy(d, b)
	fix := "Set it to the website's host name: " + notHostName + ", e.g. \"www2.example.com\"."
	if a := advisedDomain(b); a != "" {
		fix = fmt.Sprintf("Set domain = %q.", a)
	} else if h := hostNameLike(b); h != "" {
		fix = fmt.Sprintf("Set it to the website's host name, e.g. domain = %q.", h)
	}
	return why + " " + fix + " (A website that already has this domain can be imported and managed with it; see " +
		"the guide on adopting existing websites.)"
}

// storedOnlyWarning is the warning of an existing website with such a
// domain: it is managed as it is, and how to move it.
func storedOnlyWarning(d, b string) string {
	_, why := storedOnlyWhy(d, b)
	instead := "under a valid host name (" + notHostName + ")"
	if a := advisedDomain(b); a != "" {
		instead = fmt.Sprintf("with domain = %q", a)
	} else if h := hostNameLike(b); h != "" {
		instead = fmt.Sprintf("under a valid host name, e.g. domain = %q", h)
	}
	return why + " A website's domain cannot change. To move it, create a new website " + instead + ", and if this " +
		"website's statistics matter, export them first (the analytics_website_statistics_export action): deleting " +
		"the website deletes them."
}

// checkNewStoredOnlyDomain refuses, at plan time, a website about to be
// created (new, or the new one of a replacement) with such a domain.
func checkNewStoredOnlyDomain(domain types.String, diags *diag.Diagnostics) {
	if domain.IsNull() || domain.IsUnknown() {
		return
	}
	if b, ok := storedOnlyDomain(domain.ValueString()); ok {
		summary, _ := storedOnlyWhy(domain.ValueString(), b)
		diags.AddAttributeError(path.Root("domain"), errorSummary(summary),
			"This plan creates a website with this domain. "+domainProblem(domain.ValueString()))
	}
}

// warnStoredOnlyDomain warns, at plan time, about a website in the state
// (imported, or adopted) that keeps such a domain.
func warnStoredOnlyDomain(domain types.String, diags *diag.Diagnostics) {
	if summary, n := storedOnlyNotice(domain.ValueString()); n != "" && !domain.IsUnknown() {
		diags.AddAttributeWarning(path.Root("domain"), summary, n)
	}
}

// storedOnlyNotice is the domain validator's warning for such a domain,
// summary and detail: it names an existing website (imported, or looked
// up), which is managed as it is.
func storedOnlyNotice(d string) (string, string) {
	if b, ok := storedOnlyDomain(d); ok {
		summary, _ := storedOnlyWhy(d, b)
		return warningSummary(summary), storedOnlyWarning(d, b)
	}
	return "", ""
}

// errorSummary and warningSummary are the summaries of the refusal and the
// warning of storedOnlyWhy's kind.
func errorSummary(kind string) string {
	if kind == "Not a Host Name" {
		return "Domain Is Not a Host Name"
	}
	return "Domain Records No Pageviews"
}

func warningSummary(kind string) string {
	if kind == "Not a Host Name" {
		return "Website Domain Is Not a Host Name"
	}
	return "Website Records No Pageviews"
}

// warnASCIIReplacement warns when a website stored in Unicode, with a
// trailing dot or as an address a browser reads otherwise is replaced
// because the configuration names the form a browser sends:
// the same host to a browser, but another domain to the server, so the
// website and its statistics are deleted.
func warnASCIIReplacement(prior, planned types.String, diags *diag.Diagnostics) {
	ascii, ok := storedOnlyDomain(prior.ValueString())
	if !ok || ascii == "" || ascii == prior.ValueString() || planned.IsUnknown() || planned.ValueString() != ascii {
		return
	}
	summary, form := "Replacing a Website for Its ASCII Domain", "its ASCII form"
	if isIPv4(ascii) {
		// "01.2.3.4", "1.2.3.0x4": ASCII already, read as an address.
		summary, form = "Replacing a Website for Its IPv4 Address", "the IPv4 address a browser reads from it"
	}
	diags.AddAttributeWarning(path.Root("domain"), summary,
		fmt.Sprintf("The website's stored domain is %q; domain = %q is %s, but a domain cannot change: "+
			"this plan deletes the website, with its statistics, and creates a new one. That new website records "+
			"pageviews, which the old one never did. To keep the old website as it is, set domain = %q.",
			prior.ValueString(), ascii, form, prior.ValueString()))
}

// quoteDomain quotes a domain the server holds for a message: without the
// text before its last "@", which may be a password (a URL with user
// information pasted into the web interface).
func quoteDomain(d string) string {
	if i := strings.LastIndex(d, "@"); i >= 0 {
		return strconv.Quote("…" + d[i:])
	}
	return strconv.Quote(d)
}

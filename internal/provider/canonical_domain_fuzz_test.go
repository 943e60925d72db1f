package provider

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// FuzzCanonicalDomain: canonical_domain (canonicalDomainOf) and the domain
// validator (domainProblem) are one rule. For any input: no panic; a result
// is a domain the validator accepts (ASCII, at most 255 bytes) and its own
// canonical form (idempotent); the validator accepts a value exactly when
// canonical_domain returns it unchanged, and only warns (naming the form a
// browser sends, if any) about a domain the server stores as written that
// the strict check refuses (storedOnlyDomain: Unicode, a trailing dot, an
// "_", a zero-padded IPv4 address); any other refusal is an error on domain
// that names it; a suggestion the validator makes (Set domain = "...") is
// itself accepted, and is canonical_domain's result when there is one.
func FuzzCanonicalDomain(f *testing.F) {
	for _, tc := range canonicalCases {
		f.Add(tc.in)
	}
	// Stored as written (a warning), or trimmed by the server (an error).
	for _, s := range []string{"bücher.example", "shop.example.com.", "bücher.example.", "\ufeffexample.com",
		"bücher.example\u200b", "exam\u00adple.com", "İzmir.example", "ΟΔΟΣ.example", "İ.example",
		"aİb.example", "aẞb.example", "aẞb.example/x", "aẞb.example..", "bücher_shop.example", "-bücher.example",
		"my_shop.example.com", "01.2.3.4", "08.1.1.1", "1.2.3.4.", "example.123.", "ü.123.", "\u0301bücher.example",
		"b\u200dücher.example", "example.0x1f", "a..example.com", "example.com\u180e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, problem := canonicalDomainOf(in)
		if (out == "") == (problem == "") {
			t.Fatalf("canonicalDomainOf(%q) = %q, %q: exactly one of the two must be set", in, out, problem)
		}
		if problem == "" {
			if p := domainProblem(out); p != "" {
				t.Errorf("canonicalDomainOf(%q) = %q, which the validator refuses: %s", in, out, p)
			}
			if again, p := canonicalDomainOf(out); again != out || p != "" {
				t.Errorf("not idempotent: canonicalDomainOf(%q) = %q, then %q, %q", in, out, again, p)
			}
			if len(out) > maxDomainLength || strings.ContainsFunc(out, func(r rune) bool { return r > unicode.MaxASCII }) {
				t.Errorf("canonicalDomainOf(%q) = %q: not ASCII or longer than %d", in, out, maxDomainLength)
			}
		}
		accepted := domainProblem(in) == ""
		if accepted != (problem == "" && out == in) {
			t.Errorf("%q: the validator accepts it: %v, canonical_domain gives %q, %q", in, accepted, out, problem)
		}
		diags := validateString(domainValidator(), path.Root("domain"), in)
		ascii, storedOnly := storedOnlyDomain(in)
		if diags.HasError() == (accepted || storedOnly) {
			t.Errorf("%q: the validator's errors (%v) disagree with domainProblem", in, diags)
		}
		if storedOnly {
			// Stored as written: the validator only warns, naming the
			// form a browser sends (if any).
			if accepted || !domainrule.Valid(in) || laravel.Trim(in) != in || domainrule.Canonical(in) != in ||
				(problem == "" && ascii != out) || len(diags) != 1 ||
				diags[0].Severity() != diag.SeverityWarning || ascii != "" && !strings.Contains(diags[0].Detail(), fmt.Sprintf("%q", ascii)) {
				t.Errorf("%q: stored only, as %q: accepted %v, server %v, canonical %q, %v", in, ascii, accepted,
					domainrule.Valid(in), out, diags)
			}
		} else {
			checkRefusals(t, diags, path.Root("domain"), in)
		}
		for _, d := range diags {
			if _, s, ok := strings.Cut(d.Detail(), "Set domain = \""); ok {
				suggested, _, _ := strings.Cut(s, "\"")
				if p := domainProblem(suggested); p != "" {
					t.Errorf("%q: the suggestion %q is refused: %s", in, suggested, p)
				}
				if problem == "" && suggested != out {
					t.Errorf("%q: the validator suggests %q, canonical_domain gives %q", in, suggested, out)
				}
			}
		}
	})
}

// FuzzDomainCredentials: a URL with user information, given to
// canonical_domain or as a domain: whatever the scheme, the password (drawn
// by the fuzzer, with a "/", "?", "#", "@" or white space in it that ends
// the user information early for a URL parser) and the host, no message
// and no log line holds a piece of the password in any form; the domain is
// refused, or (the server stores it as written) warned about.
func FuzzDomainCredentials(f *testing.F) {
	f.Add("https", "", "", "www.example.com/path", fuzzSecret)
	f.Add("ftp", "", "", "example.com", fuzzSecret)
	f.Add("https", "a/", "", "example.com", fuzzSecret)
	f.Add("https", "", "/x", "example.com", fuzzSecret)
	f.Add("", "", " ", "example.com", fuzzSecret)
	f.Add("https", "x@", "", "exa mple.com", fuzzSecret)
	f.Add("HTTP", "", "?q", "example.com:8080", fuzzSecret)
	f.Add("https", "", "", "[2001:db8::1]", fuzzSecret)
	f.Add("", "", ".com/", "München.de", fuzzSecret)
	f.Add("https", "2024/", "", "example.com", `P+w="\<&x y`)
	f.Fuzz(func(t *testing.T, scheme, before, after, host, core string) {
		pw := before + core + after
		in := "user:" + pw + "@" + host
		if scheme != "" {
			in = scheme + "://" + in
		}
		_, problem := canonicalDomainOf(in)
		diags, logs := validateStringLogged(domainValidator(), path.Root("domain"), in)
		// The scheme and the host may be quoted: a password sharing a
		// piece with them is not checked.
		secretCheck{secret: pw, clean: []string{scheme, host}}.check(t, in, diags, logs, problem)
		if _, storedOnly := storedOnlyDomain(in); storedOnly {
			// As the web interface stores a pasted URL: a warning, for a
			// website that has it.
			if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning {
				t.Errorf("%q: a domain the server stores as written: want one warning, got %v", in, diags)
			}
			return
		}
		checkRefusals(t, diags, path.Root("domain"), in)
	})
}

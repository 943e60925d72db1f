package provider

import (
	"context"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// validateSet runs a set validator on entries at the attribute attr.
func validateSet(v validator.Set, attr path.Path, entries []string) diag.Diagnostics {
	resp := &validator.SetResponse{}
	v.ValidateSet(context.Background(), validator.SetRequest{
		Path: attr, PathExpression: attr.Expression(), ConfigValue: stringSetValue(entries),
	}, resp)
	return resp.Diagnostics
}

// distinct is a and b, once each.
func distinct(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// FuzzExcludeIPs: the entries of exclude_ips (excludeIPsValidator,
// normalizeIPEntry). For any two entries: no panic; every refusal is an
// error on exclude_ips that names it; an accepted entry has a canonical
// form that is its own (idempotent) and denotes the same address or range
// (parse, print, parse); two accepted entries are refused as duplicates
// exactly when their canonical forms are equal; accepted entries survive
// the trip to the server and back (one per line, SplitLines); the read of
// the two as the server may store them, in either order and repeated
// (foldIPEntries), keeps the first spelling of each, is refused as
// duplicates by nothing, and folds only what the validator calls the same.
func FuzzExcludeIPs(f *testing.F) {
	for _, p := range [][2]string{{"203.0.113.7", "2001:db8::1"}, {"10.0.0.0/8", "10.1.2.3/8"}, {"::ffff:1.2.3.4", "1.2.3.4"},
		{"2001:DB8::1", "2001:db8::1"}, {"fe80::1%eth0", ""}, {"1.2.3.4 ", "1.2.3.4\n5.6.7.8"}, {"1.2.3.4/33", "01.2.3.4"},
		{"::/0", "0.0.0.0/0"}, {"1.2.3.4/32", "1.2.3.4"}} {
		f.Add(p[0], p[1])
	}
	at := path.Root("exclude_ips")
	f.Fuzz(func(t *testing.T, a, b string) {
		entries := distinct(a, b)
		diags := validateSet(excludeIPsValidator, at, entries)
		checkRefusals(t, diags, at, strings.Join(entries, ", "))
		var norms []string
		for _, e := range entries {
			norm, problem := normalizeIPEntry(e)
			if problem != "" {
				continue
			}
			if again, p := normalizeIPEntry(norm); again != norm || p != "" {
				t.Errorf("%q: canonical form %q is not its own: %q, %q", e, norm, again, p)
			}
			if strings.Contains(e, "/") {
				p1, p2 := netip.MustParsePrefix(e).Masked(), netip.MustParsePrefix(norm)
				if p1 != p2 {
					t.Errorf("%q: canonical form %q is another range", e, norm)
				}
			} else if netip.MustParseAddr(e) != netip.MustParseAddr(norm) {
				t.Errorf("%q: canonical form %q is another address", e, norm)
			}
			norms = append(norms, norm)
		}
		dup := len(norms) == 2 && norms[0] == norms[1]
		if got := slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return d.Summary() == "Duplicate IP Exclusion" }); got != dup {
			t.Errorf("%q: refused as duplicates: %v; canonical forms %q", entries, got, norms)
		}
		if len(norms) == len(entries) && !diags.HasError() {
			if got := client.SplitLines(strings.Join(entries, "\n")); !slices.Equal(got, entries) {
				t.Errorf("%q: the server's list reads back as %q", entries, got)
			}
		}
		back := slices.Clone(entries)
		slices.Reverse(back)
		stored := append(slices.Clone(entries), back...)
		folded := foldIPEntries(stored)
		want := entries
		if dup {
			want = entries[:1]
		}
		if !slices.Equal(folded, want) {
			t.Errorf("%q stored: read as %q, want %q", stored, folded, want)
		}
		if slices.ContainsFunc(validateSet(excludeIPsValidator, at, folded), func(d diag.Diagnostic) bool { return d.Summary() == "Duplicate IP Exclusion" }) {
			t.Errorf("%q stored: read as %q, which the validator calls duplicates", stored, folded)
		}
	})
}

// FuzzExcludeParams: the entries of exclude_params (excludeParamsValidator,
// paramProblem). For any two entries: no panic; every refusal is an error
// on exclude_params that names it; accepted entries are single names that
// survive the trip to the server (one per line) and its split.
func FuzzExcludeParams(f *testing.F) {
	for _, p := range [][2]string{{"utm_source", "fbclid"}, {"&", "utm_source"}, {"a=b", "a&b"}, {"", " "},
		{"a\nb", "a\rb"}, {"\u2028", "x\u0085"}, {"?", "#"}, {"ref", "ref"}, {"\ufeffref", "utm\u200b"}} {
		f.Add(p[0], p[1])
	}
	at := path.Root("exclude_params")
	f.Fuzz(func(t *testing.T, a, b string) {
		entries := distinct(a, b)
		diags := validateSet(excludeParamsValidator, at, entries)
		checkRefusals(t, diags, at, strings.Join(entries, ", "))
		if diags.HasError() {
			return
		}
		for _, e := range entries {
			if p := paramProblem(e); p != "" {
				t.Errorf("%q: accepted in the set, refused alone: %s", e, p)
			}
		}
		// The server trims the field at both ends (TrimStrings) before it
		// stores it.
		if got := client.SplitLines(laravel.Trim(strings.Join(entries, "\n"))); !slices.Equal(got, entries) {
			t.Errorf("%q: the server's list reads back as %q", entries, got)
		}
	})
}

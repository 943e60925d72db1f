package provider

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// FuzzHeldIPs: the plan's check of exclude_ips against the list the server
// holds (checkInertIPs), for up to three entries that pass the validator,
// the ones in held as the server holds them. No panic; every error is on
// exclude_ips and names it; an entry that is no address or range is
// refused exactly when the server does not hold it, and warned about when
// it does; a list the check accepts and the plan writes (a new website's,
// or another list than held) is stored as sent: joined in the order
// the client sends (laravel.KeptOrder), trimmed by the server and split on
// read (client.SplitLines), it reads back as the same entries.
func FuzzHeldIPs(f *testing.F) {
	for _, s := range [][3]string{{"10.0.0.300", "1.2.3.4 ", " 5.6.7.8"}, {" ", "1.2.3.4", ""}, {" 1.2.3.4", "", ""},
		{"a ", " b", "\u00a0c\u00a0"}, {"1.2.3.4", "10.0.0.0/8", "2001:db8::1"}, {"\xff ", "1.2.3.4", ""}} {
		f.Add(s[0], s[1], s[2], uint8(0b0111))
		f.Add(s[0], s[1], s[2], uint8(0b0010))
		f.Add(s[0], s[1], s[2], uint8(0b1111))
	}
	at := path.Root("exclude_ips")
	f.Fuzz(func(t *testing.T, a, b, c string, held uint8) {
		var entries, heldEntries []string
		for i, e := range []string{a, b, c} {
			if e == "" && i > 0 || slices.Contains(entries, e) {
				continue
			}
			entries = append(entries, e)
			if held&(1<<i) != 0 && e != "" && !strings.ContainsAny(e, "\n\r") { // what a read returns
				heldEntries = append(heldEntries, e)
			}
		}
		if validateSet(excludeIPsValidator, at, entries).HasError() {
			return // refused before any plan
		}
		var diags diag.Diagnostics
		heldSet := types.SetNull(types.StringType)
		if heldEntries != nil {
			heldSet = stringSetValue(heldEntries)
		}
		checkInertIPs(stringSetValue(entries), heldSet, &diags)
		input := strings.Join(entries, ", ")
		checkRefusals(t, diags.Errors(), at, input)
		warned := diags.WarningsCount() > 0
		inert := false
		for _, e := range entries {
			if _, problem := normalizeIPEntry(e); problem != "" {
				inert = true
				refused := slices.ContainsFunc(diags.Errors(), func(d diag.Diagnostic) bool {
					return strings.HasPrefix(d.Detail(), "In exclude_ips, "+strconv.Quote(e)+" ")
				})
				if slices.Contains(heldEntries, e) == refused {
					t.Errorf("%q (held %q): %q is no address; refused %v, want refused exactly when not held: %v",
						entries, heldEntries, e, refused, diags)
				}
			}
		}
		if warned && !inert {
			t.Errorf("%q: a warning without an entry that never matches: %v", entries, diags)
		}
		if diags.HasError() || heldEntries != nil && sameStrings(entries, heldEntries) {
			return // refused, or not written: the server keeps what it holds
		}
		lines, ok := laravel.KeptOrder(entries)
		if !ok {
			t.Fatalf("%q: accepted, but no order of its lines survives the server's trimming", entries)
		}
		if got := client.SplitLines(laravel.Trim(strings.Join(lines, "\n"))); !sameStrings(got, entries) {
			t.Errorf("%q: sent as %q, read back as %q", entries, lines, got)
		}
	})
}

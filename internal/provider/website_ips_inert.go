package provider

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// An exclude_ips entry that is no address or range ("10.0.0.300", or an
// address with stray spaces) never matches: the tracker checks each line
// as an IP or CIDR range and ignores the rest. The provider never adds one,
// but the web interface stores whatever is typed, and a configuration that
// copies what the server holds (the adoption guide's recipe) must still
// plan. So an entry the prior state holds as written is kept, with a
// warning; any other is refused.

// checkInertIPs checks, at plan time, the planned exclude_ips against
// held, the list the server holds for the website the plan updates (null
// for a new website: a create, a replacement, a tainted website): it
// refuses an entry that is no address or range unless held has it as
// written, and warns about those it keeps. A list the plan writes (a new
// website's, or another list than held) is refused when the server's
// trimming would change it (white space at the ends of entries that no
// order of the lines keeps inside).
func checkInertIPs(planned, held types.Set, diags *diag.Diagnostics) {
	entries, ok := knownStrings(planned)
	if !ok {
		return
	}
	heldEntries, _ := knownStrings(held)
	has := make(map[string]bool, len(heldEntries))
	for _, s := range heldEntries {
		has[s] = true
	}
	at := path.Root("exclude_ips")
	var inert []string
	for _, s := range entries {
		_, problem := normalizeIPEntry(s)
		switch {
		case problem == "":
		case has[s]:
			inert = append(inert, strconv.Quote(s))
		case held.IsNull():
			diags.AddAttributeError(at, "Invalid IP Exclusion", "In exclude_ips, "+problem+". This plan creates a "+
				"website (new, a replacement, or a tainted website's), which gets no entry that never matches, even "+
				"one the server holds for the website it replaces. Correct or remove it. For a tainted website that "+
				"should stay, run terraform untaint <this resource's address> instead.")
		default:
			diags.AddAttributeError(at, "Invalid IP Exclusion", "In exclude_ips, "+problem+".")
		}
	}
	if len(inert) > 0 {
		diags.AddAttributeWarning(at, "IP Exclusion Never Matches", fmt.Sprintf("The website's exclude_ips holds "+
			"%s, as stored on the server (typed in the web interface). The server matches each entry as an IPv4 or "+
			"IPv6 address or CIDR range and silently ignores any other, so hits from the address meant are tracked. "+
			"It is kept as it is; correct or remove it in the configuration to fix it.", strings.Join(inert, ", ")))
	}
	written := held.IsNull() || !sameStrings(entries, heldEntries)
	if _, ok := laravel.KeptOrder(entries); written && !ok && !diags.HasError() {
		diags.AddAttributeError(at, "Invalid IP Exclusion", "In exclude_ips, the entries with white space at their "+
			"ends cannot be stored as written: the server removes white space at both ends of the list, and no order of "+
			"its lines keeps it inside. Remove the white space, or the entries.")
	}
}

// knownStrings is the elements of a known set of strings; false when the
// set or an element is null or unknown.
func knownStrings(set types.Set) ([]string, bool) {
	if set.IsNull() || set.IsUnknown() {
		return nil, false
	}
	var out []string
	for _, e := range set.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			return nil, false
		}
		out = append(out, s.ValueString())
	}
	return out, true
}

// sameStrings reports whether a and b hold the same strings, in any order.
func sameStrings(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// storableIPs reports whether a known exclude_ips list has an order of its
// lines that the server's trimming keeps (laravel.KeptOrder): a write-back
// of a list that has none would store other entries.
func storableIPs(ips types.Set) bool {
	entries, ok := knownStrings(ips)
	if !ok {
		return false
	}
	_, ok = laravel.KeptOrder(entries)
	return ok
}

package provider

import (
	"fmt"
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
// held, the list the server holds (the prior state's; null for a new
// website): it refuses an entry that is no address or range unless held
// has it as written, warns about those it keeps, and refuses a list that
// the server's trimming would change (white space at the ends of entries
// that no order of the lines keeps inside).
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
	if _, ok := laravel.KeptOrder(entries); !ok && !diags.HasError() {
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

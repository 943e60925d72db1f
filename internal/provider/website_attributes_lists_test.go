package provider

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// trimmedByTheServer are values with white space of each kind that the
// application's TrimStrings takes at either end (internal/laravel).
var trimmedByTheServer = []string{" x", "x ", "\tx", "x\n", "\u00a0x", "x\u3000", "\ufeffx", "x\u200b", "x\u0085", "\u180ex"}

// guardBase is a value that an attribute's validators accept, which the
// guards put white space around ("x" for one not named): on a value refused
// anyway, a guard would not see whether the white space is refused.
var guardBase = map[string]string{"domain": "example.com", "privacy": "public", "exclude_ips": "192.0.2.1"}

// baseOf is the attribute's guardBase, "x" for one not named.
func baseOf(name string) string {
	if base, ok := guardBase[name]; ok {
		return base
	}
	return "x"
}

// trimmedOnBase is trimmedByTheServer on the attribute's guardBase, which
// its validators (refuses) must accept.
func trimmedOnBase(t *testing.T, name string, refuses func(string) bool) []string {
	t.Helper()
	base := baseOf(name)
	if refuses(base) {
		t.Errorf("%s: its validators refuse %q, the value this guard puts white space around, so it cannot see "+
			"whether they refuse the white space: name a value they accept in guardBase (website_attributes_lists_test.go)",
			name, base)
	}
	values := make([]string, 0, len(trimmedByTheServer))
	for _, v := range trimmedByTheServer {
		values = append(values, strings.Replace(v, "x", base, 1))
	}
	return values
}

// listSeparators are the separators that the held sets of strings are
// joined with in their API field.
var listSeparators = map[string]string{
	"exclude_ips":    "\n", // client.WebsiteInput's []string is sent one per line, read back by client.SplitLines
	"exclude_params": "\n", // sent one per line (never returned)
}

// The list twin of TestWebsiteAttributes_stringsRefuseWhatTheServerRewrites:
// a set of strings the API holds travels as one string field, its entries
// joined by a separator (a line break for exclude_ips and exclude_params; a
// comma for a comma list), which the server trims at both ends, stores as
// NULL when empty, and the client splits again when it reads the field back.
// An entry that is empty, has white space at either end or holds a separator
// comes back otherwise (Terraform fails the apply with "Provider produced
// inconsistent result" after the server changed) or, for a field the API
// never returns, is stored as another list than the plan shows. So each
// such entry must fail at plan time, in the attribute's validators.
func TestWebsiteAttributes_listEntriesRefuseWhatTheServerRewrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, a := range websiteAttributes {
		// refuses reports whether the attribute's validators refuse a
		// configuration holding the one entry (nil: not a set or a list
		// of strings).
		var refuses func(entry string) bool
		switch sa := a.resource.(type) {
		case schema.SetAttribute:
			if sa.ElementType.Equal(types.StringType) {
				refuses = func(entry string) bool {
					set := types.SetValueMust(types.StringType, []attr.Value{types.StringValue(entry)})
					config := configWith(t, a.name, tftypes.NewValue(tftypes.Set{ElementType: tftypes.String},
						[]tftypes.Value{tftypes.NewValue(tftypes.String, entry)}))
					refused := false
					for _, vd := range sa.Validators {
						resp := validator.SetResponse{}
						vd.ValidateSet(ctx, validator.SetRequest{Path: path.Root(a.name), PathExpression: path.MatchRoot(a.name),
							ConfigValue: set, Config: config}, &resp)
						refused = refused || resp.Diagnostics.HasError()
					}
					return refused
				}
			}
		case schema.ListAttribute:
			if sa.ElementType.Equal(types.StringType) {
				refuses = func(entry string) bool {
					list := types.ListValueMust(types.StringType, []attr.Value{types.StringValue(entry)})
					config := configWith(t, a.name, tftypes.NewValue(tftypes.List{ElementType: tftypes.String},
						[]tftypes.Value{tftypes.NewValue(tftypes.String, entry)}))
					refused := false
					for _, vd := range sa.Validators {
						resp := validator.ListResponse{}
						vd.ValidateList(ctx, validator.ListRequest{Path: path.Root(a.name), PathExpression: path.MatchRoot(a.name),
							ConfigValue: list, Config: config}, &resp)
						refused = refused || resp.Diagnostics.HasError()
					}
					return refused
				}
			}
		}
		if refuses == nil || !a.held() {
			continue
		}
		sep, named := listSeparators[a.name]
		if !named {
			t.Errorf("%s: a set or list of strings the API holds as one field: name the separator its entries are joined with "+
				"in listSeparators (website_attributes_lists_test.go), and refuse entries that hold it", a.name)
			continue
		}
		trimmed := trimmedOnBase(t, a.name, refuses)
		base := baseOf(a.name)
		entries := map[string]string{
			"":                "an empty entry (dropped when the list is split)",
			base + sep + base: "an entry holding the separator " + strconv.Quote(sep) + " (two entries when split)",
		}
		if sep == "\n" {
			// One per line is split on CR too (client.SplitLines, and the
			// application's preg_split).
			entries[base+"\r"+base] = "an entry holding a carriage return (two entries when split into lines)"
		}
		for _, v := range trimmed { // the first or last entry loses it
			if a.name == "exclude_ips" {
				// Kept when the server holds it, else refused at plan time
				// (checkInertIPs, TestAccWebsite_webTypedIPsPlan).
				break
			}
			entries[v] = "an entry with white space at an end that the server trims (internal/laravel)"
		}
		for entry, what := range entries {
			if !refuses(entry) {
				t.Errorf("%s: the configuration may hold %s (%q), which the server does not store as one entry: refuse it "+
					"at plan time with a validator of the set or list in its schema (internal/provider/website_attributes.go; "+
					"the checks live in internal/provider/validators.go, e.g. setCheck as excludeIPsValidator)",
					a.name, what, entry)
			}
		}
	}
}

package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// FuzzStatisticsDates: from and to of analytics_website_statistics
// (dateValidator, validateStatisticsRange). For any two values: no panic;
// a date is accepted exactly when it reads as a date that prints back to
// itself (YYYY-MM-DD, round trip); a refusal is an error on the attribute
// that names it; two accepted dates are refused as a range exactly when
// the range, counted in calendar days, is empty or longer than
// maxStatisticsDays, the error is on to, names from and to, and a count it
// states is the true count.
func FuzzStatisticsDates(f *testing.F) {
	for _, p := range [][2]string{{"2025-01-01", "2025-01-31"}, {"2025-01-31", "2025-01-01"}, {"2025-02-29", "2024-02-29"},
		{"0001-01-01", "9999-12-31"}, {"2015-01-01", "2025-01-01"}, {"2025-1-1", "2025-01-01T00:00:00Z"}, {"", " 2025-01-01"},
		{"1000-01-01", "1010-01-08"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, from, to string) {
		for _, v := range []struct{ attr, value string }{{"from", from}, {"to", to}} {
			at := path.Root(v.attr)
			diags := validateString(dateValidator(), at, v.value)
			checkRefusals(t, diags, at, v.value)
			d, ok := parseDate(v.value)
			if ok != !diags.HasError() || (ok && d.Format("2006-01-02") != v.value) {
				t.Errorf("%s = %q: accepted %v, reads as %v", v.attr, v.value, !diags.HasError(), d)
			}
		}
		var diags diag.Diagnostics
		validateStatisticsRange(&diags, types.StringValue(from), types.StringValue(to))
		fd, okF := parseDate(from)
		tt, okT := parseDate(to)
		if !okF || !okT {
			if diags.HasError() {
				t.Errorf("%q to %q: a range of an invalid date is refused: %v", from, to, diags)
			}
			return
		}
		days := (tt.Unix()-fd.Unix())/86400 + 1
		if want := days < 1 || days > maxStatisticsDays; diags.HasError() != want {
			t.Errorf("%q to %q (%d days): refused %v", from, to, days, diags.HasError())
		}
		for _, d := range diags {
			if wp, ok := d.(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(path.Root("to")) ||
				!strings.Contains(d.Detail(), "from") || !strings.Contains(d.Detail(), "to") {
				t.Errorf("%q to %q: the error is not on to naming from and to: %s", from, to, d.Detail())
			}
			if days > maxStatisticsDays && !strings.Contains(d.Detail(), fmt.Sprintf("spans %d days", days)) {
				t.Errorf("%q to %q: %d days, but the message says: %s", from, to, days, d.Detail())
			}
		}
	})
}

// FuzzStatisticsDimension: dimension of analytics_website_statistics, with
// the schema's own validators. For any value: no panic; it is accepted
// exactly when it is one of the statistics a dimension can be; a refusal
// is an error on dimension that names it.
func FuzzStatisticsDimension(f *testing.F) {
	for _, s := range append(statisticsDimensions(), "pageviews", "visitors", "", "Browser", "browser ", "nope") {
		f.Add(s)
	}
	var resp datasource.SchemaResponse
	(&websiteStatisticsDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	attr, ok := resp.Schema.Attributes["dimension"].(schema.StringAttribute)
	if !ok {
		f.Fatal("dimension is not a string attribute")
	}
	at := path.Root("dimension")
	f.Fuzz(func(t *testing.T, in string) {
		var diags diag.Diagnostics
		for _, v := range attr.Validators {
			diags.Append(validateString(v, at, in)...)
		}
		checkRefusals(t, diags, at, in)
		if want := slices.Contains(statisticsDimensions(), in); diags.HasError() == want {
			t.Errorf("dimension %q: accepted %v, want %v", in, !diags.HasError(), want)
		}
	})
}

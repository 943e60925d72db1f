package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The plan-time rules of the analytics_website_statistics data source (the
// website's are in validators.go, the provider's in validators_provider.go):
// the dates and the range they span. The query they check (its bounds,
// dates and dimensions) is in statistics_query.go.

// dateValidator accepts a calendar date written YYYY-MM-DD.
func dateValidator() validator.String {
	return stringCheck{
		description: "must be a date written YYYY-MM-DD",
		summary:     "Invalid Date",
		problem: func(attr path.Path, v string) string {
			if _, ok := parseDate(v); ok {
				return ""
			}
			return fmt.Sprintf("%s = %q is not a date written YYYY-MM-DD, e.g. \"2025-01-31\" (four-digit year, "+
				"two-digit month and day, a day that exists, no time).", attr, v)
		},
	}
}

// validateStatisticsRange checks, at plan time, that the configured from
// comes no later than to and that the range spans at most
// maxStatisticsDays. Unknown and missing dates, and those dateValidator
// refuses, are left to the other rules.
func validateStatisticsRange(diags *diag.Diagnostics, from, to types.String) {
	if from.IsNull() || from.IsUnknown() || to.IsNull() || to.IsUnknown() {
		return
	}
	f, okF := parseDate(from.ValueString())
	t, okT := parseDate(to.ValueString())
	if !okF || !okT {
		return
	}
	switch n := daysBetween(f, t); {
	case n < 1:
		diags.AddAttributeError(path.Root("to"), "Invalid Date Range",
			fmt.Sprintf("from = %q comes after to = %q: the range is read from the first date to the second, both "+
				"included. Swap them, or set days instead for a window ending today.", from.ValueString(), to.ValueString()))
	case n > maxStatisticsDays:
		diags.AddAttributeError(path.Root("to"), "Date Range Too Long",
			fmt.Sprintf("from = %q to %q spans %d days; the data source reads at most %d (about ten years), since daily "+
				"holds one element per day. Read a shorter range, or several ranges with several data sources.",
				from.ValueString(), to.ValueString(), n, maxStatisticsDays))
	}
}

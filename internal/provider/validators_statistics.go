package provider

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The plan-time rules of the analytics_website_statistics data source (the
// website's are in validators.go, the provider's in validators_provider.go):
// the dates, the range they span and the dimension.

// Bounds of the statistics data source's range.
const (
	// defaultStatisticsDays is the window read when neither days nor
	// from/to is set.
	defaultStatisticsDays = 30
	// maxStatisticsDays caps the days of a range: daily holds one element
	// per day (ten years are 3,653 days).
	maxStatisticsDays = 3660
	// defaultStatisticsLimit is the number of top values when limit is
	// not set.
	defaultStatisticsLimit = 10
)

// statisticsDimensions are the statistics names a dimension can be: every
// name of GET /stats/{id} but the two the data source always reads.
func statisticsDimensions() []string {
	var out []string
	for _, n := range client.StatisticNames {
		if n != client.StatisticPageviews && n != client.StatisticVisitors {
			out = append(out, n)
		}
	}
	return out
}

// quotedList writes names as Markdown code, comma-separated: "`a`, `b`".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// parseDate reads a calendar date written YYYY-MM-DD (and no other way: no
// time, no missing leading zero).
func parseDate(s string) (time.Time, bool) {
	d, err := time.Parse(time.DateOnly, s)
	return d, err == nil && d.Format(time.DateOnly) == s
}

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

// daysBetween is the number of days from `from` to `to` (dates at
// midnight UTC), both included. It counts in seconds, not with to.Sub, whose
// Duration stops at about 292 years.
func daysBetween(from, to time.Time) int {
	return int((to.Unix()-from.Unix())/(24*60*60)) + 1
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

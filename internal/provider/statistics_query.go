package provider

import (
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The query of the analytics_website_statistics data source: the range of
// days it reads (its bounds, the dates as written, the default window), the
// dimensions a top list can be read by, and the daily series made of the
// API's rows. Its plan-time rules are in validators_statistics.go.

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

// daysBetween is the number of days from `from` to `to` (dates at
// midnight UTC), both included. It counts in seconds, not with to.Sub, whose
// Duration stops at about 292 years.
func daysBetween(from, to time.Time) int {
	return int((to.Unix()-from.Unix())/(24*60*60)) + 1
}

// statisticsRange resolves the days to read: from/to as configured, or a
// window of days (by default defaultStatisticsDays) ending on now's day in
// UTC (Read passes time.Now()).
func statisticsRange(cfg *websiteStatisticsModel, now time.Time) (from, to time.Time) {
	if !cfg.From.IsNull() {
		from, _ = parseDate(cfg.From.ValueString()) // checked by dateValidator
		to, _ = parseDate(cfg.To.ValueString())
		return from, to
	}
	days := int64(defaultStatisticsDays)
	if !cfg.Days.IsNull() {
		days = cfg.Days.ValueInt64()
	}
	y, m, day := now.UTC().Date()
	to = time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
	return to.AddDate(0, 0, -int(days-1)), to
}

// dailyStatistics turns the rows of pageviews and visitors (one per day
// with data) into one element per day from `from` to `to` (zeros for days
// without data) and the totals over those days.
func dailyStatistics(from, to time.Time, pageviews, visitors []client.StatisticsRow) (totalPageviews, totalVisitors types.Int64, daily []attr.Value) {
	byDay := func(rows []client.StatisticsRow) map[string]int64 {
		m := make(map[string]int64, len(rows))
		for _, r := range rows {
			m[r.Value] += r.Count
		}
		return m
	}
	pv, vs := byDay(pageviews), byDay(visitors)
	var sumP, sumV int64
	for day := from; !day.After(to); day = day.AddDate(0, 0, 1) {
		date := day.Format(time.DateOnly)
		sumP += pv[date]
		sumV += vs[date]
		daily = append(daily, types.ObjectValueMust(statisticsDayType.AttrTypes, map[string]attr.Value{
			"date": types.StringValue(date), "pageviews": types.Int64Value(pv[date]), "visitors": types.Int64Value(vs[date]),
		}))
	}
	return types.Int64Value(sumP), types.Int64Value(sumV), daily
}

package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestStatisticsRange: from/to are read as configured; otherwise the window
// of days (30 by default) ends on the day of the clock passed in, in UTC,
// whatever the clock's zone and hour.
func TestStatisticsRange(t *testing.T) {
	t.Parallel()
	// 01:30 on 2025-03-02 in UTC+3 is 22:30 on 2025-03-01 in UTC.
	now := time.Date(2025, 3, 2, 1, 30, 0, 0, time.FixedZone("UTC+3", 3*3600))
	for _, tc := range []struct {
		name     string
		cfg      websiteStatisticsModel
		from, to string
	}{
		{"default window", websiteStatisticsModel{From: types.StringNull(), Days: types.Int64Null()}, "2025-01-31", "2025-03-01"},
		{"days", websiteStatisticsModel{From: types.StringNull(), Days: types.Int64Value(1)}, "2025-03-01", "2025-03-01"},
		{"days across a leap day", websiteStatisticsModel{From: types.StringNull(), Days: types.Int64Value(366)},
			"2024-03-01", "2025-03-01"},
		{"from and to", websiteStatisticsModel{From: types.StringValue("2020-02-28"), To: types.StringValue("2020-03-01"),
			Days: types.Int64Null()}, "2020-02-28", "2020-03-01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			from, to := statisticsRange(&tc.cfg, now)
			if got, want := from.Format(time.DateOnly)+" "+to.Format(time.DateOnly), tc.from+" "+tc.to; got != want {
				t.Errorf("range %s, want %s", got, want)
			}
			if from.Location() != time.UTC || to.Location() != time.UTC {
				t.Errorf("range in %s and %s, want UTC", from.Location(), to.Location())
			}
		})
	}
}

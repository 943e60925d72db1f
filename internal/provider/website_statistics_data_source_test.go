package provider

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

// The analytics_website_statistics data source. The first tests run on any
// installation (acctest.New: pageviews sent now, as a browser sends them);
// those further down need the in-process emulator (a clock moved to days in
// the past, request counts, a build without the statistics endpoint).

// statsData is a data "analytics_website_statistics" block.
func statsData(name string, attrs map[string]any) string {
	return fmt.Sprintf("data \"analytics_website_statistics\" %q {\n%s}\n", name, hclBody(attrs))
}

// statsAddr is the address of the data source called name.
func statsAddr(name string) string { return "data.analytics_website_statistics." + name }

// dayRow is the expected element of daily.
func dayRow(date string, pageviews, visitors int64) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"date": knownvalue.StringExact(date), "pageviews": knownvalue.Int64Exact(pageviews), "visitors": knownvalue.Int64Exact(visitors),
	})
}

// topRow is the expected element of top.
func topRow(value string, count int64) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.StringExact(value), "count": knownvalue.Int64Exact(count)})
}

// expectStats checks attributes of the data source called name.
func expectStats(name string, values map[string]knownvalue.Check) []statecheck.StateCheck {
	var out []statecheck.StateCheck
	for _, k := range sortedKeys(values) {
		out = append(out, statecheck.ExpectKnownValue(statsAddr(name), tfjsonpath.New(k), values[k]))
	}
	return out
}

// checkDaily checks that the data source called name has one element of
// daily per day from `from` to `to` (in order), and that the pageviews and
// visitors of the days add up to want each, on days of `allowed` only.
func checkDaily(name, from, to string, pageviews, visitors int64, allowed map[string]bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[statsAddr(name)]
		if !ok {
			return fmt.Errorf("%s is not in the state", statsAddr(name))
		}
		a := rs.Primary.Attributes
		n, _ := strconv.Atoi(a["daily.#"])
		f, _ := time.Parse(time.DateOnly, from)
		l, _ := time.Parse(time.DateOnly, to)
		if want := int(l.Sub(f).Hours()/24) + 1; n != want {
			return fmt.Errorf("%s: %d days in daily, want %d (%s to %s)", name, n, want, from, to)
		}
		var sumP, sumV int64
		for i := range n {
			date := a[fmt.Sprintf("daily.%d.date", i)]
			if want := f.AddDate(0, 0, i).Format(time.DateOnly); date != want {
				return fmt.Errorf("%s: daily[%d] is %s, want %s", name, i, date, want)
			}
			p, _ := strconv.ParseInt(a[fmt.Sprintf("daily.%d.pageviews", i)], 10, 64)
			v, _ := strconv.ParseInt(a[fmt.Sprintf("daily.%d.visitors", i)], 10, 64)
			if (p != 0 || v != 0) && !allowed[date] {
				return fmt.Errorf("%s: %d pageviews and %d visitors on %s, a day without pageviews", name, p, v, date)
			}
			sumP, sumV = sumP+p, sumV+v
		}
		if sumP != pageviews || sumV != visitors {
			return fmt.Errorf("%s: the days add up to %d pageviews and %d visitors, want %d and %d", name, sumP, sumV, pageviews, visitors)
		}
		return nil
	}
}

// TestAccWebsiteStatisticsDataSource_pageviews: pageviews sent through the
// tracking endpoint show in the totals, the days and a dimension's top
// values, by domain and by id; a website without statistics reads as
// zeros; an unknown id and a missing domain are errors naming them.
func TestAccWebsiteStatisticsDataSource_pageviews(t *testing.T) {
	env := acctest.New(t)
	tracked := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Domain("wss"), ExcludeBots: true})
	quiet := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Domain("wss-quiet"), ExcludeBots: true})
	before := time.Now()
	for _, page := range []string{"/", "/landing", "/"} {
		if got := env.Hit(t, "https://"+tracked.Domain+page, acctest.BrowserUA); got != "200" {
			t.Fatalf("pageview of %s%s: the tracking endpoint answered %q, want 200", tracked.Domain, page, got)
		}
	}
	days := acctest.HitDays(before, time.Now())
	sorted := sortedKeys(days)
	from, to := sorted[0], sorted[len(sorted)-1]
	n := int64(len(sorted))
	rng := map[string]any{"from": from, "to": to}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for _, src := range []map[string]any{rng, extra} {
			for k, v := range src {
				m[k] = v
			}
		}
		return m
	}
	id := strconv.FormatInt(tracked.ID, 10)
	quietID := strconv.FormatInt(quiet.ID, 10)

	var zeros []knownvalue.Check
	for _, d := range sorted {
		zeros = append(zeros, dayRow(d, 0, 0))
	}
	checks := slices.Concat(
		expectStats("by_domain", map[string]knownvalue.Check{
			"website_id": knownvalue.StringExact(id), "domain": knownvalue.StringExact(tracked.Domain),
			"from": knownvalue.StringExact(from), "to": knownvalue.StringExact(to), "days": knownvalue.Int64Exact(n),
			"pageviews": knownvalue.Int64Exact(3), "visitors": knownvalue.Int64Exact(3),
			"dimension": knownvalue.StringExact("page"), "limit": knownvalue.Int64Exact(2),
			"top": knownvalue.ListExact([]knownvalue.Check{topRow("/", 2), topRow("/landing", 1)}),
		}),
		expectStats("by_id", map[string]knownvalue.Check{
			"website_id": knownvalue.StringExact(id), "domain": knownvalue.Null(),
			"pageviews": knownvalue.Int64Exact(3), "visitors": knownvalue.Int64Exact(3),
			"dimension": knownvalue.Null(), "limit": knownvalue.Null(), "top": knownvalue.Null(),
		}),
		expectStats("quiet", map[string]knownvalue.Check{
			"website_id": knownvalue.StringExact(quietID), "pageviews": knownvalue.Int64Exact(0), "visitors": knownvalue.Int64Exact(0),
			"daily": knownvalue.ListExact(zeros), "limit": knownvalue.Int64Exact(10), "top": knownvalue.ListExact([]knownvalue.Check{}),
		}),
	)
	// Each read costs 4 requests by domain with a dimension, 2 by id: the
	// live mode shares the installation's throttle.
	last := resource.TestStep{ // a valid last step, so that the post-test destroy can run
		Config: env.Config(statsData("quiet", map[string]any{"website_id": quietID, "days": 1})),
	}
	env.Test(t,
		resource.TestStep{
			Config: env.Config(
				statsData("by_domain", with(map[string]any{"domain": tracked.Domain, "dimension": "page", "limit": 2})),
				statsData("by_id", with(map[string]any{"website_id": id})),
				statsData("quiet", with(map[string]any{"website_id": quietID, "dimension": "page"})),
			),
			ConfigStateChecks: checks,
			Check: resource.ComposeAggregateTestCheckFunc(
				checkDaily("by_domain", from, to, 3, 3, days),
				checkDaily("by_id", from, to, 3, 3, days),
			),
		},
		resource.TestStep{
			Config:      env.Config(statsData("x", map[string]any{"website_id": "999999999"})),
			ExpectError: acctest.ExpectError(`Website Not Found.*website_id = "999999999".*No website with id 999999999 belongs to this API key's user`),
		},
		resource.TestStep{
			Config:      env.Config(statsData("x", map[string]any{"domain": env.Domain("wss-missing")})),
			ExpectError: acctest.ExpectError(`Website Not Found.*No website with the exact domain\s+"` + env.Domain("wss-missing") + `"`),
		},
		last,
	)
}

// TestAccWebsiteStatisticsDataSource_otherUsersWebsite: another user's
// website, by id or by domain, is an error naming it.
func TestAccWebsiteStatisticsDataSource_otherUsersWebsite(t *testing.T) {
	env := acctest.New(t)
	env.NeedsKey2(t)
	theirs := env.SeedViaAPI(t, env.Key2, client.WebsiteInput{Domain: env.Domain("wss-theirs"), ExcludeBots: true})
	mine := env.SeedViaAPI(t, env.Key, client.WebsiteInput{Domain: env.Domain("wss-mine"), ExcludeBots: true})
	env.Test(t,
		resource.TestStep{
			Config:      env.Config(statsData("x", map[string]any{"website_id": strconv.FormatInt(theirs.ID, 10)})),
			ExpectError: acctest.ExpectError(fmt.Sprintf(`Website Not Found.*No website with id %d belongs to this API key's user`, theirs.ID)),
		},
		resource.TestStep{
			Config:      env.Config(statsData("x", map[string]any{"domain": theirs.Domain})),
			ExpectError: acctest.ExpectError(`Website Not Found.*No website with the exact domain\s+"` + theirs.Domain + `"`),
		},
		resource.TestStep{ // the same key reads its own website
			Config: env.Config(statsData("x", map[string]any{"website_id": strconv.FormatInt(mine.ID, 10), "days": 1})),
			ConfigStateChecks: expectStats("x", map[string]knownvalue.Check{
				"pageviews": knownvalue.Int64Exact(0), "days": knownvalue.Int64Exact(1),
				"daily": knownvalue.ListSizeExact(1),
			}),
		},
	)
}

// checkBlock is the guide's check: a warning when the website recorded no
// pageview in the last two days.
func checkBlock(name, selector string) string {
	return fmt.Sprintf(`
check %[1]q {
  data "analytics_website_statistics" %[1]q {
    %[2]s
    days = 2
  }

  assert {
    condition     = data.analytics_website_statistics.%[1]s.pageviews > 0
    error_message = "No pageview recorded for ${data.analytics_website_statistics.%[1]s.website_id} since ${data.analytics_website_statistics.%[1]s.from}: is the tracking code on the site?"
  }
}
`, name, selector)
}

// TestAccWebsiteStatisticsDataSource_checkBlock: the guide's check passes
// (no warning) on a website that recorded a pageview and warns on one that
// did not; the plan costs two statistics requests per website, and one
// search for the one given by domain.
func TestAccWebsiteStatisticsDataSource_checkBlock(t *testing.T) {
	s := acctest.NewCLIEnv(t)
	tracked := s.SeedViaAPI(t, s.Key, client.WebsiteInput{Domain: s.Domain("wss-check"), ExcludeBots: true})
	untracked := s.SeedViaAPI(t, s.Key, client.WebsiteInput{Domain: s.Domain("wss-check-none"), ExcludeBots: true})
	s.Pageview(t, tracked.Domain)

	today := s.SkipUnlessInWindow(t, tracked.ID)

	s.Write(checkBlock("tracked", fmt.Sprintf("domain = %q", tracked.Domain)) +
		checkBlock("untracked", fmt.Sprintf("website_id = %q", strconv.FormatInt(untracked.ID, 10))))
	if s.Emulator != nil {
		s.ResetStats()
	}
	diags := s.W.PlanDiags()
	if len(diags) != 1 || diags[0].Severity != "warning" ||
		!strings.Contains(diags[0].Detail, fmt.Sprintf("No pageview recorded for %d since %s", untracked.ID,
			today.AddDate(0, 0, -1).Format(time.DateOnly))) {
		t.Fatalf("want one warning, about the untracked website %d, got %+v", untracked.ID, diags)
	}
	if s.Emulator == nil {
		return // requests are counted on the in-process emulator only
	}
	if st := s.Stats(); st.ByRoute[statsRoute] != 4 || st.ByRoute["GET /api/v1/websites"] != 1 || st.Total != 5 {
		t.Errorf("the plan sent %v, want 4 statistics requests (pageviews and visitors of each website) and one search", st.ByRoute)
	}
}

// TestAccWebsiteStatisticsDataSource_history reads days in the past on the
// emulator's clock: per-day totals with the days without data as zeros,
// visitors (a visit referred by the website itself is no new visitor), the
// top values with ties, the default window and limit, and the requests:
// one per 100 days of each statistic, one for the dimension, one search
// for a domain.
func TestAccWebsiteStatisticsDataSource_history(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	const domain, long = "tf-acc-wss-history.example.com", "tf-acc-wss-year.example.com"
	w := s.Seed(s.Key, emulator.Website{Domain: domain})
	year := s.Seed(s.Key, emulator.Website{Domain: long})
	visit := func(page, referrer string) {
		t.Helper()
		got, err := tracking.SendHit(context.Background(), nil, s.URL, tracking.Hit{Page: "https://" + domain + page, Referrer: referrer, UserAgent: acctest.BrowserUA})
		if err != nil || got != "200" {
			t.Fatalf("tracking %s: %q, %v", page, got, err)
		}
	}
	internal := "https://" + domain + "/"
	s.setDay(t, "2023-02-28") // before the range
	visit("/c", "")
	var days []string
	first := time.Date(2023, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 365 {
		days = append(days, first.AddDate(0, 0, i).Format(time.DateOnly))
	}
	s.pageviews(t, []string{long}, days...)
	s.setDay(t, "2024-03-01")
	visit("/", "")
	visit("/a", "https://news.example.org/story")
	visit("/a", internal)
	s.setDay(t, "2024-03-03")
	visit("/a", "")
	visit("/b", "")
	s.setDay(t, "2024-03-05")
	visit("/a", internal)

	id := strconv.FormatInt(w.ID, 10)
	march := map[string]any{"website_id": id, "from": "2024-03-01", "to": "2024-03-05"}
	withMarch := func(k string, v any, more ...any) map[string]any {
		m := map[string]any{k: v}
		for i := 0; i+1 < len(more); i += 2 {
			m[more[i].(string)] = more[i+1] //nolint:forcetypeassert // pairs of this test
		}
		for k, v := range march {
			m[k] = v
		}
		return m
	}
	today := time.Now().UTC()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: s.Config(
				statsData("march", withMarch("dimension", "page", "limit", 2)),
				statsData("referrers", withMarch("dimension", "referrer")),
				statsData("default", map[string]any{"domain": domain}),
			),
			ConfigStateChecks: slices.Concat(
				expectStats("march", map[string]knownvalue.Check{
					"pageviews": knownvalue.Int64Exact(6), "visitors": knownvalue.Int64Exact(4), "days": knownvalue.Int64Exact(5),
					"daily": knownvalue.ListExact([]knownvalue.Check{
						dayRow("2024-03-01", 3, 2), dayRow("2024-03-02", 0, 0), dayRow("2024-03-03", 2, 2),
						dayRow("2024-03-04", 0, 0), dayRow("2024-03-05", 1, 0),
					}),
					// "/" and "/b" tie at 1: by value.
					"top": knownvalue.ListExact([]knownvalue.Check{topRow("/a", 4), topRow("/", 1)}),
				}),
				expectStats("referrers", map[string]knownvalue.Check{
					// Only visits count: two without a referrer, one from news.
					"top": knownvalue.ListExact([]knownvalue.Check{topRow("", 3), topRow("news.example.org", 1)}),
				}),
				// Neither days nor from/to: the 30 days up to today (UTC).
				expectStats("default", map[string]knownvalue.Check{
					"website_id": knownvalue.StringExact(id), "days": knownvalue.Int64Exact(30),
					"to":    knownvalue.StringExact(today.Format(time.DateOnly)),
					"from":  knownvalue.StringExact(today.AddDate(0, 0, -29).Format(time.DateOnly)),
					"daily": knownvalue.ListSizeExact(30), "pageviews": knownvalue.Int64Exact(0),
				}),
			),
		}}})

	// Requests of one plan, by the number of days with data.
	yearID := strconv.FormatInt(year.ID, 10)
	for _, tc := range []struct {
		name   string
		attrs  map[string]any
		stats  int
		search int
	}{
		{"5 days, by id", map[string]any{"website_id": id, "from": "2024-03-01", "to": "2024-03-05"}, 2, 0},
		{"5 days and a dimension, by domain", map[string]any{"domain": domain, "from": "2024-03-01", "to": "2024-03-05", "dimension": "page", "limit": 100}, 3, 1},
		{"100 days", map[string]any{"website_id": yearID, "from": "2023-03-01", "to": "2023-06-08"}, 2, 0},
		{"101 days", map[string]any{"website_id": yearID, "from": "2023-03-01", "to": "2023-06-09"}, 4, 0},
		{"365 days and a dimension", map[string]any{"website_id": yearID, "from": "2023-01-01", "to": "2024-12-31", "dimension": "page"}, 9, 0},
		{"no data in the window", map[string]any{"website_id": yearID, "days": 7}, 2, 0},
	} {
		s.W.Write("main.tf", s.Config(statsData("x", tc.attrs), `output "pageviews" { value = data.analytics_website_statistics.x.pageviews }`))
		s.ResetStats()
		s.W.MustRun(0, "plan")
		if st := s.Stats(); st.ByRoute[statsRoute] != tc.stats || st.ByRoute["GET /api/v1/websites"] != tc.search || st.Total != tc.stats+tc.search {
			t.Errorf("%s: the plan sent %v, want %d statistics requests and %d searches", tc.name, st.ByRoute, tc.stats, tc.search)
		}
	}
}

// TestAccWebsiteStatisticsDataSource_noStatisticsEndpoint: on a build
// without the statistics API, the error says so, not that the website is
// missing; an unknown id is still "not found".
func TestAccWebsiteStatisticsDataSource_noStatisticsEndpoint(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{NoStatisticsEndpoint: true})
	env := s.Env
	w := env.Seed(env.Key, emulator.Website{Domain: "tf-acc-wss-old.example.com"})

	// In a check block, as the guide shows it, the error is a warning.
	s.W.Write("main.tf", s.Config(checkBlock("old", fmt.Sprintf("website_id = %q", strconv.FormatInt(w.ID, 10)))))
	diags := s.W.PlanDiags()
	if len(diags) != 1 || diags[0].Severity != "warning" || diags[0].Summary != "Statistics Not Supported by the Server" ||
		!strings.Contains(diags[0].Detail, fmt.Sprintf("Could not read the statistics of the website (id %d): the API at", w.ID)) {
		t.Errorf("a check on a build without the statistics API: want one warning that says so, got %+v", diags)
	}

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: env.Config(statsData("x", map[string]any{"domain": w.Domain})),
				ExpectError: acctest.ExpectError(fmt.Sprintf(`Statistics Not Supported by the Server.*the website\s+"%s"\s+\(id %d\).*`+
					`GET\s+/api/v1/stats/%d.*no\s+statistics\s+API.*Upgrade the installation`, w.Domain, w.ID, w.ID)),
			},
			{
				Config:      env.Config(statsData("x", map[string]any{"website_id": strconv.FormatInt(w.ID+1, 10)})),
				ExpectError: acctest.ExpectError(fmt.Sprintf(`Website Not Found.*No website with id %d`, w.ID+1)),
			},
		},
	})
}

package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Statistics on any installation. The tests of website_resource_statistics_test.go need the
// in-process emulator (a clock moved to days in the past, request counts,
// fault injection); these need nothing but the public API and the tracking
// endpoint, so they run in the live mode too (acctest.New). They make at most
// two pageviews per website, now, as a browser does (env.Hit), and keep
// their plans cheap: with -refresh=false, the statistics are a plan's only
// requests.
//
// The installation records a pageview on its own day, in its own time zone,
// which the tests do not know: they accept the UTC day of the hit, the day
// before or the day after.
//
// exclude_ips is left to TestAccWebsiteStatistics_trackingHonoursConfig on
// the in-process emulator: the address an installation sees the tests at
// (behind NAT, a proxy or a load balancer) is not known to them, so no
// exclude_ips entry can be known to match it.

// pageviewDaysRE reads what a warning says of a website's pageviews
// (pageviewDays in diagnostics_statistics.go): "1 day with pageviews, 2024-05-01" or
// "3 days with pageviews, from 2024-05-01 to 2024-05-03".
var pageviewDaysRE = regexp.MustCompile(`(\d+) days? with pageviews, (?:from )?(\d{4}-\d{2}-\d{2})(?: to (\d{4}-\d{2}-\d{2}))?`)

// checkOneDay fails unless detail says that the website has pageviews on
// one day, one of days, its first and last.
func checkOneDay(t *testing.T, detail string, days map[string]bool) {
	t.Helper()
	m := pageviewDaysRE.FindStringSubmatch(detail)
	switch {
	case m == nil:
		t.Errorf("the warning does not name the days with pageviews:\n%s", detail)
	case m[1] != "1":
		t.Errorf("the warning counts %s days with pageviews, want 1:\n%s", m[1], detail)
	case m[3] != "" && m[3] != m[2]:
		t.Errorf("the warning's first day %s differs from its last %s:\n%s", m[2], m[3], detail)
	case !days[m[2]]:
		t.Errorf("the warning's day is %s, want the day of the hit, one of %v:\n%s", m[2], sortedKeys(days), detail)
	}
}

// A website that got a pageview: a destroy and a replacement warn, naming
// the day; a website without pageviews gets no warning.
func TestAccWebsiteStatistics_pageviewWarns(t *testing.T) {
	s := acctest.NewCLIEnv(t)
	domain, quiet, renamed := s.Domain("stats"), s.Domain("stats-quiet"), s.Domain("stats-renamed")
	config := func(mainDomain string) string {
		return websiteBlock("main", mainDomain, "") + websiteBlock("quiet", quiet, "")
	}
	s.Apply(config(domain))
	days := s.Pageview(t, domain)

	// terraform destroy: both websites are checked, only the one with a
	// pageview warns.
	diags := s.W.PlanDiags("-destroy", "-refresh=false")
	loss := withSummary(diags, lossDestroy)
	if len(loss) != 1 || len(diags) != 1 || loss[0].Address != "analytics_website.main" ||
		!strings.Contains(loss[0].Detail, strconv.Quote(domain)) {
		t.Fatalf("want one destroy warning on analytics_website.main, got %+v", diags)
	}
	checkOneDay(t, loss[0].Detail, days)

	// A new domain replaces the website: the plan names the loss too.
	s.Write(config(renamed))
	diags = s.W.PlanDiags("-refresh=false")
	loss = withSummary(diags, lossReplace)
	if len(loss) != 1 || len(diags) != 1 || loss[0].Address != "analytics_website.main" {
		t.Fatalf("want one replacement warning on analytics_website.main, got %+v", diags)
	}
	for _, want := range []string{strconv.Quote(domain), strconv.Quote(renamed)} {
		if !strings.Contains(loss[0].Detail, want) {
			t.Errorf("the replacement warning does not name %s:\n%s", want, loss[0].Detail)
		}
	}
	checkOneDay(t, loss[0].Detail, days)

	s.Write(config(domain))
	s.Destroy(t)
}

// skip_destroy = true: terraform destroy leaves the website and its
// statistics on the server (the test's cleanup deletes it, as the sweepers
// would).
func TestAccWebsiteStatistics_skipDestroyKeepsStatistics(t *testing.T) {
	s := acctest.NewCLIEnv(t)
	domain := s.Domain("stats-keep")
	s.Apply(websiteBlock("main", domain, "  skip_destroy = true\n"))
	id := s.StateID(t, "main")
	days := s.Pageview(t, domain)

	diags := s.W.PlanDiags("-destroy", "-refresh=false")
	if kept := withSummary(diags, keptSummary); len(kept) != 1 || len(diags) != 1 || !strings.Contains(kept[0].Detail, domain) {
		t.Fatalf("want one warning that the website is kept, got %+v", diags)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
	if strings.Contains(s.W.Read("terraform.tfstate"), domain) {
		t.Errorf("the destroyed website is still in the state:\n%s", s.W.Read("terraform.tfstate"))
	}

	w, err := s.FindWebsite(s.Key, domain)
	if err != nil {
		t.Fatalf("the website kept by skip_destroy: %v", err)
	}
	if w.ID != id {
		t.Fatalf("the server has %s as website %d, want %d", domain, w.ID, id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), acctest.APITimeout)
	defer cancel()
	sum, err := s.API(s.Key).SummarizePageviews(ctx, id, nil)
	if err != nil {
		t.Fatalf("statistics of the kept website: %v", err)
	}
	if sum.Days != 1 || sum.First != sum.Last || !days[sum.First] {
		t.Errorf("the kept website has %d days with pageviews, from %q to %q; want 1, one of %v",
			sum.Days, sum.First, sum.Last, sortedKeys(days))
	}
}

// What Terraform configures is what the tracking endpoint applies: a bot
// is not recorded (exclude_bots), and the page is recorded without the
// excluded parameters (exclude_params).
func TestAccWebsiteStatistics_trackingAppliesConfig(t *testing.T) {
	s := acctest.NewCLIEnv(t)
	domain := s.Domain("stats-track")
	s.Apply(websiteBlock("main", domain, "  exclude_bots   = true\n  exclude_params = [\"utm_source\", \"fbclid\"]\n"))
	id := s.StateID(t, "main")

	before := time.Now()
	for _, tc := range []struct{ page, ua, want string }{
		{"https://" + domain + "/landing?utm_source=news&keep=1&fbclid=x", acctest.BrowserUA, "200"},
		{"https://" + domain + "/bot-visit", acctest.GooglebotUA, "403"},
	} {
		if got := s.Hit(t, tc.page, tc.ua); got != tc.want {
			t.Errorf("tracking %s (%s): %q, want %q", tc.page, tc.ua, got, tc.want)
		}
	}
	days := sortedKeys(acctest.HitDays(before, time.Now()))

	ctx, cancel := context.WithTimeout(context.Background(), acctest.APITimeout)
	defer cancel()
	// Read as the data source reads: a 429 at the window's edge waits and
	// goes again.
	page, err := s.API(s.Key).ReadStatistics(ctx, id, client.StatisticsRead{Name: "page", From: days[0], To: days[len(days)-1]})
	if err != nil {
		t.Fatalf("page statistics: %v", err)
	}
	if got := fmt.Sprint(page.Rows); got != "[{/landing?keep=1 1}]" {
		t.Errorf("recorded pages %s, want [{/landing?keep=1 1}] (the excluded parameters gone, the bot not recorded)", got)
	}
	s.Destroy(t)
}

package provider

import (
	"context"
	"encoding/json"
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

// accStatsEnv is an acctest.Env whose test drives the CLI itself, in a working
// directory: terraform-plugin-testing does not show a plan's warnings.
type accStatsEnv struct {
	*acctest.Env
	w *cliWorkdir
}

func newAccStatsEnv(t *testing.T) *accStatsEnv {
	t.Helper()
	env := acctest.New(t)
	return &accStatsEnv{Env: env, w: newCLIWorkdir(t)}
}

// write sets the configuration: the provider block and hcl.
func (s *accStatsEnv) write(hcl string) { s.w.write("main.tf", s.Config(hcl)) }

func (s *accStatsEnv) apply(hcl string) {
	s.write(hcl)
	s.w.mustRun(0, "apply", "-auto-approve")
}

// destroy runs terraform destroy and checks through the API that no
// website of the test is left.
func (s *accStatsEnv) destroy(t *testing.T) {
	t.Helper()
	s.w.mustRun(0, "destroy", "-auto-approve")
	if err := s.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}

// stateID is the id the state holds for the analytics_website called name.
func (s *accStatsEnv) stateID(t *testing.T, name string) int64 {
	t.Helper()
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(s.w.read("terraform.tfstate")), &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		if r.Type == "analytics_website" && r.Name == name && len(r.Instances) == 1 {
			id, err := strconv.ParseInt(r.Instances[0].Attributes.ID, 10, 64)
			if err != nil {
				t.Fatalf("analytics_website.%s: id %q", name, r.Instances[0].Attributes.ID)
			}
			return id
		}
	}
	t.Fatalf("the state has no analytics_website.%s", name)
	return 0
}

// pageview records one pageview of domain's home page as a browser does
// and returns the days (UTC, YYYY-MM-DD) the installation can have
// recorded it on.
func (s *accStatsEnv) pageview(t *testing.T, domain string) map[string]bool {
	t.Helper()
	before := time.Now()
	if got := s.Hit(t, "https://"+domain+"/", acctest.BrowserUA); got != "200" {
		t.Fatalf("pageview of %s: the tracking endpoint answered %q, want 200 (recorded); a 403 for a website that "+
			"excludes nothing means that the account is over its pageview limit", domain, got)
	}
	return hitDays(before, time.Now())
}

// hitDays are the days a hit sent between from and to is recorded on, in
// any time zone: their UTC days, the day before and the day after.
func hitDays(from, to time.Time) map[string]bool {
	days := map[string]bool{}
	for _, at := range []time.Time{from, to} {
		for _, d := range []int{-1, 0, 1} {
			days[at.UTC().AddDate(0, 0, d).Format(time.DateOnly)] = true
		}
	}
	return days
}

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
	s := newAccStatsEnv(t)
	domain, quiet, renamed := s.Domain("stats"), s.Domain("stats-quiet"), s.Domain("stats-renamed")
	config := func(mainDomain string) string {
		return websiteBlock("main", mainDomain, "") + websiteBlock("quiet", quiet, "")
	}
	s.apply(config(domain))
	days := s.pageview(t, domain)

	// terraform destroy: both websites are checked, only the one with a
	// pageview warns.
	diags := s.w.planDiags("-destroy", "-refresh=false")
	loss := withSummary(diags, lossDestroy)
	if len(loss) != 1 || len(diags) != 1 || loss[0].Address != "analytics_website.main" ||
		!strings.Contains(loss[0].Detail, strconv.Quote(domain)) {
		t.Fatalf("want one destroy warning on analytics_website.main, got %+v", diags)
	}
	checkOneDay(t, loss[0].Detail, days)

	// A new domain replaces the website: the plan names the loss too.
	s.write(config(renamed))
	diags = s.w.planDiags("-refresh=false")
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

	s.write(config(domain))
	s.destroy(t)
}

// skip_destroy = true: terraform destroy leaves the website and its
// statistics on the server (the test's cleanup deletes it, as the sweepers
// would).
func TestAccWebsiteStatistics_skipDestroyKeepsStatistics(t *testing.T) {
	s := newAccStatsEnv(t)
	domain := s.Domain("stats-keep")
	s.apply(websiteBlock("main", domain, "  skip_destroy = true\n"))
	id := s.stateID(t, "main")
	days := s.pageview(t, domain)

	diags := s.w.planDiags("-destroy", "-refresh=false")
	if kept := withSummary(diags, keptSummary); len(kept) != 1 || len(diags) != 1 || !strings.Contains(kept[0].Detail, domain) {
		t.Fatalf("want one warning that the website is kept, got %+v", diags)
	}
	s.w.mustRun(0, "destroy", "-auto-approve")
	if strings.Contains(s.w.read("terraform.tfstate"), domain) {
		t.Errorf("the destroyed website is still in the state:\n%s", s.w.read("terraform.tfstate"))
	}

	w, err := s.FindWebsite(s.Key, domain)
	if err != nil {
		t.Fatalf("the website kept by skip_destroy: %v", err)
	}
	if w.ID != id {
		t.Fatalf("the server has %s as website %d, want %d", domain, w.ID, id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	s := newAccStatsEnv(t)
	domain := s.Domain("stats-track")
	s.apply(websiteBlock("main", domain, "  exclude_bots   = true\n  exclude_params = [\"utm_source\", \"fbclid\"]\n"))
	id := s.stateID(t, "main")

	before := time.Now()
	for _, tc := range []struct{ page, ua, want string }{
		{"https://" + domain + "/landing?utm_source=news&keep=1&fbclid=x", acctest.BrowserUA, "200"},
		{"https://" + domain + "/bot-visit", acctest.GooglebotUA, "403"},
	} {
		if got := s.Hit(t, tc.page, tc.ua); got != tc.want {
			t.Errorf("tracking %s (%s): %q, want %q", tc.page, tc.ua, got, tc.want)
		}
	}
	days := sortedKeys(hitDays(before, time.Now()))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	page, err := s.API(s.Key).GetStatistics(ctx, id, client.StatisticsQuery{Name: "page", From: days[0], To: days[len(days)-1]})
	if err != nil {
		t.Fatalf("page statistics: %v", err)
	}
	if got := fmt.Sprint(page.Rows); got != "[{/landing?keep=1 1}]" {
		t.Errorf("recorded pages %s, want [{/landing?keep=1 1}] (the excluded parameters gone, the bot not recorded)", got)
	}
	s.destroy(t)
}

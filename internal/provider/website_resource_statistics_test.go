package provider

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
)

// What a destroy or a replacement deletes, on the in-process emulator with
// a clock of the tests' own: the tests make statistics the way a browser
// does, through the tracking endpoint, and read the plan's warnings from
// `plan -json` (acctest.Workdir.PlanDiags). website_resource_statistics_live_test.go
// has those that run on an installation too.

const statsRoute = "GET /api/v1/stats/{id}"

// statsClock is the emulator's clock of these tests, set in opts: it runs
// at the real pace from a day before every day the tests record, and
// setDay moves it forward to the day pageviews are recorded on. It only
// ever moves forward, so throttle windows keep ending.
func statsClock(opts *emulator.Options) *testclock.Clock {
	clock := testclock.Running(time.Date(2023, 1, 1, 12, 0, 0, 0, time.UTC))
	opts.Clock = clock.Now
	return clock
}

// statsEnv is an emulator with a statsClock and a CLI working directory.
type statsEnv struct {
	*acctest.CLIEnv
	clock *testclock.Clock
}

// setDay moves the emulator's clock to noon of day (later than every
// earlier call).
func (s *statsEnv) setDay(t *testing.T, day string) {
	t.Helper()
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	if d.Add(12 * time.Hour).Before(s.clock.Now()) {
		t.Fatalf("setDay(%s): the clock only moves forward", day)
	}
	s.clock.SetDay(d)
}

func newStatsEnv(t *testing.T, opts emulator.Options, more ...acctest.Option) *statsEnv {
	t.Helper()
	w := acctest.NewWorkdir(t)
	clock := statsClock(&opts)
	env := acctest.New(t, append([]acctest.Option{acctest.Emulator(opts)}, more...)...)
	return &statsEnv{CLIEnv: &acctest.CLIEnv{Env: env, W: w}, clock: clock}
}

// pageviews records one pageview of each domain on each day (in order).
func (s *statsEnv) pageviews(t *testing.T, domains []string, days ...string) {
	t.Helper()
	for _, day := range days {
		s.setDay(t, day)
		for _, d := range domains {
			if got := s.Hit(t, "https://"+d+"/", acctest.BrowserUA); got != "200" {
				t.Fatalf("pageview of %s on %s: tracking answered %q", d, day, got)
			}
		}
	}
}

func (s *statsEnv) statsRequests() int { return s.Stats().ByRoute[statsRoute] }

func TestAccWebsiteStatistics_replaceAndDestroyWarn(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	const domain, quiet = "tf-acc-stats-1.example.com", "tf-acc-stats-quiet.example.com"
	s.Apply(websiteBlock("main", domain, "") + websiteBlock("quiet", quiet, ""))
	s.pageviews(t, []string{domain}, "2024-01-05", "2024-01-07", "2024-02-01")

	// A plan that destroys nothing asks for no statistics.
	s.ResetStats()
	if diags := s.W.PlanDiags(); len(diags) != 0 {
		t.Errorf("a plan without change warned: %+v", diags)
	}
	if n := s.statsRequests(); n != 0 {
		t.Errorf("a plan that destroys nothing sent %d statistics requests", n)
	}

	// A new domain replaces the website: the plan names the loss.
	s.W.Write("main.tf", s.Config(websiteBlock("main", "tf-acc-stats-2.example.com", "")+websiteBlock("quiet", quiet, "")))
	s.ResetStats()
	diags := s.W.PlanDiags()
	loss := withSummary(diags, lossReplace)
	if len(loss) != 1 || len(diags) != 1 {
		t.Fatalf("want one replacement warning, got %+v", diags)
	}
	for _, want := range []string{`"tf-acc-stats-1.example.com"`, `"tf-acc-stats-2.example.com"`,
		"3 days with pageviews, from 2024-01-05 to 2024-02-01", "skip_destroy", "prevent_destroy",
		"-invoke=action.analytics_website_statistics_export.NAME", "before_destroy"} {
		if !strings.Contains(loss[0].Detail, want) {
			t.Errorf("the warning does not say %s:\n%s", want, loss[0].Detail)
		}
	}
	if loss[0].Address != "analytics_website.main" {
		t.Errorf("warning on %q, want analytics_website.main", loss[0].Address)
	}
	if n := s.statsRequests(); n != 1 {
		t.Errorf("%d statistics requests for one website whose days fit on a page, want 1", n)
	}

	// terraform destroy: a warning for the website with statistics only,
	// though the quiet one is checked too.
	s.W.Write("main.tf", s.Config(websiteBlock("main", domain, "")+websiteBlock("quiet", quiet, "")))
	s.ResetStats()
	diags = s.W.PlanDiags("-destroy")
	loss = withSummary(diags, lossDestroy)
	if len(loss) != 1 || len(diags) != 1 || !strings.Contains(loss[0].Detail, "3 days with pageviews, from 2024-01-05 to 2024-02-01") ||
		loss[0].Address != "analytics_website.main" {
		t.Fatalf("want one destroy warning on analytics_website.main, got %+v", diags)
	}
	if n := s.statsRequests(); n != 3 {
		t.Errorf("%d statistics requests for two destroyed websites, want 3 (one each, and the custom events of the one without pageviews)", n)
	}

	// A removed resource is destroyed too; a website without statistics
	// gets no warning.
	s.W.Write("main.tf", s.Config(websiteBlock("main", domain, "")))
	if diags := s.W.PlanDiags(); len(diags) != 0 {
		t.Errorf("removing the website without statistics warned: %+v", diags)
	}
	s.W.Write("main.tf", s.Config(websiteBlock("quiet", quiet, "")))
	if loss := withSummary(s.W.PlanDiags(), lossDestroy); len(loss) != 1 || !strings.Contains(loss[0].Detail, domain) {
		t.Errorf("removing the website with statistics: %+v", loss)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccWebsiteStatistics_manyDays: a website with more days than one
// page costs two requests, and the warning has the last day.
func TestAccWebsiteStatistics_manyDays(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	const domain = "tf-acc-stats-long.example.com"
	s.Apply(websiteBlock("main", domain, ""))
	var days []string
	first := time.Date(2023, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 130 {
		days = append(days, first.AddDate(0, 0, i).Format(time.DateOnly))
	}
	s.pageviews(t, []string{domain}, days...)
	s.ResetStats()
	loss := withSummary(s.W.PlanDiags("-destroy"), lossDestroy)
	if len(loss) != 1 || !strings.Contains(loss[0].Detail, "130 days with pageviews, from 2023-11-01 to 2024-03-09") {
		t.Fatalf("want the 130 days named, got %+v", loss)
	}
	if n := s.statsRequests(); n != 2 {
		t.Errorf("%d statistics requests, want 2", n)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}

func TestAccWebsiteStatistics_budget(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	var domains []string
	for i := range 25 {
		domains = append(domains, fmt.Sprintf("tf-acc-stats-many-%02d.example.com", i))
	}
	vars, err := json.Marshal(map[string]any{"domains": domains})
	if err != nil {
		t.Fatal(err)
	}
	s.W.Write("terraform.tfvars.json", string(vars))
	s.Apply(`
variable "domains" {
  type = set(string)
}
resource "analytics_website" "many" {
  for_each = var.domains
  domain   = each.value
}
`)
	s.pageviews(t, domains, "2024-05-01")

	s.ResetStats()
	diags := s.W.PlanDiags("-destroy")
	if n := s.statsRequests(); n > maxStatisticsRequests {
		t.Errorf("%d statistics requests, want at most %d", n, maxStatisticsRequests)
	}
	loss := withSummary(diags, lossDestroy)
	summary := withSummary(diags, budgetSpent)
	if len(summary) != 1 {
		t.Fatalf("want one warning about the websites not checked, got %d: %+v", len(summary), diags)
	}
	m := regexp.MustCompile(`(\d+) websites this plan destroys were not checked`).FindStringSubmatch(summary[0].Detail)
	if m == nil {
		t.Fatalf("the warning does not count the websites:\n%s", summary[0].Detail)
	}
	unchecked, _ := strconv.Atoi(m[1])
	if len(loss)+unchecked != len(domains) || len(loss) != maxStatisticsRequests {
		t.Errorf("%d websites named and %d counted as not checked, want %d and %d", len(loss), unchecked,
			maxStatisticsRequests, len(domains)-maxStatisticsRequests)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccWebsiteStatistics_failingEndpoint: what the check cannot answer
// after its retries and waits gets "Statistics Not Checked", saying which
// cause it was.
func TestAccWebsiteStatistics_failingEndpoint(t *testing.T) {
	// Skips here, not only in each case, so that the live pass does not
	// count it as passed.
	acctest.NeedsEmulator(t, "injects faults into the statistics endpoint")
	// The CLI runs the provider built from this tree (acctest.Workdir),
	// whose backoffs are the release's: fastRetries, which shortens those
	// of the in-process provider, would not change them.
	//
	// The causes share one emulator and one website, applied once (again
	// when a cause needs other settings in the state): each cause is a
	// plan of its own, run with the cause's faults and then without.
	tests := []struct {
		name    string
		faults  *emulator.Faults
		old     bool   // the installation's build has no statistics endpoint
		key     string // the provider's key, if not the owner's
		extra   string // more of the website's configuration
		reasons []string
	}{
		{"maintenance", &emulator.Faults{Maintenance: true}, false, "", "",
			[]string{"503 Service Unavailable (maintenance mode", "until the provider gave up", "(after 5 attempts)"}},
		{"server error", &emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}}, false, "", "",
			[]string{"failed after the provider's retries", "HTTP 500", "(after 5 attempts)"}},
		{"network error", &emulator.Faults{ResetBeforeRate: 1}, false, "", "", []string{"could not be reached", "gave up after 5 attempts"}},
		{"another user's website", nil, false, acctest.KeyOther, "", []string{"404", "another user"}},
		{"no statistics endpoint", nil, true, "", "", []string{"the installation has no statistics endpoint"}},
		// Last: its throttle is the fault injector's, and its setting
		// changes the website's state.
		{"throttled past the read timeout", &emulator.Faults{ThrottleRate: 1, ThrottleFor: time.Minute}, false, "",
			"  timeouts {\n    read = \"10s\"\n  }\n",
			[]string{"server's throttle", "timeouts.read = 10s", "retry after 1m0s (HTTP 429)"}},
	}
	var old atomic.Bool
	s := newStatsEnv(t, acctest.TwoUsers(emulator.Options{}), acctest.Wrap(func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if old.Load() && strings.Contains(r.URL.Path, "/api/v1/stats/") {
				// An older build's fallback route.
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = io.WriteString(w, `{"message":"Resource not found.","status":404}`)
				return
			}
			h.ServeHTTP(w, r)
		})
	}))
	const domain = "tf-acc-stats-fail.example.com"
	s.Apply(websiteBlock("main", domain, ""))
	s.pageviews(t, []string{domain}, "2024-03-01")
	applied := ""
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.extra != applied {
				s.Apply(websiteBlock("main", domain, tc.extra))
				applied = tc.extra
			}
			if tc.key != "" {
				s.W.Write("main.tf", s.ProviderBlockAt(s.URL, tc.key)+websiteBlock("main", domain, tc.extra))
			}
			if err := s.SetFaults(tc.faults); err != nil {
				t.Fatal(err)
			}
			old.Store(tc.old)
			// Without refresh, the statistics are the plan's only requests.
			diags := s.W.PlanDiags("-destroy", "-refresh=false")
			if err := s.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			old.Store(false)
			s.Write(websiteBlock("main", domain, tc.extra))
			warn := withSummary(diags, notChecked)
			if len(warn) != 1 || len(diags) != 1 || !strings.Contains(warn[0].Detail, domain) {
				t.Fatalf("want one warning that the statistics could not be checked, got %+v", diags)
			}
			for _, reason := range tc.reasons {
				if !strings.Contains(warn[0].Detail, reason) {
					t.Errorf("the warning does not say %q:\n%s", reason, warn[0].Detail)
				}
			}
		})
	}
	// No destroy: the emulator goes with the test.
}

// TestAccWebsiteStatistics_destroyWaitsForThrottle: with the throttle at
// the real window (60 requests a minute) spent by another program of the
// address, a destroy plan waits for the window's end, as its refresh
// would, and names the loss rather than "not checked". It takes about a
// minute of real time: the wait is the point.
func TestAccWebsiteStatistics_destroyWaitsForThrottle(t *testing.T) {
	acctest.OncePerTestRun(t, "a minute of waiting for the throttle's window")
	const limit, window = 60, time.Minute
	s := newStatsEnv(t, emulator.Options{RateLimit: limit, RateWindow: window})
	const domain = "tf-acc-stats-busy.example.com"
	s.Apply(websiteBlock("main", domain, ""))
	s.pageviews(t, []string{domain}, "2024-01-05", "2024-01-07", "2024-02-01")

	// A later day: the earlier windows are over, and the one spent below
	// starts now, so the plan meets nearly all of it.
	s.setDay(t, "2024-03-01")
	if n, err := emulator.SpendThrottle(t.Context(), s.URL); err != nil || n != limit {
		t.Fatalf("the throttle allowed %d requests (%v), want %d", n, err, limit)
	}
	s.ResetStats()
	start := time.Now()
	diags := s.W.PlanDiags("-destroy", "-refresh=false")
	elapsed := time.Since(start)
	t.Logf("the destroy plan answered after %s: %d statistics requests, %d refused with 429",
		elapsed.Round(time.Millisecond), s.statsRequests(), s.Stats().Throttled)
	loss := withSummary(diags, lossDestroy)
	if len(loss) != 1 || len(diags) != 1 || loss[0].Address != "analytics_website.main" ||
		!strings.Contains(loss[0].Detail, "3 days with pageviews, from 2024-01-05 to 2024-02-01") {
		t.Fatalf("want one destroy warning naming the days and dates, got %+v", diags)
	}
	// It waited (the window was spent), and for no more than the window,
	// the server's Retry-After jitter and the CLI's own time.
	if elapsed < window/2 || elapsed > window+20*time.Second {
		t.Errorf("the plan took %s, want the rest of the %s window and at most 20 s more", elapsed, window)
	}
	if n := s.statsRequests(); n < 1 || n > 2 || s.Stats().Throttled > 1 {
		t.Errorf("%d statistics requests, %d refused; want at most 2, one refused (the new process learns the window "+
			"from its first answer)", n, s.Stats().Throttled)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}

func TestAccWebsiteStatistics_skipDestroy(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	const old, renamed = "tf-acc-stats-keep.example.com", "tf-acc-stats-keep2.example.com"
	keep := "  skip_destroy = true\n"
	s.Apply(websiteBlock("main", old, ""))
	s.pageviews(t, []string{old}, "2024-06-01", "2024-06-02")

	// Setting skip_destroy alone sends nothing to the server.
	s.ResetStats()
	s.Apply(websiteBlock("main", old, keep))
	if n := s.Writes(); n != 0 {
		t.Errorf("setting skip_destroy sent %d write requests", n)
	}
	oldSite, _ := s.WebsiteByDomain(old)
	before := s.Statistics(oldSite.ID)

	// A new domain: the plan says the old website is kept, with no
	// statistics request; the apply creates the new one beside it.
	s.W.Write("main.tf", s.Config(websiteBlock("main", renamed, keep)))
	s.ResetStats()
	diags := s.W.PlanDiags()
	if kept := withSummary(diags, keptSummary); len(kept) != 1 || len(diags) != 1 || !strings.Contains(kept[0].Detail, old) {
		t.Fatalf("want one warning that the website is kept, got %+v", diags)
	}
	if n := s.statsRequests(); n != 0 {
		t.Errorf("%d statistics requests for a website that is kept", n)
	}
	s.W.MustRun(0, "apply", "-auto-approve")
	if w, ok := s.Website(oldSite.ID); !ok || w.Domain != old {
		t.Fatalf("the old website is gone from the server")
	}
	if got := s.Statistics(oldSite.ID); fmt.Sprint(got) != fmt.Sprint(before) || len(got) == 0 {
		t.Errorf("the old website's statistics changed:\n%v\nwant\n%v", got, before)
	}
	newSite, ok := s.WebsiteByDomain(renamed)
	if !ok {
		t.Fatal("the new website was not created")
	}
	if st := s.W.Read("terraform.tfstate"); strings.Contains(st, old) || !strings.Contains(st, renamed) {
		t.Errorf("the state should hold the new website only:\n%s", st)
	}

	// A destroy leaves the server untouched.
	s.pageviews(t, []string{renamed}, "2024-06-03")
	s.ResetStats()
	if kept := withSummary(s.W.PlanDiags("-destroy"), keptSummary); len(kept) != 1 {
		t.Errorf("destroy plan: want the website kept, got %+v", kept)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
	if n := s.Writes(); n != 0 || s.statsRequests() != 0 {
		t.Errorf("the destroy sent %d write and %d statistics requests: %v", n, s.statsRequests(), s.Stats().ByRoute)
	}
	for _, id := range []int64{oldSite.ID, newSite.ID} {
		if _, ok := s.Website(id); !ok || len(s.Statistics(id)) == 0 {
			t.Errorf("website %d or its statistics left the server", id)
		}
	}
	if st := s.W.Read("terraform.tfstate"); strings.Contains(st, renamed) {
		t.Errorf("the destroyed website is still in the state:\n%s", st)
	}
	// Tidy up the emulator by hand, as a user would in the web interface.
	s.DeleteWebsite(oldSite.ID)
	s.DeleteWebsite(newSite.ID)
}

// TestAccWebsiteStatistics_trackingHonoursConfig: what Terraform configures
// is what the tracking endpoint applies.
func TestAccWebsiteStatistics_trackingHonoursConfig(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	const params, ips = "tf-acc-stats-params.example.com", "tf-acc-stats-ips.example.com"
	s.Apply(websiteBlock("params", params, "  exclude_params = [\"utm_source\", \"fbclid\"]\n") +
		websiteBlock("ips", ips, "  exclude_ips = [\"10.0.0.0/8\", \"127.0.0.1\"]\n") +
		websiteBlock("bots", "tf-acc-stats-bots.example.com", "  exclude_bots = false\n"))

	for _, tc := range []struct {
		page, ua, want string
	}{
		{"https://" + params + "/landing?utm_source=news&keep=1&fbclid=x", acctest.BrowserUA, "200"},
		{"https://www." + params + "/bot-visit", acctest.GooglebotUA, "403"}, // exclude_bots defaults to true
		{"https://" + ips + "/", acctest.BrowserUA, "403"},                   // this test's address is excluded
		{"https://tf-acc-stats-bots.example.com/", acctest.GooglebotUA, "200"},
		{"https://tf-acc-stats-unknown.example.com/", acctest.BrowserUA, "404"},
	} {
		if got := s.Hit(t, tc.page, tc.ua); got != tc.want {
			t.Errorf("tracking %s (%s): %q, want %q", tc.page, tc.ua, got, tc.want)
		}
	}
	p, _ := s.WebsiteByDomain(params)
	var pages []string
	for _, st := range s.Statistics(p.ID) {
		if st.Name == "page" {
			pages = append(pages, st.Value)
		}
	}
	if fmt.Sprint(pages) != "[/landing?keep=1]" {
		t.Errorf("recorded pages %v, want [/landing?keep=1] (excluded parameters gone, the bot not recorded)", pages)
	}
	ipSite, _ := s.WebsiteByDomain(ips)
	if got := s.Statistics(ipSite.ID); len(got) != 0 {
		t.Errorf("an excluded address was recorded: %+v", got)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// The warnings of a plan, as the tests that drive the CLI themselves read
// them: from `plan -json` (the human output merges warnings that share a
// summary). Shared by the statistics tests on the in-process emulator
// (above) and those that also run on an installation
// (website_resource_statistics_live_test.go).

// Summaries of the warnings a plan that destroys or replaces a website
// gives (diagnostics_statistics.go).
const (
	lossDestroy = "Destroying the Website Deletes Its Statistics"
	lossReplace = "Replacing the Website Deletes Its Statistics"
	notChecked  = "Statistics Not Checked"
	budgetSpent = "Statistics of Some Websites Not Checked"
	keptSummary = "Website Will Be Kept on the Server"
)

func withSummary(diags []acctest.PlanDiag, summary string) []acctest.PlanDiag {
	var out []acctest.PlanDiag
	for _, d := range diags {
		if d.Summary == summary {
			out = append(out, d)
		}
	}
	return out
}

func websiteBlock(name, domain, extra string) string {
	return fmt.Sprintf("resource \"analytics_website\" %q {\n  domain = %q\n%s}\n", name, domain, extra)
}

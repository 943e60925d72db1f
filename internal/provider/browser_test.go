//go:build browser

package provider

// The browser tests (make test-browser, build tag "browser"): Terraform
// applies a website whose tracking_code is an output, a page served on
// loopback carries that output in its <head>, and a real, headless Chromium
// opens it; the pageview then shows up, or not, in the statistics API of
// the in-process emulator. They need Debian's chromium at /usr/bin/chromium
// and TF_ACC, and fail, never skip, without them: the build tag is how one
// asks for them. `make test` neither builds nor runs them.
//
// browser_chromium_test.go drives Chromium; nothing there leaves the machine.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
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

const (
	// recordTimeout bounds the wait for a pageview to show up in the
	// statistics once the script has sent it.
	recordTimeout = 20 * time.Second

	// recordedPage is the page the website records: pagePath and
	// pageQuery without utm_source, which the website excludes.
	recordedPage = "/landing?keep=1"
)

// browserPreCheck fails t unless the browser tests can run: they are asked
// for by their build tag, so a missing piece is an error, not a skip.
func browserPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Fatal("the browser tests are acceptance tests: set TF_ACC=1 and TF_ACC_TERRAFORM_PATH (make test-browser does)")
	}
	if acctest.LiveMode() {
		t.Fatalf("the browser tests run against the in-process emulator only (nothing may leave the machine): unset %s", acctest.EnvBaseURL)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Chromium at %s (install it with `apt-get install chromium`): %v", chromiumPath, err)
	}
	acctest.PreCheck(t)
}

// browserConfig is a website of domain that excludes the utm_source
// parameter, with its tracking_code as an output, under a provider block
// with settings added.
func browserConfig(env *acctest.Env, settings, domain string) string {
	return env.ProviderBlock(settings) + fmt.Sprintf(`
resource "analytics_website" "shop" {
  domain         = %q
  exclude_params = ["utm_source"]
}

output "tracking_code" {
  value = analytics_website.shop.tracking_code
}
`, domain)
}

// trackingOutput returns the tracking_code output and the website's id
// from st.
func trackingOutput(st *terraform.State) (code string, id int64, err error) {
	mod := st.RootModule()
	out, ok := mod.Outputs["tracking_code"]
	if !ok {
		return "", 0, errors.New("the state has no output tracking_code")
	}
	if code, ok = out.Value.(string); !ok || code == "" {
		return "", 0, fmt.Errorf("output tracking_code is %#v, want the tracking code", out.Value)
	}
	res, ok := mod.Resources["analytics_website.shop"]
	if !ok || res.Primary == nil {
		return "", 0, errors.New("the state has no analytics_website.shop")
	}
	id, err = strconv.ParseInt(res.Primary.ID, 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("analytics_website.shop: id %q: %w", res.Primary.ID, err)
	}
	return code, id, nil
}

// statsClient reads the statistics of env's emulator through the API.
func statsClient(t *testing.T, env *acctest.Env) *client.Client {
	t.Helper()
	c, err := client.New(env.URL, env.Key, client.Options{Version: "browser-test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// statistics reads one statistic of website id, every day from 2000 on,
// through GET /api/v1/stats/{id}.
func statistics(ctx context.Context, c *client.Client, id int64, name string) ([]client.StatisticsRow, error) {
	p, err := c.GetStatistics(ctx, id, client.StatisticsQuery{Name: name, From: "2000-01-01", To: "2100-12-31",
		SortBy: client.StatsSortByValue, Sort: client.SortAsc, PerPage: client.MaxPerPage})
	if err != nil {
		return nil, fmt.Errorf("reading the %s statistics of website %d: %w", name, id, err)
	}
	return p.Rows, nil
}

// waitForPageviews reads website id's pageviews until there are some or
// recordTimeout has passed, and returns the last read.
func waitForPageviews(ctx context.Context, c *client.Client, id int64) ([]client.StatisticsRow, error) {
	deadline := time.Now().Add(recordTimeout)
	for {
		rows, err := statistics(ctx, c, id, client.StatisticPageviews)
		if err != nil || len(rows) > 0 || time.Now().After(deadline) {
			return rows, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkRecorded fails unless website id has exactly one pageview, on one of
// days, of recordedPage, at the visit's screen resolution, and the
// emulator got exactly one request at its tracking endpoint.
func checkRecorded(ctx context.Context, env *acctest.Env, c *client.Client, id int64, v *visit, days map[string]bool) error {
	pageviews, err := waitForPageviews(ctx, c, id)
	if err != nil {
		return err
	}
	if len(pageviews) == 0 {
		return fmt.Errorf("no pageview recorded within %s; the tracking endpoint got %d requests (one that records "+
			"nothing came from a bot's user agent or an excluded address)", recordTimeout, env.Stats().ByRoute["POST /api/event"])
	}
	if len(pageviews) != 1 || pageviews[0].Count != 1 || !days[pageviews[0].Value] {
		return fmt.Errorf("pageviews %+v, want one pageview on one of %v", pageviews, sortedKeys(days))
	}
	var errs []error
	for name, want := range map[string]string{"page": recordedPage, "resolution": v.Screen} {
		rows, err := statistics(ctx, c, id, name)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(rows) != 1 || rows[0].Value != want || rows[0].Count != 1:
			errs = append(errs, fmt.Errorf("%s statistics %+v, want %q once", name, rows, want))
		}
	}
	if n := env.Stats().ByRoute["POST /api/event"]; n != 1 {
		errs = append(errs, fmt.Errorf("the tracking endpoint got %d requests, want 1", n))
	}
	return errors.Join(errs...)
}

// trackingLog records what reaches the emulator's tracking endpoint (a
// handler in front of it, acctest.Wrap), for the tests to check what the
// script sent.
type trackingLog struct {
	mu   sync.Mutex
	hits []trackingHit
}

// trackingHit is one POST to the tracking endpoint.
type trackingHit struct {
	ContentType, Origin, UserAgent string
	// Body is the JSON body, as canonical JSON (keys sorted).
	Body string
}

func (l *trackingLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/event") {
			raw, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(raw))
			h := trackingHit{ContentType: r.Header.Get("Content-Type"), Origin: r.Header.Get("Origin"),
				UserAgent: r.UserAgent(), Body: string(raw)}
			var body map[string]any
			if json.Unmarshal(raw, &body) == nil {
				if canonical, err := json.Marshal(body); err == nil {
					h.Body = string(canonical)
				}
			}
			l.mu.Lock()
			l.hits = append(l.hits, h)
			l.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// check fails unless the log holds exactly the bodies want (as canonical
// JSON, in any order: the browser sends them side by side), each a JSON
// POST from origin with a user agent containing ua.
func (l *trackingLog) check(origin, ua string, want ...map[string]any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs, got, wanted []string
	for _, h := range l.hits {
		// The script asks for "application/json; charset=utf-8"; XMLHttpRequest
		// writes the charset as "UTF-8".
		mt, params, err := mime.ParseMediaType(h.ContentType)
		if err != nil || mt != "application/json" || !strings.EqualFold(params["charset"], "utf-8") || h.Origin != origin ||
			!strings.Contains(h.UserAgent, ua) {
			errs = append(errs, fmt.Sprintf("a tracking request with Content-Type %q, Origin %q, User-Agent %q; want "+
				"application/json; charset=utf-8, %q and %q", h.ContentType, h.Origin, h.UserAgent, origin, ua))
		}
		got = append(got, h.Body)
	}
	for _, w := range want {
		raw, err := json.Marshal(w)
		if err != nil {
			return err
		}
		wanted = append(wanted, string(raw))
	}
	slices.Sort(got)
	slices.Sort(wanted)
	if !slices.Equal(got, wanted) {
		errs = append(errs, fmt.Sprintf("the tracking endpoint got\n  %s\nwant\n  %s",
			strings.Join(got, "\n  "), strings.Join(wanted, "\n  ")))
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// originOf is the origin of a page's address.
func originOf(pageURL string) string {
	u, err := url.Parse(pageURL)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// A browser with its own user agent (HeadlessChrome, a visitor to the
// application) opens a page carrying the tracking code of the Terraform
// output: the script posts the pageview as JSON, which the browser sends
// after a CORS preflight that reaches the emulator, and the pageview is
// recorded once, for the page without the excluded query parameter.
func TestBrowser_pageviewRecorded(t *testing.T) {
	browserPreCheck(t)
	log := &trackingLog{}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(log.wrap))
	c := statsClient(t, env)
	domain := "shop-" + acctest.RandomLabel(t, 8) + ".test"
	env.Test(t, resource.TestStep{
		Config: browserConfig(env, "", domain),
		Check: func(st *terraform.State) error {
			code, id, err := trackingOutput(st)
			if err != nil {
				return err
			}
			if !strings.Contains(code, `data-dnt="false"`) || !strings.Contains(code, `src="`+env.URL+tracking.ScriptPath+`"`) {
				return fmt.Errorf("tracking_code %s: want data-dnt=\"false\" and the script at base_url", code)
			}
			s := serveSite(t, code)
			pageURL := s.pageURL("www." + domain)
			before := time.Now()
			v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, visitOptions{})
			if err != nil {
				return err
			}
			t.Logf("visit of %s: %+v", pageURL, v)
			switch {
			case !s.served(pageURL):
				return fmt.Errorf("the page server never answered %s", pageURL)
			case !strings.Contains(v.UserAgent, "HeadlessChrome"):
				return fmt.Errorf("navigator.userAgent is %q, want headless Chromium's own (HeadlessChrome)", v.UserAgent)
			case v.Tracked != "sent":
				return fmt.Errorf("the tracking script says %q, want \"sent\"", v.Tracked)
			case !slices.Equal(v.Events, []string{"HTTP 200"}):
				return fmt.Errorf("the requests to the tracking endpoint: %q, want one HTTP 200", v.Events)
			case v.DoNotTrack != "null":
				return fmt.Errorf("navigator.doNotTrack is %s, which this test does not ask for", v.DoNotTrack)
			case !slices.Contains(v.Requests, env.URL+tracking.ScriptPath):
				return fmt.Errorf("the page did not load %s%s: %v", env.URL, tracking.ScriptPath, v.Requests)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			if n := env.Stats().Preflights["POST /api/event"]; n != 1 {
				return fmt.Errorf("the emulator answered %d CORS preflights for POST /api/event, want 1 (all: %v)", n, env.Stats().Preflights)
			}
			if err := log.check(originOf(pageURL), "HeadlessChrome",
				map[string]any{"referrer": "", "page": pageURL, "screen_resolution": v.Screen}); err != nil {
				return err
			}
			return checkRecorded(t.Context(), env, c, id, v, acctest.HitDays(before, time.Now()))
		},
	}, resource.TestStep{
		// The statistics data source shows the visit under the names
		// WhichBrowser gives headless Chromium's own user agent (X11;
		// Linux, HeadlessChrome/...): Chrome, Linux, desktop (see the
		// tracking package's useragent_test.go for the parser's source lines).
		Config: browserConfig(env, "", domain) + dimensionStats("browser") + dimensionStats("os") + dimensionStats("device"),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(statsAddr("browser"), tfjsonpath.New("top"), knownvalue.ListExact([]knownvalue.Check{topRow("Chrome", 1)})),
			statecheck.ExpectKnownValue(statsAddr("os"), tfjsonpath.New("top"), knownvalue.ListExact([]knownvalue.Check{topRow("Linux", 1)})),
			statecheck.ExpectKnownValue(statsAddr("device"), tfjsonpath.New("top"), knownvalue.ListExact([]knownvalue.Check{topRow("desktop", 1)})),
		},
	})
}

// dimensionStats is the statistics data source of the browser tests'
// website over the default window, named and broken down by dimension.
func dimensionStats(dimension string) string {
	return fmt.Sprintf(`
data "analytics_website_statistics" %[1]q {
  website_id = analytics_website.shop.id
  dimension  = %[1]q
}
`, dimension)
}

// A single-page application: after the first pageview, the page moves to
// another address with history.pushState (a second pageview, whose
// referrer is the first page), sends a custom event with pa.track, and
// goes back (popstate: a third pageview). The excluded query parameter is
// gone from every recorded page, and only the first pageview is a new
// visitor (the others are referred by the site itself).
func TestBrowser_singlePageNavigation(t *testing.T) {
	browserPreCheck(t)
	log := &trackingLog{}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(log.wrap))
	c := statsClient(t, env)
	domain := "shop-" + acctest.RandomLabel(t, 8) + ".test"
	env.Test(t, resource.TestStep{
		Config: browserConfig(env, "", domain),
		Check: func(st *terraform.State) error {
			code, id, err := trackingOutput(st)
			if err != nil {
				return err
			}
			s := serveSite(t, code)
			pageURL := s.pageURL("www." + domain)
			step2 := originOf(pageURL) + "/step-2?utm_source=y&b=2"
			v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, visitOptions{posts: 4,
				then: `history.pushState({}, "", "/step-2?utm_source=y&b=2#details");
pa.track({name: "signup", value: 3, unit: "EUR"});
history.back();`})
			if err != nil {
				return err
			}
			t.Logf("visit of %s: %+v", pageURL, v)
			if v.Tracked != "sent" || !slices.Equal(v.Events, []string{"HTTP 200", "HTTP 200", "HTTP 200", "HTTP 200"}) {
				return fmt.Errorf("the script says %q and its requests got %q; want \"sent\" and four HTTP 200", v.Tracked, v.Events)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			if err := log.check(originOf(pageURL), "HeadlessChrome",
				map[string]any{"referrer": "", "page": pageURL, "screen_resolution": v.Screen},
				map[string]any{"referrer": pageURL, "page": step2, "screen_resolution": v.Screen},
				map[string]any{"event": map[string]any{"name": "signup", "value": 3, "unit": "EUR"}, "page": step2},
				map[string]any{"referrer": step2, "page": pageURL, "screen_resolution": v.Screen},
			); err != nil {
				return err
			}
			t.Logf("CORS preflights answered: %v", env.Stats().Preflights)
			if n := env.Stats().Preflights["POST /api/event"]; n < 1 {
				return fmt.Errorf("the emulator answered no CORS preflight for POST /api/event (all: %v)", env.Stats().Preflights)
			}
			if _, err := waitForPageviews(t.Context(), c, id); err != nil {
				return err
			}
			var errs []error
			for name, want := range map[string]map[string]int{
				client.StatisticPageviews: nil, // checked below: one day
				"page":                    {recordedPage: 2, "/step-2?b=2": 1},
				"landing_page":            {recordedPage: 1},
				"event":                   {"signup:3:EUR": 1},
			} {
				rows, err := statistics(t.Context(), c, id, name)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				got := map[string]int{}
				total := 0
				for _, r := range rows {
					got[r.Value] = int(r.Count)
					total += int(r.Count)
				}
				switch {
				case name == client.StatisticPageviews && (len(rows) != 1 || total != 3):
					errs = append(errs, fmt.Errorf("pageviews %+v, want 3 on one day", rows))
				case name != client.StatisticPageviews && !maps.Equal(got, want):
					errs = append(errs, fmt.Errorf("%s statistics %v, want %v", name, got, want))
				}
			}
			return errors.Join(errs...)
		},
	})
}

// tracking_respect_dnt = true: a browser that sends Do Not Track, and one
// whose navigator.doNotTrack says "unspecified" (as some browsers report
// when the visitor chose nothing), are sent nothing, not even a preflight,
// so nothing is recorded. The same page in a browser that reports nothing
// is recorded, through the tracking_url the browsers reach: here a name of
// its own, analytics.test, and an installation under a path prefix.
func TestBrowser_doNotTrack(t *testing.T) {
	browserPreCheck(t)
	const prefix = "/analytics"
	env := acctest.New(t, acctest.Emulator(emulator.Options{PathPrefix: prefix}))
	u, err := url.Parse(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	env.URL += prefix // base_url
	c := statsClient(t, env)
	publicURL := "http://analytics.test:" + u.Port() + prefix
	domain := "shop-" + acctest.RandomLabel(t, 8) + ".test"
	settings := fmt.Sprintf("  tracking_url         = %q\n  tracking_respect_dnt = true\n", publicURL)
	env.Test(t, resource.TestStep{
		Config: browserConfig(env, settings, domain),
		Check: func(st *terraform.State) error {
			code, id, err := trackingOutput(st)
			if err != nil {
				return err
			}
			if !strings.Contains(code, `data-dnt="true"`) || !strings.Contains(code, `data-host="`+publicURL+`"`) {
				return fmt.Errorf("tracking_code %s: want data-dnt=\"true\" and data-host=%q", code, publicURL)
			}
			s := serveSite(t, code)
			pageURL := s.pageURL("www." + domain)

			for _, tc := range []struct {
				name string
				o    visitOptions
				want string // navigator.doNotTrack
			}{
				{"the profile's Do Not Track preference", visitOptions{doNotTrack: true}, "1"},
				{`navigator.doNotTrack "unspecified"`, visitOptions{doNotTrackValue: "unspecified"}, "unspecified"},
			} {
				v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, tc.o)
				if err != nil {
					return err
				}
				t.Logf("visit of %s with %s: %+v", pageURL, tc.name, v)
				switch {
				case v.DoNotTrack != tc.want:
					return fmt.Errorf("%s: navigator.doNotTrack is %s, want %q", tc.name, v.DoNotTrack, tc.want)
				case !slices.Contains(v.Requests, publicURL+tracking.ScriptPath):
					return fmt.Errorf("%s: the page did not load %s%s: %v", tc.name, publicURL, tracking.ScriptPath, v.Requests)
				case v.Tracked != "dnt" || len(v.Events) != 0:
					return fmt.Errorf("%s: the tracking script says %q and sent %q, want \"dnt\" and nothing", tc.name, v.Tracked, v.Events)
				}
				if err := checkLoopbackOnly(v.Requests); err != nil {
					return err
				}
			}
			time.Sleep(time.Second) // anything sent would have arrived by now
			if st := env.Stats(); st.ByRoute["POST /api/event"] != 0 || len(st.Preflights) != 0 {
				return fmt.Errorf("the tracking endpoint got %d requests and %v preflights from browsers that report Do Not "+
					"Track, want none", st.ByRoute["POST /api/event"], st.Preflights)
			}
			rows, err := statistics(t.Context(), c, id, client.StatisticPageviews)
			if err != nil {
				return err
			}
			if len(rows) != 0 {
				return fmt.Errorf("pageviews %+v from browsers that report Do Not Track, want none", rows)
			}

			// Without Do Not Track, the same page is recorded.
			before := time.Now()
			v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, visitOptions{})
			if err != nil {
				return err
			}
			t.Logf("visit of %s without Do Not Track: %+v", pageURL, v)
			if v.Tracked != "sent" || v.DoNotTrack != "null" || !slices.Equal(v.Events, []string{"HTTP 200"}) {
				return fmt.Errorf("without Do Not Track: the script says %q, navigator.doNotTrack is %s and the tracking "+
					"requests got %q; want \"sent\", null and one HTTP 200", v.Tracked, v.DoNotTrack, v.Events)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			return checkRecorded(t.Context(), env, c, id, v, acctest.HitDays(before, time.Now()))
		},
	})
}

// A crawler's visit (Chromium presenting Googlebot's user agent) to a
// website that excludes bots, as websites do by default: the script sends
// the pageview, the endpoint refuses it (a bot), and it is recorded nowhere.
func TestBrowser_botExcluded(t *testing.T) {
	browserPreCheck(t)
	log := &trackingLog{}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(log.wrap))
	c := statsClient(t, env)
	domain := "shop-" + acctest.RandomLabel(t, 8) + ".test"
	env.Test(t, resource.TestStep{
		Config: browserConfig(env, "", domain),
		Check: func(st *terraform.State) error {
			code, id, err := trackingOutput(st)
			if err != nil {
				return err
			}
			if w, ok := env.Website(id); !ok || w.ExcludeBots == nil || *w.ExcludeBots != 1 {
				return fmt.Errorf("website %d: exclude_bots is not on (%+v)", id, w)
			}
			s := serveSite(t, code)
			pageURL := s.pageURL("www." + domain)
			v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, visitOptions{userAgent: acctest.GooglebotUA})
			if err != nil {
				return err
			}
			t.Logf("visit of %s as Googlebot: %+v", pageURL, v)
			switch {
			case v.UserAgent != acctest.GooglebotUA:
				return fmt.Errorf("navigator.userAgent is %q, want %q", v.UserAgent, acctest.GooglebotUA)
			case v.Tracked != "sent" || !slices.Equal(v.Events, []string{"HTTP 200"}):
				return fmt.Errorf("the script says %q and its requests got %q; want \"sent\" and one HTTP 200", v.Tracked, v.Events)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			if err := log.check(originOf(pageURL), "Googlebot",
				map[string]any{"referrer": "", "page": pageURL, "screen_resolution": v.Screen}); err != nil {
				return err
			}
			if n := env.Stats().ByRoute["POST /api/event"]; n != 1 {
				return fmt.Errorf("the tracking endpoint got %d requests, want the crawler's one", n)
			}
			if rows := env.Statistics(id); len(rows) != 0 {
				return fmt.Errorf("the emulator recorded %+v for a bot, want nothing", rows)
			}
			rows, err := statistics(t.Context(), c, id, client.StatisticPageviews)
			if err != nil {
				return err
			}
			if len(rows) != 0 {
				return fmt.Errorf("pageviews %+v from a bot, want none", rows)
			}
			return nil
		},
	})
}

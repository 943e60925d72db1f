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
// Nothing leaves the machine. Chromium resolves the tests' host names
// (www.shop-<random>.test, analytics.test) to 127.0.0.1 and every other
// name to "not found" (--host-resolver-rules), uses no proxy and runs
// without its background services (chromedp's defaults and the flags
// below); the page, the script and the tracking endpoint are all on
// loopback, and each visit checks that every request of the page went
// there. (Chromium still probes whether IPv6 is reachable by connecting a
// UDP socket to a public address, which sends no packet.)

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const (
	// chromiumPath is Debian's chromium (apt-get install chromium).
	chromiumPath = "/usr/bin/chromium"

	// desktopUA is the user agent Chromium presents in these tests. Headless
	// Chromium's own names "HeadlessChrome", which the application's bot
	// detection (and the emulator's, emulator.IsBot) classifies as a bot: with
	// exclude_bots on, the default, its pageviews are never recorded. The
	// tests keep the default, as a website owner would, and present a
	// desktop Chrome instead.
	desktopUA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/148.0.0.0 Safari/537.36"

	// hostResolverRules maps the tests' .test names to loopback and every
	// other name to "not found"; 127.0.0.1 (the emulator and the page
	// server) is used as it is.
	hostResolverRules = "MAP *.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"

	// browserTimeout bounds one visit, from Chromium's start to its exit.
	browserTimeout = 90 * time.Second

	// recordTimeout bounds the wait for a pageview to show up in the
	// statistics once the script has sent it.
	recordTimeout = 20 * time.Second

	// pagePath and pageQuery are the visited page: utm_source is excluded
	// by the website, keep is not.
	pagePath  = "/landing"
	pageQuery = "utm_source=x&keep=1"
	// recordedPage is the page the website records: without utm_source.
	recordedPage = "/landing?keep=1"
)

// browserPreCheck fails t unless the browser tests can run: they are asked
// for by their build tag, so a missing piece is an error, not a skip.
func browserPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Fatal("the browser tests are acceptance tests: set TF_ACC=1 and TF_ACC_TERRAFORM_PATH (make test-browser does)")
	}
	if liveMode() {
		t.Fatalf("the browser tests run against the in-process emulator only (nothing may leave the machine): unset %s", envAccBaseURL)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Chromium at %s (install it with `apt-get install chromium`): %v", chromiumPath, err)
	}
	testAccPreCheck(t)
}

// browserConfig is a website of domain that excludes the utm_source
// parameter, with its tracking_code as an output, under a provider block
// with settings added.
func (env *testEnv) browserConfig(settings, domain string) string {
	return fmt.Sprintf(`
provider "analytics" {
  base_url = %q
  api_key  = %q
%s}

resource "analytics_website" "shop" {
  domain         = %q
  exclude_params = ["utm_source"]
}

output "tracking_code" {
  value = analytics_website.shop.tracking_code
}
`, env.URL, env.Key, settings, domain)
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

// site is a website's page server on loopback: it answers any host name,
// serving pagePath as an HTML page with head in its <head>.
type site struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string // "Host RequestURI" of every request
}

func serveSite(t *testing.T, head string) *site {
	t.Helper()
	s := &site{}
	page := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Landing</title>\n" + head +
		"\n</head>\n<body>\n<h1>Landing</h1>\n</body>\n</html>\n"
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Host+" "+r.RequestURI)
		s.mu.Unlock()
		if r.URL.Path != pagePath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// pageURL is the page's address at host (www.<domain>, which Chromium
// maps to loopback), with the query the test visits.
func (s *site) pageURL(host string) string {
	_, port, _ := net.SplitHostPort(s.srv.Listener.Addr().String())
	return "http://" + host + ":" + port + pagePath + "?" + pageQuery
}

// served reports whether the server answered the request of pageURL, with
// its host name.
func (s *site) served(pageURL string) bool {
	u, err := url.Parse(pageURL)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.seen, u.Host+" "+u.RequestURI())
}

// visit is what a page looked like once its tracking script had run.
type visit struct {
	// Tracked is the data-tracked attribute the emulator's script sets on
	// its element when done: "sent", "dnt" or "failed".
	Tracked string
	// DoNotTrack is navigator.doNotTrack as the page saw it ("null" when
	// the browser does not ask).
	DoNotTrack string
	// Screen is window.screen as "WIDTHxHEIGHT".
	Screen string
	// Requests are the URLs of every request of the page.
	Requests []string
}

// visitInChromium opens pageURL in a new headless Chromium with a fresh
// profile in dir (sending Do Not Track if doNotTrack), waits until the
// tracking script has run, and returns what the page saw. An error
// carries Chromium's output.
func visitInChromium(ctx context.Context, dir, pageURL string, doNotTrack bool) (*visit, error) {
	if doNotTrack {
		// The profile's preference behind Settings > Privacy and security >
		// "Send a Do Not Track request with your browsing traffic".
		if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o700); err != nil {
			return nil, err
		}
		prefs, err := json.Marshal(map[string]any{"enable_do_not_track": true})
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "Default", "Preferences"), prefs, 0o600); err != nil {
			return nil, err
		}
	}
	var output bytes.Buffer
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.UserDataDir(dir),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("host-resolver-rules", hostResolverRules),
		chromedp.UserAgent(desktopUA),
		chromedp.WindowSize(1280, 720),
		chromedp.CombinedOutput(&output),
	)
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()

	v := &visit{}
	var mu sync.Mutex
	err := chromedp.Listen(tab, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			v.Requests = append(v.Requests, e.Request.URL)
			mu.Unlock()
		}
	})
	if err == nil {
		err = chromedp.Do(tab, chromedp.Navigate(pageURL))
	}
	if err == nil {
		v.Tracked, err = chromedp.Run(tab, chromedp.Poll[string](
			`(function () { var e = document.getElementById("`+emulator.TrackingScriptID+`"); return e && e.getAttribute("data-tracked"); })()`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
		if errors.Is(err, chromedp.ErrPollingTimeout) {
			err = fmt.Errorf("the tracking script did not run within 30 s (no data-tracked on #%s): %w", emulator.TrackingScriptID, err)
		}
	}
	if err == nil {
		v.DoNotTrack, err = chromedp.Run(tab, chromedp.Evaluate[string](`String(navigator.doNotTrack)`))
	}
	if err == nil {
		v.Screen, err = chromedp.Run(tab, chromedp.Evaluate[string](`window.screen.width + "x" + window.screen.height`))
	}
	if err == nil {
		// Let a beacon the script queued leave before the tab closes.
		time.Sleep(200 * time.Millisecond)
	}
	cancelTab()
	cancelAlloc() // waits for Chromium to exit
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		return v, fmt.Errorf("chromium, %s: %w\nchromium's output:\n%s", pageURL, err, output.String())
	}
	return v, nil
}

// checkLoopbackOnly fails unless every URL is on loopback: 127.0.0.1 or a
// .test name (which Chromium maps there).
func checkLoopbackOnly(urls []string) error {
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Errorf("the page requested %q: %w", raw, err)
		}
		if h := u.Hostname(); h != "127.0.0.1" && !strings.HasSuffix(h, ".test") {
			return fmt.Errorf("the page requested %s, off loopback", raw)
		}
	}
	return nil
}

// statsClient reads the statistics of env's emulator through the API.
func statsClient(t *testing.T, env *testEnv) *client.Client {
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
func checkRecorded(ctx context.Context, env *testEnv, c *client.Client, id int64, v *visit, days map[string]bool) error {
	pageviews, err := waitForPageviews(ctx, c, id)
	if err != nil {
		return err
	}
	if len(pageviews) == 0 {
		return fmt.Errorf("no pageview recorded within %s; the tracking endpoint got %d requests (one that records "+
			"nothing came from a bot's user agent or an excluded address)", recordTimeout, env.Stats().ByRoute["POST /api/event"])
	}
	if len(pageviews) != 1 || pageviews[0].Count != 1 || !days[pageviews[0].Value] {
		return fmt.Errorf("pageviews %+v, want one pageview on one of %v", pageviews, sortedDays(days))
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

// A browser opens a page carrying the tracking code of the Terraform
// output: the pageview is recorded once, for the page without the
// excluded query parameter.
func TestBrowser_pageviewRecorded(t *testing.T) {
	browserPreCheck(t)
	env := newTestEnv(t, emulator.Options{})
	c := statsClient(t, env)
	domain := "shop-" + randomLabel(t, 8) + ".test"
	env.test(t, resource.TestStep{
		Config: env.browserConfig("", domain),
		Check: func(st *terraform.State) error {
			code, id, err := trackingOutput(st)
			if err != nil {
				return err
			}
			if !strings.Contains(code, `data-dnt="false"`) || !strings.Contains(code, `src="`+env.URL+emulator.TrackingScriptPath+`"`) {
				return fmt.Errorf("tracking_code %s: want data-dnt=\"false\" and the script at base_url", code)
			}
			s := serveSite(t, code)
			pageURL := s.pageURL("www." + domain)
			before := time.Now()
			v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, false)
			if err != nil {
				return err
			}
			t.Logf("visit of %s: %+v", pageURL, v)
			switch {
			case !s.served(pageURL):
				return fmt.Errorf("the page server never answered %s", pageURL)
			case v.Tracked != "sent":
				return fmt.Errorf("the tracking script says %q, want \"sent\"", v.Tracked)
			case v.DoNotTrack == "1":
				return errors.New("the browser sent Do Not Track, which this test does not ask for")
			case !slices.Contains(v.Requests, env.URL+emulator.TrackingScriptPath):
				return fmt.Errorf("the page did not load %s%s: %v", env.URL, emulator.TrackingScriptPath, v.Requests)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			return checkRecorded(t.Context(), env, c, id, v, hitDays(before, time.Now()))
		},
	})
}

// tracking_respect_dnt = true and a browser that sends Do Not Track: the
// script runs and sends nothing, so nothing is recorded. The same page in a
// browser that does not send it is recorded, through the tracking_url the
// browsers reach (a name of its own, analytics.test, here).
func TestBrowser_doNotTrack(t *testing.T) {
	browserPreCheck(t)
	env := newTestEnv(t, emulator.Options{})
	c := statsClient(t, env)
	u, err := url.Parse(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	publicURL := "http://analytics.test:" + u.Port()
	domain := "shop-" + randomLabel(t, 8) + ".test"
	settings := fmt.Sprintf("  tracking_url         = %q\n  tracking_respect_dnt = true\n", publicURL)
	env.test(t, resource.TestStep{
		Config: env.browserConfig(settings, domain),
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

			v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, true)
			if err != nil {
				return err
			}
			t.Logf("visit of %s with Do Not Track: %+v", pageURL, v)
			switch {
			case v.DoNotTrack != "1":
				return fmt.Errorf("navigator.doNotTrack is %s, want \"1\": the profile's enable_do_not_track did not take", v.DoNotTrack)
			case !slices.Contains(v.Requests, publicURL+emulator.TrackingScriptPath):
				return fmt.Errorf("the page did not load %s%s: %v", publicURL, emulator.TrackingScriptPath, v.Requests)
			case v.Tracked != "dnt":
				return fmt.Errorf("the tracking script says %q, want \"dnt\" (it ran and sent nothing)", v.Tracked)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			time.Sleep(time.Second) // anything sent would have arrived by now
			if n := env.Stats().ByRoute["POST /api/event"]; n != 0 {
				return fmt.Errorf("the tracking endpoint got %d requests from a browser that sends Do Not Track, want none", n)
			}
			rows, err := statistics(t.Context(), c, id, client.StatisticPageviews)
			if err != nil {
				return err
			}
			if len(rows) != 0 {
				return fmt.Errorf("pageviews %+v from a browser that sends Do Not Track, want none", rows)
			}

			// Without Do Not Track, the same page is recorded.
			before := time.Now()
			v, err = visitInChromium(t.Context(), t.TempDir(), pageURL, false)
			if err != nil {
				return err
			}
			t.Logf("visit of %s without Do Not Track: %+v", pageURL, v)
			if v.Tracked != "sent" || v.DoNotTrack == "1" {
				return fmt.Errorf("without Do Not Track: the script says %q and navigator.doNotTrack is %s, want \"sent\" and not \"1\"", v.Tracked, v.DoNotTrack)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			return checkRecorded(t.Context(), env, c, id, v, hitDays(before, time.Now()))
		},
	})
}

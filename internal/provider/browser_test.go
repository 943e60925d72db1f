//go:build browser

package provider

// The browser tests (make test-browser, build tag "browser"): a real,
// headless Chromium opens a page that carries the tracking code Terraform
// put out, and the pageview it sends shows up, or not, in the statistics
// API of the in-process emulator. They need Debian's chromium at
// /usr/bin/chromium and fail, not skip, without it: the tag is how one asks
// for them. `make test` neither builds nor runs them.
//
// Nothing leaves the machine. Chromium resolves the tests' host names
// (www.shop-<random>.test) to 127.0.0.1 and every other name to nothing
// (--host-resolver-rules), uses no proxy, and runs without its background
// services; the page, the script and the tracking endpoint are all on
// loopback, and each visit checks that every request of the page went there.

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
	"strings"
	"sync"
	"time"

	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

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
	// tests keep the default and present a desktop Chrome instead.
	desktopUA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/148.0.0.0 Safari/537.36"

	// hostResolverRules maps the tests' .test names to loopback and every
	// other name to "not found"; 127.0.0.1 (the emulator and the page
	// server) is used as is.
	hostResolverRules = "MAP *.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"

	// browserTimeout bounds one visit, from Chromium's start to its exit.
	browserTimeout = 90 * time.Second
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

// site is a website's page server on loopback: it answers any host name,
// serving pagePath as an HTML page with head in its <head>.
type site struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string // "Host RequestURI" of every request
}

const pagePath = "/landing"

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

// port is the page server's port.
func (s *site) port() string {
	_, port, _ := net.SplitHostPort(s.srv.Listener.Addr().String())
	return port
}

// requests lists "Host RequestURI" of the requests the server got.
func (s *site) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
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
// profile (sending Do Not Track if doNotTrack), waits until the tracking
// script has run, and returns what the page saw. Chromium's output is
// kept for the error.
func visitInChromium(ctx context.Context, dir, pageURL string, doNotTrack bool) (*visit, error) {
	if doNotTrack {
		// The profile's preference behind Settings > Privacy > "Send a Do Not
		// Track request".
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
		// The beacon is on its way; closing the tab now could race it.
		time.Sleep(200 * time.Millisecond)
	}
	cancelTab()
	cancelAlloc()
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
		h := u.Hostname()
		if h != "127.0.0.1" && !strings.HasSuffix(h, ".test") {
			return fmt.Errorf("the page requested %s, off loopback", raw)
		}
	}
	return nil
}

// statistics reads one statistic of website id, every day from 2000 on.
func statistics(ctx context.Context, c *client.Client, id int64, name string) ([]client.StatisticsRow, error) {
	p, err := c.GetStatistics(ctx, id, client.StatisticsQuery{Name: name, From: "2000-01-01", To: "2100-12-31",
		SortBy: client.StatsSortByValue, Sort: client.SortAsc})
	if err != nil {
		return nil, fmt.Errorf("reading the %s statistics of website %d: %w", name, id, err)
	}
	return p.Rows, nil
}

// TODO(harness): replaced by the Terraform tests once tracking_code exists.
func TestBrowser_harness(t *testing.T) {
	browserPreCheck(t)
	env := newTestEnv(t, emulator.Options{})
	domain := "shop-" + randomLabel(t, 8) + ".test"
	w := env.Seed(env.Key, emulator.Website{Domain: domain, ExcludeParams: "utm_source"})
	code := fmt.Sprintf(`<script data-host="%s" data-dnt="false" src="%s/js/script.js" id="ZwSg9rf6GA" async defer></script>`, env.URL, env.URL)
	s := serveSite(t, code)
	pageURL := "http://www." + domain + ":" + s.port() + pagePath + "?utm_source=x&keep=1"
	before := time.Now()
	v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("visit: %+v; site saw %v; took %s", v, s.requests(), time.Since(before))
	c, err := client.New(env.URL, env.Key, client.Options{Version: "browser-test"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, err := statistics(t.Context(), c, w.ID, client.StatisticPageviews)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) > 0 || time.Now().After(deadline) {
			t.Logf("pageviews: %+v", rows)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	pages, err := statistics(t.Context(), c, w.ID, "page")
	t.Logf("page: %+v %v; stats %+v", pages, err, env.Stats().ByRoute)
	if err := checkLoopbackOnly(v.Requests); err != nil {
		t.Error(err)
	}
}

func TestBrowser_harnessDNT(t *testing.T) {
	browserPreCheck(t)
	env := newTestEnv(t, emulator.Options{})
	domain := "shop-" + randomLabel(t, 8) + ".test"
	env.Seed(env.Key, emulator.Website{Domain: domain, ExcludeParams: "utm_source"})
	code := fmt.Sprintf(`<script data-host="%s" data-dnt="true" src="%s/js/script.js" id="ZwSg9rf6GA" async defer></script>`, env.URL, env.URL)
	s := serveSite(t, code)
	pageURL := "http://www." + domain + ":" + s.port() + pagePath + "?utm_source=x&keep=1"
	v, err := visitInChromium(t.Context(), t.TempDir(), pageURL, true)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	t.Logf("visit: %+v; stats %+v", v, env.Stats().ByRoute)
}

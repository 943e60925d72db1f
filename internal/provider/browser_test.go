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
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
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

// A browser opens a page carrying the tracking code of the Terraform
// output: the pageview is recorded once, for the page without the
// excluded query parameter.
func TestBrowser_pageviewRecorded(t *testing.T) {
	browserPreCheck(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	c := statsClient(t, env)
	domain := "shop-" + acctest.RandomLabel(t, 8) + ".test"
	env.Test(t, resource.TestStep{
		Config: browserConfig(env, "", domain),
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
			case v.Event != "HTTP 200":
				return fmt.Errorf("the request to the tracking endpoint: %q, want HTTP 200", v.Event)
			case v.DoNotTrack == "1":
				return errors.New("the browser sent Do Not Track, which this test does not ask for")
			case !slices.Contains(v.Requests, env.URL+emulator.TrackingScriptPath):
				return fmt.Errorf("the page did not load %s%s: %v", env.URL, emulator.TrackingScriptPath, v.Requests)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			return checkRecorded(t.Context(), env, c, id, v, acctest.HitDays(before, time.Now()))
		},
	})
}

// tracking_respect_dnt = true and a browser that sends Do Not Track: the
// script runs and sends nothing, so nothing is recorded. The same page in a
// browser that does not send it is recorded, through the tracking_url the
// browsers reach: here a name of its own, analytics.test, and an
// installation under a path prefix.
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
			if v.Tracked != "sent" || v.DoNotTrack == "1" || v.Event != "HTTP 200" {
				return fmt.Errorf("without Do Not Track: the script says %q, navigator.doNotTrack is %s and the tracking "+
					"request got %q; want \"sent\", not \"1\" and HTTP 200", v.Tracked, v.DoNotTrack, v.Event)
			}
			if err := checkLoopbackOnly(v.Requests); err != nil {
				return err
			}
			return checkRecorded(t.Context(), env, c, id, v, acctest.HitDays(before, time.Now()))
		},
	})
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// What an accEnv test does outside Terraform, through the public API with
// the pacing client (env.api): seeding websites as the web interface would,
// changing and deleting them behind Terraform's back, and checking them;
// and visiting them as a browser does, through the tracking endpoint
// (env.hit).

// seed creates a website for key's user through the API, as the web
// interface would, outside Terraform. The cleanup deletes it if the test
// does not.
func (env *accEnv) seed(t *testing.T, key string, in client.WebsiteInput) client.Website {
	t.Helper()
	if !strings.HasPrefix(in.Domain, env.run+"-") {
		t.Fatalf("seed: the domain %q does not come from env.domain", in.Domain)
	}
	res, err := env.api(key).CreateWebsite(context.Background(), in)
	if err != nil {
		t.Fatalf("seed %s: %v", in.Domain, err)
	}
	env.mu.Lock()
	env.seeded[res.Website.ID] = true
	env.mu.Unlock()
	return *res.Website
}

// website returns key's website of domain, through the API.
func (env *accEnv) website(key, domain string) (*client.Website, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return env.api(key).FindWebsiteByDomain(ctx, domain)
}

// mustWebsite is website for a step's PreConfig: it fails the test when the
// website is not there.
func (env *accEnv) mustWebsite(t *testing.T, domain string) client.Website {
	t.Helper()
	w, err := env.website(env.Key, domain)
	if err != nil {
		t.Fatalf("reading %s: %v", domain, err)
	}
	return *w
}

// checkWebsite runs fn against the API's record of domain (the first key's
// user's).
func (env *accEnv) checkWebsite(domain string, fn func(w client.Website) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		w, err := env.website(env.Key, domain)
		if err != nil {
			return fmt.Errorf("reading %s through the API: %w", domain, err)
		}
		return fn(*w)
	}
}

// checkGone fails when key's user still has a website of domain.
func (env *accEnv) checkGone(domain string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := env.website(env.Key, domain)
		switch {
		case err == nil:
			return fmt.Errorf("%s is still on the server", domain)
		case errors.Is(err, client.ErrNotFound):
			return nil
		default:
			return err
		}
	}
}

// inputOf is the update that leaves w as it is (exclude_params, which the
// API never returns, is not sent).
func inputOf(w client.Website) client.WebsiteInput {
	return client.WebsiteInput{
		Privacy: w.PrivacyValue(), Email: w.EmailValue(), ExcludeBots: w.ExcludeBotsValue(),
		ExcludeIPs: w.ExcludeIPs, OmitExcludeParams: true,
	}
}

// change updates the website of domain through the API, as the web
// interface would behind Terraform's back: edit gets the website's current
// values (see inputOf).
func (env *accEnv) change(t *testing.T, domain string, edit func(in *client.WebsiteInput)) {
	t.Helper()
	w := env.mustWebsite(t, domain)
	in := inputOf(w)
	edit(&in)
	if _, err := env.api(env.Key).UpdateWebsite(context.Background(), w.ID, in); err != nil {
		t.Fatalf("updating %s: %v", domain, err)
	}
}

// remove deletes the website of domain through the API.
func (env *accEnv) remove(t *testing.T, domain string) {
	t.Helper()
	w := env.mustWebsite(t, domain)
	if err := env.api(env.Key).DeleteWebsite(context.Background(), w.ID); err != nil {
		t.Fatalf("deleting %s: %v", domain, err)
	}
}

// checkStored runs fn against the in-process emulator's record of domain,
// for what the API never returns (the password itself, exclude_params). In
// the live mode it checks nothing: such a test checks what the API shows
// with checkWebsite too.
func (env *accEnv) checkStored(domain string, fn func(w emulator.Website) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if env.emu == nil {
			return nil
		}
		for _, w := range env.emu.Websites() {
			if w.Domain == domain {
				return fn(w)
			}
		}
		return fmt.Errorf("the emulator has no website %q", domain)
	}
}

// User agents of the tests' pageviews: a browser's, and a crawler's that
// the application (and the emulator) classifies as a bot.
const (
	browserUA   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

// hit sends one pageview of page (a full URL) to the tracking endpoint of
// the installation, POST {base_url}/api/event without a key, as the
// tracking script in a visitor's browser does, with userAgent. It returns
// the endpoint's answer: "200" recorded, "403" not recorded (a bot, an
// excluded address, an account over its pageview limit), "404" no website
// has the page's domain.
func (env *accEnv) hit(t *testing.T, page, userAgent string) string {
	t.Helper()
	base, err := client.ParseBaseURL(env.URL)
	if err != nil {
		t.Fatalf("%s: %v", env.URL, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	got, err := emulator.SendHit(ctx, trackingClient(), strings.TrimSuffix(base.String(), "/api/v1"),
		emulator.Hit{Page: page, UserAgent: userAgent})
	if err != nil {
		t.Fatalf("tracking %s: %v", page, err)
	}
	return got
}

// trackingClient sends the tests' pageviews. The tracking endpoint is
// behind the throttle of the API (every hit counts against the address's
// 60 requests a minute, which the pacers of the provider and of env.api
// then see in X-RateLimit-Remaining), so a hit refused with 429 waits as
// the server asks (Retry-After) and goes again: the throttle refuses before
// anything is recorded. Nothing else is repeated.
var trackingClient = sync.OnceValue(func() *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{Transport: client.NewPooledTransport(), Timeout: client.DefaultTimeout}
	rc.Logger = nil
	rc.RetryMax = 5
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return err == nil && resp.StatusCode == http.StatusTooManyRequests, nil
	}
	return rc.StandardClient()
})

// A pageview refused by the throttle waits as the server asks and goes
// again.
func TestHarness_hitWaitsOutThrottle(t *testing.T) {
	t.Parallel()
	e, err := emulator.New(emulator.Options{RateLimit: 1, RateWindow: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	env := &accEnv{URL: srv.URL}
	for range 2 {
		if got := env.hit(t, "https://tf-acc-nowhere.example.com/", browserUA); got != "404" {
			t.Fatalf("tracking a page of no website: %q, want 404", got)
		}
	}
	if s := e.Stats(); s.Throttled != 1 || s.ByRoute["POST /api/event"] != 3 {
		t.Errorf("want the second pageview refused once, then sent again: %+v", s)
	}
}

package acctest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// What a test does outside Terraform, through the public API with the
// pacing client (API): seeding websites as the web interface would,
// changing and deleting them behind Terraform's back, and checking them;
// and visiting them as a browser does, through the tracking endpoint (Hit).

// APITimeout bounds one check a test makes through API: long enough for
// the real throttle (60 requests a minute) to make it wait out a window or
// two, as the provider does within its timeouts.
const APITimeout = 5 * time.Minute

// Clients of the tests' own checks, one per installation and key and shared
// by the tests, so that their pacers learn the throttle once.
var clients struct {
	sync.Mutex
	m map[[2]string]*client.Client
}

// API returns the pacing, retrying client of key: the tests' checks go
// through the throttle as politely as the provider does.
func (env *Env) API(key string) *client.Client {
	clients.Lock()
	defer clients.Unlock()
	if clients.m == nil {
		clients.m = map[[2]string]*client.Client{}
	}
	k := [2]string{env.URL, key}
	if c := clients.m[k]; c != nil {
		return c
	}
	c, err := client.New(env.URL, key, client.Options{
		Retry:   &client.RetryOptions{MaxRetries: client.DefaultMaxRetries},
		Version: "acceptance-test",
	})
	if err != nil {
		panic(fmt.Sprintf("acceptance test client: %v", err)) // the URL and key were checked by New
	}
	clients.m[k] = c
	return c
}

// keys are the keys of the users whose websites the test may make.
func (env *Env) keys() []string {
	if env.Key2 == "" {
		return []string{env.Key}
	}
	return []string{env.Key, env.Key2}
}

// CheckDestroy fails when a website the test did not seed is still there:
// in the in-process emulator's memory, or, in the live mode, among the
// test's websites of any of its users.
func (env *Env) CheckDestroy(*terraform.State) error {
	env.mu.Lock()
	defer env.mu.Unlock()
	if env.Emulator != nil {
		var left []emulator.Website
		for _, w := range env.Websites() {
			if !env.seeded[w.ID] {
				left = append(left, w)
			}
		}
		if len(left) != 0 {
			return fmt.Errorf("the emulator still holds %d websites after destroy, e.g. %q", len(left), left[0].Domain)
		}
		return nil
	}
	for _, key := range env.keys() {
		ws, err := env.TestWebsites(key)
		if err != nil {
			return err
		}
		for _, w := range ws {
			if !env.seeded[w.ID] {
				return fmt.Errorf("website %d (%s) is still on the server after destroy", w.ID, w.Domain)
			}
		}
	}
	return nil
}

// TestWebsites lists key's websites whose domain comes from Domain.
func (env *Env) TestWebsites(key string) ([]client.Website, error) {
	ctx, cancel := context.WithTimeout(context.Background(), APITimeout)
	defer cancel()
	ws, err := ListWebsites(ctx, env.API(key), env.run, func(w client.Website) bool {
		return strings.HasPrefix(w.Domain, env.run+"-")
	})
	if err != nil {
		return nil, fmt.Errorf("listing the test's websites: %w", err)
	}
	return ws, nil
}

// ListWebsites returns the websites of c's user that search finds and keep
// accepts (search is a substring match on the server: keep checks what it
// must), in id order. The list is read to the end first, so that deleting
// what it returns shifts none of its pages.
func ListWebsites(ctx context.Context, c *client.Client, search string, keep func(client.Website) bool) ([]client.Website, error) {
	var out []client.Website
	for w, err := range c.AllWebsites(ctx, client.ListOptions{Search: search, SortBy: client.SortByID, Sort: client.SortAsc}) {
		if err != nil {
			return nil, err
		}
		if keep(w) {
			out = append(out, w)
		}
	}
	return out, nil
}

// cleanup deletes what is left of the test's websites on the installation
// (those it seeded, or everything when it failed halfway), so that nothing
// is left behind.
func (env *Env) cleanup(t *testing.T) {
	t.Helper()
	for _, key := range env.keys() {
		ws, err := env.TestWebsites(key)
		if err != nil {
			t.Errorf("cleanup: %v", err)
			return
		}
		for _, w := range ws {
			if err := env.API(key).DeleteWebsite(context.Background(), w.ID); err != nil && !errors.Is(err, client.ErrNotFound) {
				t.Errorf("cleanup: deleting website %d (%s): %v", w.ID, w.Domain, err)
				continue
			}
			t.Logf("cleanup: deleted website %d (%s)", w.ID, w.Domain)
		}
	}
}

// SeedViaAPI creates a website for key's user through the API, as the web
// interface would, outside Terraform. The cleanup deletes it if the test
// does not.
func (env *Env) SeedViaAPI(t *testing.T, key string, in client.WebsiteInput) client.Website {
	t.Helper()
	if !strings.HasPrefix(in.Domain, env.run+"-") {
		t.Fatalf("seed: the domain %q does not come from env.Domain", in.Domain)
	}
	res, err := env.API(key).CreateWebsite(context.Background(), in)
	if err != nil {
		t.Fatalf("seed %s: %v", in.Domain, err)
	}
	w := res.Website
	env.mu.Lock()
	env.seeded[w.ID] = true
	env.mu.Unlock()
	return *w
}

// FindWebsite returns key's website of domain, through the API.
func (env *Env) FindWebsite(key, domain string) (*client.Website, error) {
	ctx, cancel := context.WithTimeout(context.Background(), APITimeout)
	defer cancel()
	return env.API(key).FindWebsiteByDomain(ctx, domain)
}

// MustWebsite is FindWebsite for a step's PreConfig: it fails the test when the
// website is not there.
func (env *Env) MustWebsite(t *testing.T, domain string) client.Website {
	t.Helper()
	w, err := env.FindWebsite(env.Key, domain)
	if err != nil {
		t.Fatalf("reading %s: %v", domain, err)
	}
	return *w
}

// CheckWebsite runs fn against the API's record of domain (the first key's
// user's).
func (env *Env) CheckWebsite(domain string, fn func(w client.Website) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		w, err := env.FindWebsite(env.Key, domain)
		if err != nil {
			return fmt.Errorf("reading %s through the API: %w", domain, err)
		}
		return fn(*w)
	}
}

// CheckGone fails when key's user still has a website of domain.
func (env *Env) CheckGone(domain string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := env.FindWebsite(env.Key, domain)
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

// InputOf is the update that leaves w as it is: each column the record
// returns (wire.Columns) is sent as w holds it, a NULL as the application
// reads it (wire.Column.Null) into a field always sent, or left out (a nil
// pointer); the columns it never returns, whose value w cannot tell, are
// left out (a nil pointer; OmitExcludeParams).
func InputOf(w client.Website) client.WebsiteInput {
	in := client.WebsiteInput{Domain: w.Domain, OmitExcludeParams: true}
	wv, iv := reflect.ValueOf(w), reflect.ValueOf(&in).Elem()
	for _, c := range wire.Columns {
		if !c.Returned || c.Kind == wire.Secret { // a secret: only whether one is set
			continue
		}
		got, dst := wv.FieldByIndex(recordField[c.Name]), iv.FieldByIndex(inputField[c.Name])
		t := dst.Type()
		if t.Kind() == reflect.Pointer {
			if got.IsZero() && got.Kind() != reflect.Slice {
				continue // NULL: left out
			}
			t = t.Elem()
		}
		v := got
		if c.Kind == wire.Integer {
			n := int64(c.Null)
			if !got.IsNil() {
				n = got.Elem().Int()
			}
			v = reflect.ValueOf(n != 0)
			if t.Kind() != reflect.Bool {
				v = reflect.ValueOf(n).Convert(t)
			}
		}
		if dst.Kind() == reflect.Pointer {
			p := reflect.New(t)
			p.Elem().Set(v)
			v = p
		}
		dst.Set(v)
	}
	return in
}

// The fields of each column in the client's types, by the column's name.
var (
	recordField = wire.Fields(reflect.TypeFor[client.Website](), "wire")
	inputField  = wire.Fields(reflect.TypeFor[client.WebsiteInput](), "form")
)

// Change updates the website of domain through the API, as the web
// interface would behind Terraform's back: edit gets the website's current
// values (see InputOf).
func (env *Env) Change(t *testing.T, domain string, edit func(in *client.WebsiteInput)) {
	t.Helper()
	w := env.MustWebsite(t, domain)
	in := InputOf(w)
	edit(&in)
	if _, err := env.API(env.Key).UpdateWebsite(context.Background(), w.ID, in); err != nil {
		t.Fatalf("updating %s: %v", domain, err)
	}
}

// Remove deletes the website of domain through the API.
func (env *Env) Remove(t *testing.T, domain string) {
	t.Helper()
	w := env.MustWebsite(t, domain)
	if err := env.API(env.Key).DeleteWebsite(context.Background(), w.ID); err != nil {
		t.Fatalf("deleting %s: %v", domain, err)
	}
}

// WebsiteByDomain returns the in-process emulator's record of domain.
func (env *Env) WebsiteByDomain(domain string) (emulator.Website, bool) {
	for _, w := range env.Websites() {
		if w.Domain == domain {
			return w, true
		}
	}
	return emulator.Website{}, false
}

// Writes counts the requests to the in-process emulator that change
// something on the server.
func (env *Env) Writes() int {
	s := env.Stats()
	return s.ByMethod["POST"] + s.ByMethod["PUT"] + s.ByMethod["PATCH"] + s.ByMethod["DELETE"]
}

// CheckEmulator runs fn against the in-process emulator's record of domain.
func (env *Env) CheckEmulator(domain string, fn func(w emulator.Website) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if w, ok := env.WebsiteByDomain(domain); ok {
			return fn(w)
		}
		return fmt.Errorf("the emulator has no website %q", domain)
	}
}

// CheckStored is CheckEmulator, for what the API never returns (the
// password itself, exclude_params), in a test that runs in the live mode
// too: there it checks nothing, and such a test checks what the API shows
// with CheckWebsite too.
func (env *Env) CheckStored(domain string, fn func(w emulator.Website) error) resource.TestCheckFunc {
	if env.Emulator == nil {
		return func(*terraform.State) error { return nil }
	}
	return env.CheckEmulator(domain, fn)
}

// User agents of the tests' pageviews: a browser's, and a crawler's that
// the application (and the emulator) classifies as a bot.
const (
	BrowserUA   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	GooglebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

// Hit sends one pageview of page (a full URL) to the tracking endpoint of
// the installation, POST {base_url}/api/event without a key, as the
// tracking script in a visitor's browser does, with userAgent. It returns
// the endpoint's answer: "200" recorded, "403" not recorded (a bot, an
// excluded address, an account over its pageview limit), "404" no website
// has the page's domain.
func (env *Env) Hit(t *testing.T, page, userAgent string) string {
	t.Helper()
	base, err := client.ParseBaseURL(env.URL)
	if err != nil {
		t.Fatalf("%s: %v", env.URL, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), APITimeout)
	defer cancel()
	got, err := tracking.SendHit(ctx, trackingClient(), strings.TrimSuffix(base.String(), "/api/v1"),
		tracking.Hit{Page: page, UserAgent: userAgent})
	if err != nil {
		t.Fatalf("tracking %s: %v", page, err)
	}
	return got
}

// Pageview records one pageview of domain's home page as a browser does
// and returns the days (UTC, YYYY-MM-DD) the installation can have
// recorded it on.
func (env *Env) Pageview(t *testing.T, domain string) map[string]bool {
	t.Helper()
	before := time.Now()
	if got := env.Hit(t, "https://"+domain+"/", BrowserUA); got != "200" {
		t.Fatalf("pageview of %s: the tracking endpoint answered %q, want 200 (recorded); a 403 for a website that "+
			"excludes nothing means that the account is over its pageview limit", domain, got)
	}
	return HitDays(before, time.Now())
}

// HitDays are the days a hit sent between from and to is recorded on, in
// any time zone: their UTC days, the day before and the day after.
func HitDays(from, to time.Time) map[string]bool {
	days := map[string]bool{}
	for _, at := range []time.Time{from, to} {
		for _, d := range []int{-1, 0, 1} {
			days[at.UTC().AddDate(0, 0, d).Format(time.DateOnly)] = true
		}
	}
	return days
}

// SkipUnlessInWindow skips t unless the pageviews of website id were
// recorded yesterday or today in UTC, the window of `days = 2`, and
// returns today (UTC). The installation records them on its own date: one
// east of UTC may already be a day ahead. The in-process emulator is on UTC.
func (env *Env) SkipUnlessInWindow(t *testing.T, id int64) time.Time {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), APITimeout)
	defer cancel()
	sum, err := env.API(env.Key).SummarizePageviews(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().UTC()
	if sum.Days == 0 {
		t.Fatalf("website %d has no pageviews", id)
	}
	if sum.First != today.Format(time.DateOnly) && sum.First != today.AddDate(0, 0, -1).Format(time.DateOnly) {
		t.Skipf("the installation recorded the pageview on %s, after today in UTC (%s): no window of days ending "+
			"today in UTC holds it yet; run again later in the installation's day", sum.First, today.Format(time.DateOnly))
	}
	return today
}

// trackingClient sends the tests' pageviews. The tracking endpoint is
// behind the throttle of the API (every hit counts against the address's
// 60 requests a minute, which the pacers of the provider and of env.API
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

package provider

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Sweepers, in terraform-plugin-testing's convention: with
//
//	go test ./internal/provider -sweep=all
//
// (any region name: an installation has none) TestMain runs them instead
// of the tests. They delete, at the installation of ANALYTICS_ACC_BASE_URL,
// every website of ANALYTICS_ACC_API_KEY's user (and of
// ANALYTICS_ACC_API_KEY2's, if set) whose domain starts with
// acctest.DomainPrefix, which the acceptance tests leave behind only when they
// are cut off, and no other website.

func init() {
	resource.AddTestSweepers("analytics_website", &resource.Sweeper{
		Name: "analytics_website",
		F:    sweepWebsites,
	})
}

// sweepWebsites is the analytics_website sweeper; the region is ignored.
func sweepWebsites(string) error {
	baseURL, key := os.Getenv(acctest.EnvBaseURL), os.Getenv(acctest.EnvAPIKey)
	if baseURL == "" || key == "" {
		return fmt.Errorf("the sweeper needs %s and %s (and %s for a second user, if the tests had one)",
			acctest.EnvBaseURL, acctest.EnvAPIKey, acctest.EnvAPIKey2)
	}
	keys := []string{key}
	if key2 := os.Getenv(acctest.EnvAPIKey2); key2 != "" && key2 != key {
		keys = append(keys, key2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var errs []error
	for i, k := range keys {
		c, err := client.New(baseURL, k, client.Options{
			Retry:   &client.RetryOptions{MaxRetries: client.DefaultMaxRetries},
			Version: "sweeper",
		})
		if err != nil {
			return err
		}
		deleted, err := sweepTestWebsites(ctx, c, func(w client.Website) {
			log.Printf("[INFO] sweeper: deleted website %d (%s) of user %d", w.ID, w.Domain, i+1)
		})
		log.Printf("[INFO] sweeper: user %d: websites deleted: %d", i+1, len(deleted))
		if err != nil {
			errs = append(errs, fmt.Errorf("user %d: %w", i+1, err))
		}
	}
	return errors.Join(errs...)
}

// sweepTestWebsites deletes every website of c's user whose domain starts
// with acctest.DomainPrefix, calling deleted for each, and returns them. A
// website already gone counts as deleted.
func sweepTestWebsites(ctx context.Context, c *client.Client, deleted func(client.Website)) ([]client.Website, error) {
	ws, err := acctest.ListWebsites(ctx, c, acctest.DomainPrefix, func(w client.Website) bool {
		return acctest.IsTestDomain(w.Domain)
	})
	if err != nil {
		return nil, fmt.Errorf("listing websites: %w", err)
	}
	var (
		done []client.Website
		errs []error
	)
	for _, w := range ws {
		if err := c.DeleteWebsite(ctx, w.ID); err != nil && !errors.Is(err, client.ErrNotFound) {
			errs = append(errs, fmt.Errorf("deleting website %d (%s): %w", w.ID, w.Domain, err))
			continue
		}
		done = append(done, w)
		if deleted != nil {
			deleted(w)
		}
	}
	return done, errors.Join(errs...)
}

func TestIsTestDomain(t *testing.T) {
	t.Parallel()
	for domain, want := range map[string]bool{
		"tf-acc-k3x9q2-lifecycle.example.com": true,
		"tf-acc-stats-1.example.com":          true,
		"TF-ACC-upper.example.com":            true,
		"example.com":                         false,
		"shop-tf-acc-x.example.com":           false,
		"tf-acc.example.com":                  false,
		"www.tf-acc-x.example.com":            false,
		"tfacc-x.example.com":                 false,
	} {
		if got := acctest.IsTestDomain(domain); got != want {
			t.Errorf("acctest.IsTestDomain(%q) = %v, want %v", domain, got, want)
		}
	}
}

// sweepFixture is an emulator holding, for two users, websites the sweepers
// must delete and websites they must leave alone, among them more than a
// list page of test websites.
type sweepFixture struct {
	url  string
	emu  *emulator.Emulator
	keep []string // domains that must stay
}

func newSweepFixture(t *testing.T) *sweepFixture {
	t.Helper()
	e, err := emulator.New(acctest.TwoUsers(emulator.Options{RateLimit: acctest.RateLimit, RateWindow: acctest.RateWindow}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	f := &sweepFixture{url: srv.URL, emu: e}
	f.keep = []string{"example.com", "shop-tf-acc-x.example.com", "a.tf-acc-y.example.com", "tf-acc.example.com", "my-tf-acc-z.example.org"}
	for _, key := range []string{acctest.KeyOwner, acctest.KeyOther} {
		for _, d := range f.keep {
			e.Seed(key, emulator.Website{Domain: strings.Replace(d, "example", "example-"+key[:4], 1)})
		}
	}
	f.keep = nil
	for _, w := range e.Websites() {
		f.keep = append(f.keep, w.Domain)
	}
	for i := range 105 {
		e.Seed(acctest.KeyOwner, emulator.Website{Domain: fmt.Sprintf("tf-acc-run%03d-lifecycle.example.com", i)})
	}
	e.Seed(acctest.KeyOther, emulator.Website{Domain: "tf-acc-other-user.example.com"})
	return f
}

// domains returns the domains the emulator holds, by user key.
func (f *sweepFixture) domains() map[string][]string {
	out := map[string][]string{}
	for _, w := range f.emu.Websites() {
		out[w.Owner] = append(out[w.Owner], w.Domain)
	}
	return out
}

func (f *sweepFixture) remaining() []string {
	var all []string
	for _, w := range f.emu.Websites() {
		all = append(all, w.Domain)
	}
	slices.Sort(all)
	return all
}

// The sweep of one user deletes that user's test websites, over several
// list pages, and nothing else: not another user's, not a domain that
// holds the prefix elsewhere.
func TestSweepTestWebsites(t *testing.T) {
	t.Parallel()
	f := newSweepFixture(t)
	c, err := client.New(f.url, acctest.KeyOwner, client.Options{Retry: &client.RetryOptions{MaxRetries: client.DefaultMaxRetries}})
	if err != nil {
		t.Fatal(err)
	}
	var logged int
	deleted, err := sweepTestWebsites(t.Context(), c, func(client.Website) { logged++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted) != 105 || logged != 105 {
		t.Errorf("deleted %d websites (%d reported), want 105", len(deleted), logged)
	}
	for _, w := range deleted {
		if !acctest.IsTestDomain(w.Domain) {
			t.Errorf("deleted %s", w.Domain)
		}
	}
	want := append(slices.Clone(f.keep), "tf-acc-other-user.example.com")
	slices.Sort(want)
	if got := f.remaining(); !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
}

// The registered sweeper, run as `go test -sweep=all` runs it, cleans both
// users of the ANALYTICS_ACC_* environment and keeps every other website.
func TestSweeper_fromEnvironment(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	f := newSweepFixture(t)
	t.Setenv(acctest.EnvBaseURL, f.url)
	t.Setenv(acctest.EnvAPIKey, acctest.KeyOwner)
	t.Setenv(acctest.EnvAPIKey2, acctest.KeyOther)
	if err := sweepWebsites("all"); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(f.keep)
	slices.Sort(want)
	if got := f.remaining(); !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
	if n := len(f.domains()[acctest.KeyOther]); n != len(f.keep)/2 {
		t.Errorf("the second user holds %d websites, want %d", n, len(f.keep)/2)
	}

	t.Setenv(acctest.EnvAPIKey, "")
	if err := sweepWebsites("all"); err == nil || !strings.Contains(err.Error(), acctest.EnvAPIKey) {
		t.Errorf("without a key: %v, want an error naming %s", err, acctest.EnvAPIKey)
	}
}

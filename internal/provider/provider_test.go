package provider

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/s3test"
)

// The acceptance tests run through internal/acctest, which serves this
// provider in-process to the real Terraform CLI that terraform-plugin-testing
// runs: a provider of newTestProvider for each time the CLI starts it.
func init() {
	acctest.Factories = map[string]func() (tfprotov6.ProviderServer, error){
		"analytics": func() (tfprotov6.ProviderServer, error) {
			return NewServer(newTestProvider(os.Getenv))()
		},
	}
	acctest.FactoriesWithEnv = func(getenv func(string) string) map[string]func() (tfprotov6.ProviderServer, error) {
		return map[string]func() (tfprotov6.ProviderServer, error){
			"analytics": func() (tfprotov6.ProviderServer, error) {
				return NewServer(newTestProvider(getenv))()
			},
		}
	}
}

// envOf is an environment of the provider: vars, else the process's.
func envOf(vars map[string]string) func(string) string {
	return func(name string) string {
		if v, ok := vars[name]; ok {
			return v
		}
		return os.Getenv(name)
	}
}

// fastRetryURLs holds the base URLs of the emulators of the tests that
// called fastRetries.
var fastRetryURLs sync.Map

// newTestProvider is the tests' constructor of the provider: the release's,
// with the first backoff of fastRetries for the emulators of the tests
// that called it, reading its environment through getenv.
func newTestProvider(getenv func(string) string) provider.Provider {
	return &analyticsProvider{version: "test", getenv: getenv, retryWaitMin: func(baseURL string) time.Duration {
		if _, fast := fastRetryURLs.Load(strings.TrimSuffix(baseURL, "/")); fast {
			return 5 * time.Millisecond
		}
		return 0
	}}
}

// fastRetries shortens the client's backoffs to 5ms (the maximum to 80ms)
// for the rest of the test, in the providers the harness starts in-process
// (acctest.Factories) whose base_url is env's, so that tests against a
// faulty emulator run quickly; waits the server asks for (Retry-After)
// are unchanged. Other tests, running beside, keep the default backoffs.
func fastRetries(t *testing.T, env *acctest.Env) {
	t.Helper()
	url := strings.TrimSuffix(env.URL, "/")
	fastRetryURLs.Store(url, true)
	// Before the emulator's server closes (cleanups run last first), so
	// that no later server on the same port is fast by mistake.
	t.Cleanup(func() { fastRetryURLs.Delete(url) })
}

// requiredProviders names the provider's source, for configurations that
// terraform-plugin-testing copies into a working directory of their own (the
// plannable import steps).
const requiredProviders = `
terraform {
  required_providers {
    analytics = { source = "analytics-tf/analytics" }
  }
}
`

func ptr[T any](v T) *T { return &v }

// TestMain runs the tests, or with -sweep the sweepers instead
// (sweep_test.go), and removes the provider built for the tests that drive
// the CLI themselves, and stops the object store of the export tests.
func TestMain(m *testing.M) { acctest.Main(m, s3test.StopShared) }

// The tests' domains are ones the server accepts and stores as they are,
// the sweepers recognise them, and each test's are its own.
func TestHarness_domains(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 50 {
		env := acctest.Unstarted(t)
		run := env.Run()
		if seen[run] {
			t.Fatalf("two tests got the prefix %s", run)
		}
		seen[run] = true
		for _, d := range []string{env.Domain("www2-lifecycle"), run + "-my" + env.Domain("shop")} {
			if p := domainProblem(d); p != "" {
				t.Errorf("%s: %s", d, p)
			}
			if got := canonicalDomain(d); got != d {
				t.Errorf("%s is stored as %s", d, got)
			}
			if !acctest.IsTestDomain(d) {
				t.Errorf("the sweepers do not recognise %s", d)
			}
		}
	}
}

// TestFastRetries: the providers the harness starts back off from 5ms for
// the emulator of a test that called fastRetries, from the release's
// default for any other base_url, and after the test.
func TestFastRetries(t *testing.T) {
	t.Parallel()
	wait := func(baseURL string) time.Duration {
		p, ok := newTestProvider(os.Getenv).(*analyticsProvider)
		if !ok {
			t.Fatalf("provider %T", p)
		}
		return p.retryWaitMin(baseURL)
	}
	env := acctest.Unstarted(t)
	env.URL = "http://127.0.0.1:1"
	t.Run("shortened", func(t *testing.T) {
		fastRetries(t, env)
		if got := wait(env.URL); got != 5*time.Millisecond {
			t.Errorf("the test's emulator: first backoff %v, want 5ms", got)
		}
		if got := wait(env.URL + "/"); got != 5*time.Millisecond {
			t.Errorf("the test's emulator, with a final slash: first backoff %v, want 5ms", got)
		}
		if got := wait("http://127.0.0.1:2"); got != 0 {
			t.Errorf("another emulator: first backoff %v, want the default", got)
		}
	})
	if got := wait(env.URL); got != 0 {
		t.Errorf("after the test: first backoff %v, want the default", got)
	}
}

package provider

import (
	"sync/atomic"
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
			return NewServer(newTestProvider())()
		},
	}
}

// testRetryWaitMin is the first backoff of the providers the CLI starts
// from now on (0: the default); fastRetries sets it.
var testRetryWaitMin atomic.Int64

// newTestProvider is the tests' constructor of the provider: the release's,
// with the first backoff of fastRetries.
func newTestProvider() provider.Provider {
	return &analyticsProvider{version: "test", retryWaitMin: time.Duration(testRetryWaitMin.Load())}
}

// fastRetries shortens the client's backoffs to 5ms (the maximum to 80ms)
// for the rest of the test, so that tests against a faulty emulator run
// quickly; waits the server asks for (Retry-After) are unchanged. A test
// that calls it runs alone (acctest.Serial): call it before acctest.New.
func fastRetries(t *testing.T) {
	t.Helper()
	acctest.Serial(t, "fastRetries shortens the backoffs of every provider the harness starts")
	testRetryWaitMin.Store(int64(5 * time.Millisecond))
	t.Cleanup(func() { testRetryWaitMin.Store(0) })
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

// TestFastRetries: the providers the harness starts after fastRetries
// back off from 5ms, and from the release's default again after the test.
func TestFastRetries(t *testing.T) {
	t.Run("shortened", func(t *testing.T) {
		fastRetries(t)
		if p, ok := newTestProvider().(*analyticsProvider); !ok || p.retryWaitMin != 5*time.Millisecond {
			t.Errorf("provider %+v", p)
		}
	})
	if p, ok := newTestProvider().(*analyticsProvider); !ok || p.retryWaitMin != 0 {
		t.Errorf("after the test: provider %+v", p)
	}
}

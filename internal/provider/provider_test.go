package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the real
// Terraform CLI that terraform-plugin-testing runs.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"analytics": providerserver.NewProtocol6WithError(New("test")()),
}

// testEnv is one in-process emulator for one acceptance test.
type testEnv struct {
	*emulator.Emulator
	URL string
	Key string
}

// Throttle of the test emulators unless a test sets its own: the real
// server's 60 requests, in a short window, so that every acceptance test goes
// through the client's pacer as it would against a real server.
const (
	testRateLimit  = 60
	testRateWindow = time.Second
)

// newTestEnv starts an emulator (with opts) behind an httptest server. wrap,
// if given, wraps the emulator's handler, e.g. to act between requests. In
// the live mode it skips the test: a test that needs only the public API
// uses newAccEnv instead (acc_env_test.go).
func newTestEnv(t *testing.T, opts emulator.Options, wrap ...func(http.Handler) http.Handler) *testEnv {
	t.Helper()
	needsEmulator(t, "it sets up the emulator itself (newTestEnv: options, fault injection, its memory or request counts)")
	if opts.RateLimit == 0 {
		opts.RateLimit, opts.RateWindow = testRateLimit, testRateWindow
	}
	e, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("emulator: %v", err)
	}
	var h http.Handler = e
	for _, w := range wrap {
		h = w(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	key := emulator.DefaultAPIKey
	if len(opts.Users) > 0 {
		key = opts.Users[0].Key
	}
	return &testEnv{Emulator: e, URL: srv.URL, Key: key}
}

// providerConfig is the provider block pointing at the emulator.
func (env *testEnv) providerConfig() string {
	return env.providerConfigWithKey(env.Key)
}

func (env *testEnv) providerConfigWithKey(key string) string {
	return fmt.Sprintf(`
provider "analytics" {
  base_url = %q
  api_key  = %q
}
`, env.URL, key)
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

// config joins the provider block and the given HCL.
func (env *testEnv) config(hcl ...string) string {
	return env.providerConfig() + strings.Join(hcl, "\n")
}

// websiteByDomain returns the emulator's record of domain.
func (env *testEnv) websiteByDomain(t *testing.T, domain string) (emulator.Website, bool) {
	t.Helper()
	for _, w := range env.Websites() {
		if w.Domain == domain {
			return w, true
		}
	}
	return emulator.Website{}, false
}

// test runs steps as an acceptance test against env's emulator, which must
// hold no website once the test case has destroyed what it made.
func (env *testEnv) test(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkDestroyed(env),
		Steps:                    steps,
	})
}

// testAccPreCheck makes sure acceptance tests never fall back to downloading
// Terraform: the project builds its own (see GNUmakefile) and points
// TF_ACC_TERRAFORM_PATH at it.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		return // resource.Test skips the test and says so
	}
	p := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if p == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH must point at a Terraform or OpenTofu binary; run the tests with `make test`, which builds one")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("TF_ACC_TERRAFORM_PATH: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// expectError compiles a pattern of an error message in which every space
// matches any run of white space, since Terraform wraps long messages.
func expectError(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}

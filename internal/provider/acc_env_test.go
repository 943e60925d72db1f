package provider

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The live mode: with ANALYTICS_ACC_BASE_URL set, the acceptance tests that
// need nothing but the public API (newAccEnv) run against that installation,
// and those that need the in-process emulator's insides (newTestEnv: its
// options, fault injection, memory or request counts) skip, saying why.
// See CONTRIBUTING.md.
const (
	envAccBaseURL = "ANALYTICS_ACC_BASE_URL"
	envAccAPIKey  = "ANALYTICS_ACC_API_KEY"
	// envAccAPIKey2 is the key of another user of the same installation,
	// for the tests about other users' websites; they skip without it.
	envAccAPIKey2 = "ANALYTICS_ACC_API_KEY2"
)

// testDomainPrefix starts the domain of every website the acceptance tests
// create. The sweepers (sweep_test.go) delete websites whose domain starts
// with it, and only those.
const testDomainPrefix = "tf-acc-"

// liveMode reports whether the acceptance tests run against an installation.
func liveMode() bool { return os.Getenv(envAccBaseURL) != "" }

// needsEmulator skips t in the live mode, giving why: what of the in-process
// emulator the test needs that an installation does not offer.
func needsEmulator(t *testing.T, why string) {
	t.Helper()
	if liveMode() {
		t.Skipf("live mode (%s is set): needs the in-process emulator: %s", envAccBaseURL, why)
	}
}

// accEnv is the installation an acceptance test runs against: the one of
// ANALYTICS_ACC_BASE_URL in the live mode, else an in-process emulator with
// two users (throttled like newTestEnv's). Everything the test does goes
// through the public API, with the pacing client, and every website it
// makes has a domain from env.domain, so that CheckDestroy, the cleanup and
// the sweepers find it.
type accEnv struct {
	URL  string
	Key  string
	Key2 string             // another user's key; "" in the live mode without ANALYTICS_ACC_API_KEY2
	emu  *emulator.Emulator // local mode only
	// run starts every domain of this test: testDomainPrefix and a random
	// part, unique across the installation.
	run string

	mu     sync.Mutex
	seeded map[int64]bool // websites the test made through the API, not Terraform
}

// newAccEnv returns the environment of one acceptance test; it skips the
// test unless TF_ACC is set (nothing is sent to an installation then).
func newAccEnv(t *testing.T) *accEnv {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	env := &accEnv{run: testDomainPrefix + randomLabel(t, 6), seeded: map[int64]bool{}}
	if liveMode() {
		env.URL = os.Getenv(envAccBaseURL)
		env.Key = os.Getenv(envAccAPIKey)
		env.Key2 = os.Getenv(envAccAPIKey2)
		if env.Key == "" {
			t.Fatalf("%s is set, so %s must be too (the API key of a user of that installation)", envAccBaseURL, envAccAPIKey)
		}
		if env.Key2 == env.Key {
			t.Fatalf("%s must be the key of another user than %s", envAccAPIKey2, envAccAPIKey)
		}
	} else {
		e, err := emulator.New(twoUsers(emulator.Options{RateLimit: testRateLimit, RateWindow: testRateWindow}))
		if err != nil {
			t.Fatalf("emulator: %v", err)
		}
		srv := httptest.NewServer(e)
		t.Cleanup(srv.Close)
		env.emu, env.URL, env.Key, env.Key2 = e, srv.URL, keyOwner, keyOther
	}
	t.Setenv("TF_VAR_"+accKeyVar, env.Key)
	if env.Key2 != "" {
		t.Setenv("TF_VAR_"+accKey2Var, env.Key2)
	}
	t.Cleanup(func() { env.cleanup(t) })
	return env
}

// randomLabel is n random lower-case letters and digits.
func randomLabel(t *testing.T, n int) string {
	t.Helper()
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// domain is the domain of the test's website called name, e.g.
// "tf-acc-k3x9q2-lifecycle.example.com".
func (env *accEnv) domain(name string) string {
	return env.run + "-" + name + ".example.com"
}

// needsKey2 skips t unless a second user's key is known.
func (env *accEnv) needsKey2(t *testing.T) {
	t.Helper()
	if env.Key2 == "" {
		t.Skipf("live mode: needs another user of the installation: set %s", envAccAPIKey2)
	}
}

func (env *accEnv) providerConfig() string { return env.providerConfigWithKey(env.Key) }

func (env *accEnv) providerConfigWithKey(key string) string {
	return env.providerBlock(env.URL, key)
}

// Variables that carry the users' keys into the configurations (from
// TF_VAR_<name>, set by newAccEnv).
const (
	accKeyVar  = "analytics_acc_api_key"
	accKey2Var = "analytics_acc_api_key2"
)

// providerBlock is the provider block for baseURL and key. The users' keys
// are not written into the configuration, which terraform-plugin-testing
// logs at trace level and leaves in working directories: they come from
// sensitive variables (apiKeyRef). Any other key (a wrong one) is written
// as is.
func (env *accEnv) providerBlock(baseURL, key string) string {
	ref, decl := env.apiKeyRef(key)
	return fmt.Sprintf("%s\nprovider \"analytics\" {\n  base_url = %q\n  api_key  = %s\n}\n", decl, baseURL, ref)
}

// apiKeyRef returns the expression of key in a configuration and the
// declaration it needs.
func (env *accEnv) apiKeyRef(key string) (ref, decl string) {
	name := ""
	switch {
	case key == env.Key:
		name = accKeyVar
	case key == env.Key2 && key != "":
		name = accKey2Var
	default:
		return fmt.Sprintf("%q", key), ""
	}
	return "var." + name, fmt.Sprintf("\nvariable %q {\n  type      = string\n  sensitive = true\n}\n", name)
}

// config joins the provider block and the given HCL.
func (env *accEnv) config(hcl ...string) string {
	return env.providerConfig() + strings.Join(hcl, "\n")
}

// test runs steps as an acceptance test; see testCase.
func (env *accEnv) test(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	env.testCase(t, resource.TestCase{Steps: steps})
}

// testCase runs tc with the project's PreCheck and provider and, unless tc
// has its own, a CheckDestroy that finds, through the API, no website of
// this test left but those it seeded.
func (env *accEnv) testCase(t *testing.T, tc resource.TestCase) {
	t.Helper()
	tc.PreCheck = func() { testAccPreCheck(t) }
	tc.ProtoV6ProviderFactories = testAccProtoV6ProviderFactories
	if tc.CheckDestroy == nil {
		tc.CheckDestroy = env.checkDestroyed
	}
	resource.Test(t, tc)
}

// keys are the keys of the users whose websites the test may make.
func (env *accEnv) keys() []string {
	if env.Key2 == "" {
		return []string{env.Key}
	}
	return []string{env.Key, env.Key2}
}

// checkDestroyed fails when a website of this test that it did not seed is
// still there, for any of its users.
func (env *accEnv) checkDestroyed(*terraform.State) error {
	for _, key := range env.keys() {
		ws, err := env.testWebsites(key)
		if err != nil {
			return err
		}
		env.mu.Lock()
		for _, w := range ws {
			if !env.seeded[w.ID] {
				env.mu.Unlock()
				return fmt.Errorf("website %d (%s) is still on the server after destroy", w.ID, w.Domain)
			}
		}
		env.mu.Unlock()
	}
	return nil
}

// testWebsites lists key's websites whose domain starts with env.run.
func (env *accEnv) testWebsites(key string) ([]client.Website, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out []client.Website
	for w, err := range env.api(key).AllWebsites(ctx, client.ListOptions{Search: env.run, SortBy: client.SortByID, Sort: client.SortAsc}) {
		if err != nil {
			return nil, fmt.Errorf("listing the test's websites: %w", err)
		}
		if strings.HasPrefix(w.Domain, env.run+"-") {
			out = append(out, w)
		}
	}
	return out, nil
}

// cleanup deletes what is left of the test's websites (those it seeded, or
// everything when it failed halfway), so that nothing is left behind.
func (env *accEnv) cleanup(t *testing.T) {
	t.Helper()
	for _, key := range env.keys() {
		ws, err := env.testWebsites(key)
		if err != nil {
			t.Errorf("cleanup: %v", err)
			return
		}
		for _, w := range ws {
			if err := env.api(key).DeleteWebsite(context.Background(), w.ID); err != nil && !errors.Is(err, client.ErrNotFound) {
				t.Errorf("cleanup: deleting website %d (%s): %v", w.ID, w.Domain, err)
				continue
			}
			t.Logf("cleanup: deleted website %d (%s)", w.ID, w.Domain)
		}
	}
}

// Clients of the tests' own checks, one per installation and key and shared
// by the tests, so that their pacers learn the throttle once.
var accClients struct {
	sync.Mutex
	m map[[2]string]*client.Client
}

// api returns the pacing, retrying client of key: the tests' checks go
// through the throttle as politely as the provider does.
func (env *accEnv) api(key string) *client.Client {
	accClients.Lock()
	defer accClients.Unlock()
	if accClients.m == nil {
		accClients.m = map[[2]string]*client.Client{}
	}
	k := [2]string{env.URL, key}
	if c := accClients.m[k]; c != nil {
		return c
	}
	c, err := client.New(env.URL, key, client.Options{
		Retry:   &client.RetryOptions{MaxRetries: client.DefaultMaxRetries},
		Version: "acceptance-test",
	})
	if err != nil {
		panic(fmt.Sprintf("acceptance test client: %v", err)) // the URL and key were checked by newAccEnv
	}
	accClients.m[k] = c
	return c
}

// The tests' domains are ones the server accepts and stores as they are,
// the sweepers recognise them, and each test's are its own.
func TestHarness_domains(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 50 {
		env := &accEnv{run: testDomainPrefix + randomLabel(t, 6)}
		if seen[env.run] {
			t.Fatalf("two tests got the prefix %s", env.run)
		}
		seen[env.run] = true
		for _, d := range []string{env.domain("www2-lifecycle"), env.run + "-my" + env.domain("shop")} {
			if p := domainProblem(d); p != "" {
				t.Errorf("%s: %s", d, p)
			}
			if got := canonicalDomain(d); got != d {
				t.Errorf("%s is stored as %s", d, got)
			}
			if !isTestDomain(d) {
				t.Errorf("the sweepers do not recognise %s", d)
			}
		}
	}
}

// The users' keys never appear in a configuration; a wrong key does, as is.
func TestHarness_keysNotInConfiguration(t *testing.T) {
	t.Parallel()
	env := &accEnv{URL: "https://analytics.example.com", Key: "first-user-key-secret", Key2: "second-user-key-secret"}
	for key, want := range map[string]string{env.Key: "var." + accKeyVar, env.Key2: "var." + accKey2Var, "wrong-key": `"wrong-key"`} {
		cfg := env.providerConfigWithKey(key)
		if strings.Contains(cfg, "-secret") {
			t.Errorf("the configuration holds a user's key:\n%s", cfg)
		}
		if !strings.Contains(cfg, "api_key  = "+want+"\n") {
			t.Errorf("api_key is not %s:\n%s", want, cfg)
		}
	}
}

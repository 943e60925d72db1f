// Package acctest is the one harness of the provider's acceptance tests.
//
// An Env is what a test runs against: by default an in-process emulator
// with two users, or, in the live mode (ANALYTICS_ACC_BASE_URL set), that
// installation. A test that needs the in-process emulator's insides (its
// options, fault injection, its memory or request counts) says so with
// NeedsEmulator or by passing an emulator option to New, and skips in the
// live mode saying why. See CONTRIBUTING.md.
package acctest

import (
	"crypto/rand"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/tlstest"
)

// The live mode's settings.
const (
	EnvBaseURL = "ANALYTICS_ACC_BASE_URL"
	EnvAPIKey  = "ANALYTICS_ACC_API_KEY"
	// EnvAPIKey2 is the key of another user of the same installation, for
	// the tests about other users' websites; they skip without it.
	EnvAPIKey2 = "ANALYTICS_ACC_API_KEY2"
)

// DomainPrefix starts the domain of every website the acceptance tests
// create. The sweepers delete websites whose domain starts with it, and
// only those.
const DomainPrefix = "tf-acc-"

// IsTestDomain reports whether domain is one the acceptance tests make.
func IsTestDomain(domain string) bool {
	return strings.HasPrefix(strings.ToLower(domain), DomainPrefix)
}

// Throttle of the test emulators unless a test sets its own: the real
// server's 60 requests, in a short window, so that every acceptance test goes
// through the client's pacer as it would against a real server.
const (
	RateLimit  = 60
	RateWindow = time.Second
)

// Keys of the two users of the default emulator (TwoUsers).
const (
	KeyOwner = emulator.DefaultAPIKey
	KeyOther = "OtherUsersValidApiKey0123456789abcdefghijklmnopqrstuvwxyzABCDE"
)

// TwoUsers is opts with the users Alice (KeyOwner) and Bob (KeyOther).
func TwoUsers(opts emulator.Options) emulator.Options {
	opts.Users = []emulator.User{
		{Key: KeyOwner, Name: "Alice", Email: "alice@example.test"},
		{Key: KeyOther, Name: "Bob", Email: "bob@example.test"},
	}
	return opts
}

// Factories serve the provider under test in-process to the Terraform CLI
// that terraform-plugin-testing runs. The provider's tests set it (this
// package cannot import the provider, whose tests import it).
var Factories map[string]func() (tfprotov6.ProviderServer, error)

// FactoriesWithEnv are Factories whose providers read their environment
// through getenv (Env.TestCase gives each test's: SetProviderEnv). The
// provider's tests set it.
var FactoriesWithEnv func(getenv func(string) string) map[string]func() (tfprotov6.ProviderServer, error)

// LiveMode reports whether the acceptance tests run against an installation.
func LiveMode() bool { return os.Getenv(EnvBaseURL) != "" }

// NeedsEmulator skips t in the live mode, giving why: what of the in-process
// emulator the test needs that an installation does not offer.
func NeedsEmulator(t *testing.T, why string) {
	t.Helper()
	if LiveMode() {
		t.Skipf("live mode (%s is set): needs the in-process emulator: %s", EnvBaseURL, why)
	}
}

// EnvRepeatPass marks a run of the acceptance tests that repeats them
// against another CLI (make test's Terraform 1.16.4 and OpenTofu runs,
// after its first run on Terraform 1.8.5).
const EnvRepeatPass = "ANALYTICS_TEST_REPEAT_PASS"

// RepeatPass reports whether this run repeats the CLI-dependent tests on
// another CLI (EnvRepeatPass). A marked test whose cases do not all depend
// on the CLI runs there only those that do.
func RepeatPass() bool { return os.Getenv(EnvRepeatPass) != "" }

// RepeatPassSteps is steps, or in a repeat pass (RepeatPass) only those at
// the indexes keep, in that order: for a marked test of which only some
// steps exercise what depends on the CLI (an import, a write-only value),
// with the steps they build on (a create). The other steps ran in make
// test's first run; the test's comment says which steps run where.
func RepeatPassSteps(steps []resource.TestStep, keep ...int) []resource.TestStep {
	if !RepeatPass() {
		return steps
	}
	kept := make([]resource.TestStep, 0, len(keep))
	for _, i := range keep {
		kept = append(kept, steps[i])
	}
	return kept
}

// OncePerTestRun skips t in a repeat pass (EnvRepeatPass): for a slow test
// whose subject is the provider or the client, not the CLI, so that make
// test runs it once, in its first run, rather than once per CLI. why says
// what the test spends its time on. Run by hand, without the variable, it
// runs.
func OncePerTestRun(t *testing.T, why string) {
	t.Helper()
	if RepeatPass() {
		t.Skipf("%s is set: this run repeats the acceptance tests on another CLI, and this test (%s) "+
			"does not depend on the CLI; make test ran it in its first run", EnvRepeatPass, why)
	}
}

// CLIDependent marks t as a test whose behaviour depends on the CLI that
// runs it (Terraform or OpenTofu, its version); why says how, e.g. "import
// blocks" or "write-only attributes: Terraform 1.11". make test runs every
// test on Terraform 1.8.5, then only the tests so marked again on
// Terraform 1.16.4 and OpenTofu (EnvRepeatPass): there, New and NewWorkdir
// skip any other test, saying so. Call it first, before New, NewWorkdir or Parent.
// A test that asks which CLI it runs on (CLIVersion, CLIAtLeast,
// CLIHasQuery, Workdir.IsOpenTofu, SkipBelowQuery, TerraformVersionChecks
// in TestCase) fails unless it is marked, so that none runs on one CLI
// only by mistake. contributing/testing.md lists the kinds of test marked.
func CLIDependent(t *testing.T, why string) {
	t.Helper()
	if why == "" {
		t.Fatal("acctest.CLIDependent: say how the test depends on the CLI")
	}
	name := topLevel(t)
	if _, started := harnessStarted.Load(name); started {
		t.Fatal("acctest.CLIDependent must come before acctest.New, NewWorkdir or Parent, which skip an unmarked test in a repeat pass")
	}
	cliDependent.Store(name, why)
}

var (
	// cliDependent holds the top-level tests marked by CLIDependent.
	cliDependent sync.Map
	// harnessStarted holds the top-level tests that called New or NewWorkdir.
	harnessStarted sync.Map
)

// topLevel is the name of t's top-level test: subtests share its mark.
func topLevel(t *testing.T) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// isCLIDependent reports whether t (or its top-level test) is marked.
func isCLIDependent(t *testing.T) bool {
	_, ok := cliDependent.Load(topLevel(t))
	return ok
}

// requireCLIDependent fails t unless it is marked: what asks which CLI
// runs it depends on the CLI.
func requireCLIDependent(t *testing.T, what string) {
	t.Helper()
	if !isCLIDependent(t) {
		t.Fatalf("%s depends on the CLI: call acctest.CLIDependent(t, why) first, so that make test runs it on every CLI", what)
	}
}

// startHarness is where New and NewWorkdir begin: in a repeat pass
// (EnvRepeatPass), a test not marked CLIDependent skips, for it ran in
// make test's first run on Terraform 1.8.5 and the CLI does not change it.
func startHarness(t *testing.T) {
	t.Helper()
	harnessStarted.Store(topLevel(t), true)
	if os.Getenv(EnvRepeatPass) != "" && !isCLIDependent(t) {
		t.Skipf("%s is set: this run repeats on another CLI only the tests marked acctest.CLIDependent; "+
			"this one does not depend on the CLI and ran in make test's first run (Terraform 1.8.5)", EnvRepeatPass)
	}
}

// Env is the installation an acceptance test runs against. Everything the
// test does through it goes through the public API with the pacing client,
// and every website it makes in the live mode has a domain from Domain, so
// that CheckDestroy, the cleanup and the sweepers find it.
type Env struct {
	*emulator.Emulator // nil in the live mode
	URL                string
	Key                string
	Key2               string   // another user's key; "" in the live mode without ANALYTICS_ACC_API_KEY2
	userKeys           []string // the keys of the emulator's users
	// run starts every domain of this test: DomainPrefix and a random
	// part, unique across the installation.
	run string

	mu          sync.Mutex
	seeded      map[int64]bool    // websites the test made through the API, not Terraform
	providerEnv map[string]string // see SetProviderEnv
}

// SetProviderEnv sets the environment variable name of the providers that
// TestCase serves in-process from now on (an empty value stands for an
// unset one, as for the provider), leaving the process's alone: a test that
// sets the provider's variables this way runs beside others. The CLI's own
// variables and a Workdir's provider, which runs as a process of its own,
// take Workdir.Env instead.
func (env *Env) SetProviderEnv(name, value string) {
	env.mu.Lock()
	defer env.mu.Unlock()
	if env.providerEnv == nil {
		env.providerEnv = map[string]string{}
	}
	env.providerEnv[name] = value
}

// providerGetenv is the environment of the providers of TestCase: the
// variables SetProviderEnv set, else the process's.
func (env *Env) providerGetenv(name string) string {
	env.mu.Lock()
	v, ok := env.providerEnv[name]
	env.mu.Unlock()
	if ok {
		return v
	}
	return os.Getenv(name)
}

// An Option sets up the in-process emulator; a test given one skips in the
// live mode.
type Option func(*options)

type options struct {
	emu   *emulator.Options
	wraps []func(http.Handler) http.Handler
	tls   *tls.Config
}

// Emulator starts the emulator with opts (throttled with RateLimit unless
// opts has a throttle) instead of the default two users.
func Emulator(opts emulator.Options) Option {
	return func(o *options) { o.emu = &opts }
}

// Wrap wraps the emulator's handler, e.g. to act between requests.
func Wrap(wraps ...func(http.Handler) http.Handler) Option {
	return func(o *options) { o.wraps = append(o.wraps, wraps...) }
}

// TLS serves the emulator over TLS with cfg: https://127.0.0.1:port.
func TLS(cfg *tls.Config) Option {
	return func(o *options) { o.tls = cfg }
}

// New returns the environment of one acceptance test. Without options, it
// skips the test unless TF_ACC is set (nothing is sent to an installation
// then). With options, it skips the test in the live mode.
func New(t *testing.T, opts ...Option) *Env {
	t.Helper()
	startHarness(t)
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if len(opts) > 0 {
		NeedsEmulator(t, "it sets up the emulator itself (its options, fault injection, its memory or request counts)")
	} else if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	env := &Env{run: DomainPrefix + RandomLabel(t, 6), seeded: map[int64]bool{}}
	if LiveMode() {
		env.URL, env.Key, env.Key2 = os.Getenv(EnvBaseURL), os.Getenv(EnvAPIKey), os.Getenv(EnvAPIKey2)
		if env.Key == "" {
			t.Fatalf("%s is set, so %s must be too (the API key of a user of that installation)", EnvBaseURL, EnvAPIKey)
		}
		if env.Key2 == env.Key {
			t.Fatalf("%s must be the key of another user than %s", EnvAPIKey2, EnvAPIKey)
		}
		t.Cleanup(func() { env.cleanup(t) })
	} else {
		env.startEmulator(t, o)
	}
	// The users' keys reach the configurations through variables of their
	// own, set once for the whole process (keyVarOf), so the test may run
	// in parallel.
	parallel(t)
	return env
}

// startEmulator serves the emulator of o behind an httptest server.
func (env *Env) startEmulator(t *testing.T, o options) {
	t.Helper()
	opts := TwoUsers(emulator.Options{})
	if o.emu != nil {
		opts = *o.emu
	}
	if opts.RateLimit == 0 {
		opts.RateLimit, opts.RateWindow = RateLimit, RateWindow
	}
	e, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("emulator: %v", err)
	}
	var h http.Handler = e
	for _, w := range o.wraps {
		h = w(h)
	}
	srv := httptest.NewUnstartedServer(h)
	if o.tls != nil {
		srv.TLS = o.tls
		srv.Config.ErrorLog = tlstest.QuietLog() // failed handshakes are what these tests make
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	env.Emulator, env.URL, env.Key = e, srv.URL, emulator.DefaultAPIKey
	if len(opts.Users) > 0 {
		env.Key = opts.Users[0].Key
	}
	if len(opts.Users) > 1 {
		env.Key2 = opts.Users[1].Key
	}
	for _, u := range opts.Users {
		env.userKeys = append(env.userKeys, u.Key)
	}
}

// RandomLabel is n random lower-case letters and digits.
func RandomLabel(t *testing.T, n int) string {
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

// Unstarted is an Env with its own domains and no server, for the tests of
// the harness.
func Unstarted(t *testing.T) *Env {
	t.Helper()
	return &Env{run: DomainPrefix + RandomLabel(t, 6)}
}

// Run starts every domain of this test: DomainPrefix and a random part,
// unique across the installation.
func (env *Env) Run() string { return env.run }

// Domain is the domain of the test's website called name, e.g.
// "tf-acc-k3x9q2-lifecycle.example.com".
func (env *Env) Domain(name string) string {
	return env.run + "-" + name + ".example.com"
}

// NeedsKey2 skips t unless a second user's key is known.
func (env *Env) NeedsKey2(t *testing.T) {
	t.Helper()
	if env.Key2 == "" {
		t.Skipf("live mode: needs another user of the installation: set %s", EnvAPIKey2)
	}
}

// ProviderBlock is the provider block pointing at env, with settings
// (lines of HCL) added.
func (env *Env) ProviderBlock(settings ...string) string {
	return env.ProviderBlockAt(env.URL, env.Key, settings...)
}

// ProviderBlockAt is the provider block for baseURL and key, with settings
// added. The users' keys (env's and those of its emulator's users) are not
// written into the configuration, which terraform-plugin-testing logs at
// trace level and leaves in working directories: they come from sensitive
// variables (keyVarOf). Any other key (a wrong one) is written as is.
func (env *Env) ProviderBlockAt(baseURL, key string, settings ...string) string {
	ref, decl := env.APIKeyRef(key)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nprovider \"analytics\" {\n  base_url = %q\n  api_key  = %s\n", decl, baseURL, ref)
	for _, s := range settings {
		b.WriteString("  " + s + "\n")
	}
	return b.String() + "}\n"
}

// APIKeyRef returns the expression of key in a configuration and the
// declaration it needs (see ProviderBlockAt).
func (env *Env) APIKeyRef(key string) (ref, decl string) {
	if !env.isUserKey(key) {
		return fmt.Sprintf("%q", key), ""
	}
	name := keyVarOf(key)
	return "var." + name, fmt.Sprintf("\nvariable %q {\n  type      = string\n  sensitive = true\n}\n", name)
}

// isUserKey reports whether key is the key of a user of env.
func (env *Env) isUserKey(key string) bool {
	if key == "" {
		return false
	}
	if key == env.Key || key == env.Key2 {
		return true
	}
	return slices.Contains(env.userKeys, key)
}

// Config joins the provider block and the given HCL.
func (env *Env) Config(hcl ...string) string {
	return env.ProviderBlock() + strings.Join(hcl, "\n")
}

// Test runs steps as an acceptance test; see TestCase.
func (env *Env) Test(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	env.TestCase(t, resource.TestCase{Steps: steps})
}

// TestCase runs tc with PreCheck and the provider and, unless tc has its
// own, env's CheckDestroy.
func (env *Env) TestCase(t *testing.T, tc resource.TestCase) {
	t.Helper()
	if len(tc.TerraformVersionChecks) > 0 {
		requireCLIDependent(t, "a test with TerraformVersionChecks")
	}
	tc.PreCheck = func() { PreCheck(t) }
	tc.ProtoV6ProviderFactories = Factories
	if FactoriesWithEnv != nil {
		tc.ProtoV6ProviderFactories = FactoriesWithEnv(env.providerGetenv)
	}
	if tc.CheckDestroy == nil {
		tc.CheckDestroy = env.CheckDestroy
	}
	resource.Test(t, tc)
}

// ExpectError compiles a pattern of an error message in which every space
// matches any run of white space, since Terraform wraps long messages.
func ExpectError(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}

// PreCheck makes sure acceptance tests never fall back to downloading
// Terraform: the project builds its own (see GNUmakefile) and points
// TF_ACC_TERRAFORM_PATH at it.
func PreCheck(t *testing.T) {
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

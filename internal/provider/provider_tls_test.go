package provider

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/tlstest"
)

// Acceptance tests of the network path: TLS test servers with a private CA,
// one that requires a client certificate and one whose certificate names
// another host, each reached through every setting and its environment
// variable, on the CLI the run uses. The variables reach the in-process
// provider through its test's Env (SetProviderEnv), so the tests run in
// parallel, but those that set the process's own environment (HTTPS_PROXY,
// which the client reads, and the logs' settings).

// listAll reads the websites: a data source is read at plan time, so it
// is the first request of the run.
const listAll = `data "analytics_websites" "all" {}` + "\n"

// withEnv is a PreConfig that sets the network environment variables of
// env's providers to vars, and clears the others.
func withEnv(env *acctest.Env, vars map[string]string) func() {
	return func() {
		for _, k := range networkEnv {
			env.SetProviderEnv(k, vars[k])
		}
	}
}

// listStep is a step that reads the websites with the given provider
// block and environment, and finds none.
func listStep(env *acctest.Env, provider string, vars map[string]string) resource.TestStep {
	return resource.TestStep{
		PreConfig: withEnv(env, vars),
		Config:    provider + listAll,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.analytics_websites.all", tfjsonpath.New("websites"), knownvalue.ListSizeExact(0)),
		},
	}
}

// errorStep is a plan that must fail with pattern (see acctest.ExpectError).
func errorStep(env *acctest.Env, config string, vars map[string]string, pattern string) resource.TestStep {
	return resource.TestStep{PreConfig: withEnv(env, vars), Config: config, PlanOnly: true, ExpectError: acctest.ExpectError(pattern)}
}

func TestAccProvider_privateCA(t *testing.T) {
	p := newTestPKI(t)
	env := newTLSTestEnv(t, serverTLS(p.server, nil))
	caFile := tlstest.WriteFile(t, "ca.pem", p.ca.PEM)
	ca := string(p.ca.PEM)
	expired := newTLSTestEnv(t, serverTLS(p.ca.Issue(t, tlstest.LeafOptions{Hosts: []string{"127.0.0.1"}, Expired: true}), nil))
	const domain = "tf-acc-tls-ca.example.com"
	env.Test(t,
		// An expired certificate: the CA cannot help.
		errorStep(env, expired.ProviderBlock(fmt.Sprintf("ca_pem = %q", string(p.ca.PEM)))+listAll, nil,
			`Server Certificate Expired or Not Yet Valid.*the server's certificate expired at .*Renew the installation's certificate`),
		// Without the CA: the first request of the plan names the problem
		// and the settings, whether it is a data source's read or the
		// website limit check of a plan that only creates.
		errorStep(env, env.ProviderBlock()+listAll, nil,
			`Server Certificate Signed by an Unknown Authority.*list the websites.*unknown authority \(issuer "CN=tf-acc private CA.*ca_file or ca_pem \(or the ANALYTICS_CA_FILE or ANALYTICS_CA_PEM environment variable\)`),
		errorStep(env, env.ProviderBlock()+websiteHCL(`domain = "`+domain+`"`), nil,
			`Server Certificate Signed by an Unknown Authority.*plan the creation of the website "`+domain+`".*ca_file or ca_pem`),
		// A CA that did not sign the server's certificate.
		errorStep(env, env.ProviderBlock(fmt.Sprintf("ca_pem = %q", string(p.otherCA.PEM)))+listAll, nil,
			`Server Certificate Signed by an Unknown Authority.*do not include the one that signed`),
		listStep(env, env.ProviderBlock(fmt.Sprintf("ca_file = %q", caFile)), nil),
		listStep(env, env.ProviderBlock(fmt.Sprintf("ca_pem = %q", ca)), nil),
		listStep(env, env.ProviderBlock(), map[string]string{EnvCAFile: caFile}),
		listStep(env, env.ProviderBlock(), map[string]string{EnvCAPEM: ca}),
		// PEM that does not parse and a file that is not there fail in
		// Configure: TestProviderConfigure_tlsSettingErrors.
		// A whole lifecycle over TLS (the last step: the test's destroy
		// runs with its configuration).
		resource.TestStep{
			PreConfig: withEnv(env, map[string]string{EnvCAFile: caFile}),
			Config:    env.ProviderBlock() + websiteHCL(`domain = "`+domain+`"`),
			Check:     resource.TestCheckResourceAttr(websiteAddr, "domain", domain),
		},
	)
}

func TestAccProvider_clientCertificate(t *testing.T) {
	p := newTestPKI(t)
	env := newTLSTestEnv(t, serverTLS(p.server, p.ca))
	certFile := tlstest.WriteFile(t, "client.pem", p.clientCert.CertPEM)
	keyFile := tlstest.WriteFile(t, "client-key.pem", p.clientCert.KeyPEM)
	ca, cert, key := string(p.ca.PEM), string(p.clientCert.CertPEM), string(p.clientCert.KeyPEM)
	caLine := fmt.Sprintf("ca_pem = %q", ca)
	env.Test(t,
		errorStep(env, env.ProviderBlock(caLine)+listAll, nil,
			`Client Certificate Required.*the server requires a client certificate and none was sent.*cert_file and key_file, or cert_pem and key_pem \(or the ANALYTICS_CERT_FILE and ANALYTICS_KEY_FILE, or ANALYTICS_CERT_PEM and ANALYTICS_KEY_PEM environment variables\)`),
		errorStep(env, env.ProviderBlock(caLine, fmt.Sprintf("cert_pem = %q", string(p.foreignClient.CertPEM)),
			fmt.Sprintf("key_pem = %q", string(p.foreignClient.KeyPEM)))+listAll, nil,
			`Client Certificate Rejected.*did not accept the configured client certificate`),
		listStep(env, env.ProviderBlock(caLine, fmt.Sprintf("cert_file = %q", certFile), fmt.Sprintf("key_file = %q", keyFile)), nil),
		listStep(env, env.ProviderBlock(caLine, fmt.Sprintf("cert_pem = %q", cert), fmt.Sprintf("key_pem = %q", key)), nil),
		listStep(env, env.ProviderBlock(caLine), map[string]string{EnvCertFile: certFile, EnvKeyFile: keyFile}),
		// A certificate without its key, and headers that would override
		// the provider's own, fail in Configure:
		// TestProviderConfigure_tlsSettingErrors.
		// file and pem of the same thing conflict.
		errorStep(env, env.ProviderBlock(caLine, fmt.Sprintf("cert_file = %q", certFile), fmt.Sprintf("cert_pem = %q", cert),
			fmt.Sprintf("key_file = %q", keyFile))+listAll, nil, `Invalid Attribute Combination.*cert_pem`),
		listStep(env, env.ProviderBlock(), map[string]string{EnvCAPEM: ca, EnvCertPEM: cert, EnvKeyPEM: key}),
	)
}

// The certificate is for tf-acc-other.example.com; base_url names
// 127.0.0.1. skip_verify gets through (with a warning); so does base_url
// with the certificate's host name, reached through HTTPS_PROXY (the name
// does not resolve: only the proxy, which maps it to the test server, can
// reach it).
func TestAccProvider_hostNameMismatch(t *testing.T) {
	acctest.Serial(t, "sets HTTPS_PROXY in the process's environment (t.Setenv), which the client reads")
	p := newTestPKI(t)
	env := newTLSTestEnv(t, serverTLS(p.wrongHost, nil))
	ca := fmt.Sprintf("ca_pem = %q", string(p.ca.PEM))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(env.URL, "https://"))
	proxy := newConnectProxy(t, "127.0.0.1:"+port)
	named := "https://tf-acc-other.example.com:" + port
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	env.Test(t,
		errorStep(env, env.ProviderBlock(ca)+listAll, nil,
			`Server Certificate Does Not Match base_url.*not valid for the host name "127.0.0.1" \(it is for tf-acc-other.example.com\).*use one of "tf-acc-other.example.com" in base_url`),
		listStep(env, env.ProviderBlock("skip_verify = true"), nil),
		listStep(env, env.ProviderBlock(), map[string]string{EnvSkipVerify: "true"}),
		resource.TestStep{
			PreConfig: func() {
				withEnv(env, nil)()
				t.Setenv("HTTPS_PROXY", proxy.URL)
			},
			Config: env.ProviderBlockAt(named, env.Key, ca) + listAll,
			Check: func(*terraform.State) error {
				if n := proxy.connects(); n == 0 {
					return fmt.Errorf("no CONNECT reached the proxy")
				}
				return nil
			},
		},
	)
}

// connectProxy is an HTTPS proxy that tunnels every CONNECT to target.
type connectProxy struct {
	URL string
	mu  sync.Mutex
	n   int
}

func newConnectProxy(t *testing.T, target string) *connectProxy {
	t.Helper()
	p := &connectProxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		p.mu.Lock()
		p.n++
		p.mu.Unlock()
		tlstest.Tunnel(w, r, target)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func (p *connectProxy) connects() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// The client key and the extra headers' values never reach a log, at
// TF_LOG=trace (Terraform's, the provider's, the framework's and the
// protocol SDK's), nor the plan output; the headers reach the server. As
// in TestAccWebsite_secretsNotLogged, the secrets come in sensitive
// variables (TF_VAR_*): terraform-plugin-testing logs each step's
// configuration text itself.
func TestAccProvider_tlsSecretsNotLogged(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	const (
		domain      = "tf-acc-tls-secrets.example.com"
		headerValue = "SecretAccessToken-6e1f0b7c9a2d"
	)
	p := newTestPKI(t)
	var mu sync.Mutex
	var seen []string
	env := newTLSTestEnv(t, serverTLS(p.server, p.ca), func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Header.Get("X-Access-Token"))
			mu.Unlock()
			next.ServeHTTP(w, r)
		})
	})
	keyLines := strings.Split(strings.TrimSpace(string(p.clientCert.KeyPEM)), "\n")
	secrets := []string{headerValue}
	names := []string{"header value"}
	for _, l := range keyLines[1 : len(keyLines)-1] { // every base64 line of the key
		secrets, names = append(secrets, l), append(names, "client key")
	}

	logPath := filepath.Join(t.TempDir(), "terraform-acc.log")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	t.Setenv("TF_LOG_PATH_MASK", "")
	t.Setenv("TF_ACC_LOG", "TRACE")
	t.Setenv("TF_LOG_CORE", "")
	t.Setenv("TF_LOG", "TRACE")
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_PROVIDER_ANALYTICS", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(name, "TRACE")
	}
	t.Setenv("TF_LOG_SDK_PROTO_DATA_DIR", "")
	t.Setenv("TF_VAR_client_key", string(p.clientCert.KeyPEM))
	t.Setenv("TF_VAR_access_token", headerValue)
	withEnv(env, nil)()

	cfg := `
variable "client_key" {
  type      = string
  sensitive = true
}

variable "access_token" {
  type      = string
  sensitive = true
}
` + env.ProviderBlock(fmt.Sprintf("ca_pem = %q", string(p.ca.PEM)), fmt.Sprintf("cert_pem = %q", string(p.clientCert.CertPEM)),
		"key_pem = var.client_key", `headers = { "X-Access-Token" = var.access_token }`) + websiteHCL(`domain = "`+domain+`"`)
	env.Test(t, resource.TestStep{Config: cfg, Check: resource.TestCheckResourceAttr(websiteAddr, "domain", domain)})
	if t.Failed() {
		return
	}
	mu.Lock()
	for _, v := range seen {
		if v != headerValue {
			t.Errorf("a request carried X-Access-Token %q, want the configured value", v)
			break
		}
	}
	if len(seen) == 0 {
		t.Error("the server saw no request")
	}
	mu.Unlock()

	raw, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(raw)
	for _, want := range []string{"analytics: configured analytics API client", "X-Access-Token", "tls_client_key=key_pem",
		"[TRACE] sdk.framework: ", "[TRACE] GRPCProvider.v6: "} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not contain %q, so it does not capture everything it should", want)
		}
	}
	for _, i := range secretsIn(raw, secrets) {
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, secrets[i]) {
				t.Errorf("the log contains the %s, e.g. in: %.300s", names[i], strings.ReplaceAll(line, secrets[i], "<"+names[i]+">"))
				break
			}
		}
	}
}

// The website limit check of a plan that only creates websites is its first
// request: when it fails for another reason than TLS (here a proxy's 502),
// the plan goes on with a warning that says so, instead of in silence.
func TestAccWebsite_websiteLimitNotChecked(t *testing.T) {
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/api/v1/account") {
				http.Error(rw, "<html><body>502 Bad Gateway</body></html>", http.StatusBadGateway)
				return
			}
			next.ServeHTTP(rw, r)
		})
	}))
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+websiteHCL(`domain = "tf-acc-limit-unchecked.example.com"`))
	out := w.MustRun(0, "plan", "-no-color")
	if !acctest.ExpectError(`Warning: Website Limit Not Checked.*creating the website "tf-acc-limit-unchecked.example.com".*HTTP 502`).MatchString(out) {
		t.Errorf("the plan does not warn that the check was skipped:\n%s", out)
	}
}

// testPKI is a private CA, the certificates of the TLS test servers it
// signs, and a client certificate. Generated for each test; no key is
// committed.
type testPKI struct {
	ca, otherCA   *tlstest.CA
	server        *tlstest.Leaf // for 127.0.0.1
	wrongHost     *tlstest.Leaf // for tf-acc-other.example.com only
	clientCert    *tlstest.Leaf
	foreignClient *tlstest.Leaf // signed by otherCA
}

func newTestPKI(t *testing.T) *testPKI {
	t.Helper()
	p := &testPKI{ca: tlstest.NewCA(t, "tf-acc private CA"), otherCA: tlstest.NewCA(t, "tf-acc other CA")}
	p.server = p.ca.Issue(t, tlstest.LeafOptions{Hosts: []string{"127.0.0.1"}})
	p.wrongHost = p.ca.Issue(t, tlstest.LeafOptions{Hosts: []string{"tf-acc-other.example.com"}})
	p.clientCert = p.ca.Issue(t, tlstest.LeafOptions{Client: true})
	p.foreignClient = p.otherCA.Issue(t, tlstest.LeafOptions{Client: true})
	return p
}

// serverTLS is the TLS configuration of a test server presenting leaf;
// with clientCA set, it requires a client certificate that clientCA signed.
func serverTLS(leaf *tlstest.Leaf, clientCA *tlstest.CA) *tls.Config {
	cfg := &tls.Config{Certificates: []tls.Certificate{leaf.TLS}, MinVersion: tls.VersionTLS12}
	if clientCA != nil {
		cfg.ClientAuth, cfg.ClientCAs = tls.RequireAndVerifyClientCert, clientCA.Pool()
	}
	return cfg
}

// newTLSTestEnv is an emulator served over TLS with cfg:
// https://127.0.0.1:port. wrap, if given, wraps the emulator's handler.
func newTLSTestEnv(t *testing.T, cfg *tls.Config, wrap ...func(http.Handler) http.Handler) *acctest.Env {
	t.Helper()
	acctest.NeedsEmulator(t, "serves the emulator over TLS with certificates made by the test (a private CA, client certificates, a wrong host name)")
	return acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.TLS(cfg), acctest.Wrap(wrap...))
}

package client_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/tlstest"
)

// tlsServer serves a fresh emulator over TLS with cfg (its certificate,
// client authentication, versions) and counts handshakes.
type tlsServer struct {
	URL        string
	handshakes atomic.Int64
}

func newTLSServer(t *testing.T, cfg *tls.Config) *tlsServer {
	t.Helper()
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := &tlsServer{}
	srv := httptest.NewUnstartedServer(e)
	srv.TLS = cfg.Clone()
	srv.TLS.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
		ts.handshakes.Add(1)
		return nil, nil
	}
	srv.Config.ErrorLog = tlstest.QuietLog()
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ts.URL = srv.URL
	return ts
}

// pki is a private CA with a server certificate for 127.0.0.1 and a client
// certificate, plus certificates that are wrong in one way each.
type pki struct {
	ca, otherCA                   *tlstest.CA
	server, wrongHost, expired    *tlstest.Leaf
	clientCert, foreignClient     *tlstest.Leaf
	serverTLS, mtlsTLS, mtls12TLS *tls.Config
	wrongHostTLS, expiredTLS      *tls.Config
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	p := &pki{ca: tlstest.NewCA(t, "tf-acc private CA"), otherCA: tlstest.NewCA(t, "tf-acc other CA")}
	p.server = p.ca.Issue(t, tlstest.LeafOptions{Hosts: []string{"127.0.0.1", "analytics.tf-acc.test"}})
	p.wrongHost = p.ca.Issue(t, tlstest.LeafOptions{Hosts: []string{"other.tf-acc.test"}})
	p.expired = p.ca.Issue(t, tlstest.LeafOptions{Hosts: []string{"127.0.0.1"}, Expired: true})
	p.clientCert = p.ca.Issue(t, tlstest.LeafOptions{Client: true})
	p.foreignClient = p.otherCA.Issue(t, tlstest.LeafOptions{Client: true})
	p.serverTLS = &tls.Config{Certificates: []tls.Certificate{p.server.TLS}, MinVersion: tls.VersionTLS12}
	p.mtlsTLS = p.serverTLS.Clone()
	p.mtlsTLS.ClientAuth, p.mtlsTLS.ClientCAs = tls.RequireAndVerifyClientCert, p.ca.Pool()
	p.mtls12TLS = p.mtlsTLS.Clone()
	p.mtls12TLS.MaxVersion = tls.VersionTLS12
	p.wrongHostTLS = &tls.Config{Certificates: []tls.Certificate{p.wrongHost.TLS}, MinVersion: tls.VersionTLS12}
	p.expiredTLS = &tls.Config{Certificates: []tls.Certificate{p.expired.TLS}, MinVersion: tls.VersionTLS12}
	return p
}

// Every TLS setting of the client against a server that needs it, and
// every certificate problem: the error is a *TLSError with the problem and
// what the diagnostics need, and no retry is made.
func TestTLS_settingsAndProblems(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	withCA := &client.TLS{CAPEM: p.ca.PEM}
	withCert := &client.TLS{CAPEM: p.ca.PEM, CertPEM: p.clientCert.CertPEM, KeyPEM: p.clientCert.KeyPEM}
	foreign := &client.TLS{CAPEM: p.ca.PEM, CertPEM: p.foreignClient.CertPEM, KeyPEM: p.foreignClient.KeyPEM}
	for _, tc := range []struct {
		name    string
		server  *tls.Config
		opts    *client.TLS
		baseURL func(string) string
		want    client.TLSProblem // 0: success
		detail  []string
	}{
		{name: "private CA unknown", server: p.serverTLS, want: client.TLSUnknownAuthority,
			detail: []string{"unknown authority", `issuer "CN=tf-acc private CA`}},
		{name: "private CA given", server: p.serverTLS, opts: withCA},
		{name: "other CA given", server: p.serverTLS, opts: &client.TLS{CAPEM: p.otherCA.PEM}, want: client.TLSUnknownAuthority,
			detail: []string{"not among the configured CA certificates"}},
		{name: "skip verify, unknown CA", server: p.serverTLS, opts: &client.TLS{InsecureSkipVerify: true}},
		{name: "host name mismatch", server: p.wrongHostTLS, opts: withCA, want: client.TLSHostnameMismatch,
			detail: []string{`not valid for the host name "127.0.0.1"`, "it is for other.tf-acc.test"}},
		{name: "host name mismatch, skip verify", server: p.wrongHostTLS, opts: &client.TLS{InsecureSkipVerify: true}},
		{name: "expired", server: p.expiredTLS, opts: withCA, want: client.TLSExpired, detail: []string{"expired at"}},
		{name: "client certificate required, TLS 1.3", server: p.mtlsTLS, opts: withCA, want: client.TLSClientCertRequired,
			detail: []string{`TLS alert "certificate required"`}},
		{name: "client certificate required, TLS 1.2", server: p.mtls12TLS, opts: withCA, want: client.TLSClientCertRequired,
			detail: []string{`TLS alert "handshake failure"`}},
		{name: "client certificate given, TLS 1.3", server: p.mtlsTLS, opts: withCert},
		{name: "client certificate given, TLS 1.2", server: p.mtls12TLS, opts: withCert},
		{name: "client certificate of another CA, TLS 1.3", server: p.mtlsTLS, opts: foreign, want: client.TLSClientCertRejected,
			detail: []string{"did not accept the configured client certificate", "unknown certificate authority"}},
		{name: "client certificate of another CA, TLS 1.2", server: p.mtls12TLS, opts: foreign, want: client.TLSClientCertRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newTLSServer(t, tc.server)
			c, err := client.New(srv.URL, emulator.DefaultAPIKey, client.Options{TLS: tc.opts, Retry: &client.RetryOptions{MaxRetries: 3}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ListWebsites(ctx(t), client.ListOptions{})
			if tc.want == 0 {
				if err != nil {
					t.Fatalf("ListWebsites: %v", err)
				}
				return
			}
			te, ok := client.AsTLSError(err)
			if !ok {
				t.Fatalf("error %v (%T) is not a *TLSError", err, err)
			}
			if te.Problem != tc.want {
				t.Errorf("Problem = %d, want %d: %v", te.Problem, tc.want, err)
			}
			for _, d := range tc.detail {
				if !strings.Contains(err.Error(), d) {
					t.Errorf("error %q does not contain %q", err, d)
				}
			}
			if n := srv.handshakes.Load(); n != 1 {
				t.Errorf("%d handshakes, want 1: a certificate problem is not retried", n)
			}
		})
	}
}

// An https:// base URL answered in plain HTTP.
func TestTLS_notTLS(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	c := newClient(t, strings.Replace(srv.URL, "http://", "https://", 1), emulator.DefaultAPIKey)
	_, err := c.ListWebsites(ctx(t), client.ListOptions{})
	if te, ok := client.AsTLSError(err); !ok || te.Problem != client.TLSNotTLS {
		t.Fatalf("want a TLSNotTLS error, got %v", err)
	}
}

// Unusable settings fail in New, naming the part, never quoting a key.
func TestTLS_configErrors(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t, "tf-acc CA")
	leaf := ca.Issue(t, tlstest.LeafOptions{Client: true})
	other := ca.Issue(t, tlstest.LeafOptions{Client: true})
	keyBlock, _ := pem.Decode(leaf.KeyPEM)
	encrypted := pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte("opaque")})
	garbledKey := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyBlock.Bytes[:20]})
	for _, tc := range []struct {
		name string
		opts client.TLS
		part client.TLSPart
		msg  string
	}{
		{"CA not PEM", client.TLS{CAPEM: []byte("not a certificate")}, client.TLSPartCA, "no PEM certificate found"},
		{"CA with a key", client.TLS{CAPEM: append(append([]byte{}, ca.PEM...), leaf.KeyPEM...)}, client.TLSPartCA, "contains a private key"},
		{"CA garbled", client.TLS{CAPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("xx")})}, client.TLSPartCA, "does not parse"},
		{"cert without key", client.TLS{CertPEM: leaf.CertPEM}, client.TLSPartClientPair, "needs its private key"},
		{"key without cert", client.TLS{KeyPEM: leaf.KeyPEM}, client.TLSPartClientPair, "needs its certificate"},
		{"cert is a key", client.TLS{CertPEM: leaf.KeyPEM, KeyPEM: leaf.KeyPEM}, client.TLSPartClientCert, "contains a private key"},
		{"cert not PEM", client.TLS{CertPEM: []byte("x"), KeyPEM: leaf.KeyPEM}, client.TLSPartClientCert, "no PEM certificate"},
		{"key not PEM", client.TLS{CertPEM: leaf.CertPEM, KeyPEM: []byte("x")}, client.TLSPartClientKey, "no PEM private key"},
		{"key is a certificate", client.TLS{CertPEM: leaf.CertPEM, KeyPEM: leaf.CertPEM}, client.TLSPartClientKey, "no PEM private key"},
		{"key encrypted", client.TLS{CertPEM: leaf.CertPEM, KeyPEM: encrypted}, client.TLSPartClientKey, "encrypted"},
		{"key garbled", client.TLS{CertPEM: leaf.CertPEM, KeyPEM: garbledKey}, client.TLSPartClientKey, "does not parse"},
		{"pair mismatch", client.TLS{CertPEM: leaf.CertPEM, KeyPEM: other.KeyPEM}, client.TLSPartClientPair, "does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			_, err := client.New("https://analytics.example.com", "key", client.Options{TLS: &opts})
			var ce *client.TLSConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("want a *TLSConfigError, got %v", err)
			}
			if ce.Part != tc.part || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("got %q (part %q), want part %q and %q", err, ce.Part, tc.part, tc.msg)
			}
			for _, k := range [][]byte{leaf.KeyPEM, other.KeyPEM} {
				b, _ := pem.Decode(k)
				if strings.Contains(err.Error(), string(k)) || strings.Contains(err.Error(), string(b.Bytes[:16])) {
					t.Errorf("the error quotes key material: %q", err)
				}
			}
		})
	}
}

// ca_pem is added to the system's roots, not put in their place.
func TestTLS_caAddedToSystemRoots(t *testing.T) {
	t.Parallel()
	sys, err := x509.SystemCertPool()
	if err != nil {
		t.Fatalf("no system roots on this machine: %v", err)
	}
	ca := tlstest.NewCA(t, "tf-acc CA")
	cfg, err := (&client.TLS{CAPEM: ca.PEM}).Config()
	if err != nil {
		t.Fatal(err)
	}
	want := sys.Clone()
	want.AddCert(ca.Cert)
	if !cfg.RootCAs.Equal(want) {
		t.Error("RootCAs is not the system's roots plus the CA")
	}
	if cfg.RootCAs.Equal(sys) {
		t.Error("RootCAs does not hold the CA")
	}
	if cfg, _ := (&client.TLS{}).Config(); cfg.RootCAs != nil {
		t.Error("without a CA, RootCAs should stay nil (Go's system roots)")
	}
}

// Options.TLS with a transport of the caller's is refused rather than
// ignored.
func TestTLS_refusedWithCustomTransport(t *testing.T) {
	t.Parallel()
	_, err := client.New("https://analytics.example.com", "key", client.Options{TLS: &client.TLS{}, Transport: http.DefaultTransport})
	if err == nil || !strings.Contains(err.Error(), "default transport only") {
		t.Fatalf("want an error, got %v", err)
	}
}

package provider

import (
	"crypto/tls"
	"net/http"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/tlstest"
)

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

// Package tlstest makes the certificates of TLS tests: a private CA, server
// and client certificates it signs, expired ones and ones for other host
// names. Everything is generated in memory when a test runs; no key is ever
// committed. Only tests import it.
package tlstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

var serial atomic.Int64

// CA is a private certificate authority.
type CA struct {
	Cert *x509.Certificate
	Key  *ecdsa.PrivateKey
	// PEM is the CA certificate, as a ca_pem setting holds it.
	PEM []byte
}

// Leaf is a certificate the CA signed, with its key.
type Leaf struct {
	Cert    *x509.Certificate
	CertPEM []byte
	KeyPEM  []byte
	TLS     tls.Certificate
}

// NewCA makes a CA named name.
func NewCA(t testing.TB, name string) *CA {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial.Add(1)),
		Subject:               pkix.Name{CommonName: name, Organization: []string{"tf-acc test"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("tlstest: CA certificate: %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("tlstest: %v", err)
	}
	return &CA{Cert: cert, Key: key, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// LeafOptions describes a certificate to issue.
type LeafOptions struct {
	// Hosts are the DNS names and IP addresses it is for (server
	// certificates).
	Hosts []string
	// Client makes a client certificate (extended key usage clientAuth).
	Client bool
	// Expired makes a certificate that expired an hour ago.
	Expired bool
	// CommonName defaults to the first host, or "tf-acc client".
	CommonName string
}

// Issue makes a certificate signed by the CA.
func (ca *CA) Issue(t testing.TB, o LeafOptions) *Leaf {
	t.Helper()
	key := newKey(t)
	cn := o.CommonName
	if cn == "" {
		cn = "tf-acc client"
		if len(o.Hosts) > 0 {
			cn = o.Hosts[0]
		}
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial.Add(1)),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if o.Client {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	if o.Expired {
		tmpl.NotBefore = time.Now().Add(-48 * time.Hour)
		tmpl.NotAfter = time.Now().Add(-time.Hour)
	}
	for _, h := range o.Hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		t.Fatalf("tlstest: certificate: %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("tlstest: %v", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatalf("tlstest: %v", err)
	}
	l := &Leaf{
		Cert:    cert,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}
	l.TLS, err = tls.X509KeyPair(l.CertPEM, l.KeyPEM)
	if err != nil {
		t.Fatalf("tlstest: %v", err)
	}
	return l
}

// Pool is a pool holding only the CA, for a server's ClientCAs.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// WriteFile writes data to a new file named name in a temporary directory
// of t and returns its path.
func WriteFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatalf("tlstest: %v", err)
	}
	return p
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("tlstest: key: %v", err)
	}
	return key
}

// QuietLog is a logger for http.Server.ErrorLog that drops what it is
// given: TLS tests make handshakes fail on purpose, and the server would
// log each one.
func QuietLog() *log.Logger { return log.New(io.Discard, "", 0) }

// Tunnel answers the CONNECT request r as an HTTP proxy does: it opens a
// connection to target (host:port), answers 200 and copies bytes both ways
// until either side closes (502 when target cannot be reached).
func Tunnel(w http.ResponseWriter, r *http.Request, target string) {
	up, err := (&net.Dialer{}).DialContext(r.Context(), "tcp", target)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	go func() {
		_, _ = io.Copy(up, buf)
		_ = up.Close()
	}()
	_, _ = io.Copy(conn, up)
	_ = conn.Close()
}

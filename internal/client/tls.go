package client

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// TLS configures the connection to an installation served over https
// (Options.TLS). The zero value verifies the server against the system's
// trusted roots and sends no client certificate, as Go does by default.
type TLS struct {
	// CAPEM holds one or more PEM certificates of authorities trusted in
	// addition to the system's roots (a private or corporate CA).
	CAPEM []byte
	// CertPEM and KeyPEM are a client certificate (possibly followed by its
	// intermediates) and its private key, for servers that require mutual
	// TLS. Both or neither.
	CertPEM []byte
	KeyPEM  []byte
	// InsecureSkipVerify accepts any server certificate: for diagnosis
	// only, since anyone on the network path can then read the API key.
	InsecureSkipVerify bool
}

// TLSPart names what a *TLSConfigError is about.
type TLSPart string

// Parts of the TLS settings.
const (
	TLSPartCA         TLSPart = "CA certificate"
	TLSPartClientCert TLSPart = "client certificate"
	TLSPartClientKey  TLSPart = "client key"
	// TLSPartClientPair: the certificate and the key do not belong
	// together, or only one of them is given.
	TLSPartClientPair TLSPart = "client certificate and key"
)

// TLSConfigError reports unusable TLS settings. It never contains key
// material.
type TLSConfigError struct {
	Part TLSPart
	Err  error
}

func (e *TLSConfigError) Error() string { return fmt.Sprintf("%s: %v", e.Part, e.Err) }

func (e *TLSConfigError) Unwrap() error { return e.Err }

// Config returns the *tls.Config the default transport uses, or a
// *TLSConfigError.
func (o *TLS) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(o.CAPEM) > 0 {
		certs, err := ParseCABundle(o.CAPEM)
		if err != nil {
			return nil, &TLSConfigError{Part: TLSPartCA, Err: err}
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool() // no system roots on this machine: only the bundle
		}
		for _, c := range certs {
			pool.AddCert(c)
		}
		cfg.RootCAs = pool
	}
	switch {
	case len(o.CertPEM) > 0 && len(o.KeyPEM) > 0:
		pair, err := ClientCertificate(o.CertPEM, o.KeyPEM)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{pair}
	case len(o.CertPEM) > 0:
		return nil, &TLSConfigError{Part: TLSPartClientPair, Err: errors.New("a client certificate needs its private key")}
	case len(o.KeyPEM) > 0:
		return nil, &TLSConfigError{Part: TLSPartClientPair, Err: errors.New("a client key needs its certificate")}
	}
	cfg.InsecureSkipVerify = o.InsecureSkipVerify //nolint:gosec // an explicit, warned-about opt-in
	return cfg, nil
}

// ParseCABundle returns the certificates of a PEM bundle. It fails when
// the bundle holds no certificate, a certificate that does not parse, or a
// private key (which never belongs in a CA bundle).
func ParseCABundle(data []byte) ([]*x509.Certificate, error) {
	return pemCertificates(data, " of the bundle",
		errors.New("the bundle contains a private key; a CA bundle holds only certificates "+
			"(BEGIN CERTIFICATE blocks), and the key should not be handed around"),
		errors.New("no PEM certificate found (expected one or more -----BEGIN CERTIFICATE----- blocks)"))
}

// CheckCertificatePEM checks that data holds one or more PEM certificates
// and no private key (a client certificate with its intermediates).
func CheckCertificatePEM(data string) error { return checkCertPEM([]byte(data)) }

// CheckKeyPEM checks that data holds an unencrypted PEM private key. Its
// errors never quote the data.
func CheckKeyPEM(data string) error { return checkKeyPEM([]byte(data)) }

// ClientCertificate checks a client certificate and its key and returns
// them as a pair, or a *TLSConfigError that says which part is wrong.
func ClientCertificate(certPEM, keyPEM []byte) (tls.Certificate, error) {
	if err := checkCertPEM(certPEM); err != nil {
		return tls.Certificate{}, &TLSConfigError{Part: TLSPartClientCert, Err: err}
	}
	if err := checkKeyPEM(keyPEM); err != nil {
		return tls.Certificate{}, &TLSConfigError{Part: TLSPartClientKey, Err: err}
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		// The parts parse on their own: they do not belong together. The
		// standard library's message names no key material.
		return tls.Certificate{}, &TLSConfigError{Part: TLSPartClientPair, Err: err}
	}
	return pair, nil
}

func checkCertPEM(data []byte) error {
	_, err := pemCertificates(data, "",
		errors.New("it contains a private key; give the key separately (key_file or key_pem)"),
		errors.New("no PEM certificate found (expected a -----BEGIN CERTIFICATE----- block)"))
	return err
}

// pemCertificates parses the CERTIFICATE blocks of data. of completes the
// error of a block that does not parse ("certificate 2 of the bundle");
// withKey is the error when data holds a private key, none the one when it
// holds no certificate.
func pemCertificates(data []byte, of string, withKey, none error) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	for rest := data; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		switch {
		case block.Type == "CERTIFICATE":
			c, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				return nil, fmt.Errorf("certificate %d%s does not parse: %w", len(certs)+1, of, err)
			}
			certs = append(certs, c)
		case strings.Contains(block.Type, "PRIVATE KEY"):
			return nil, withKey
		}
	}
	if len(certs) == 0 {
		return nil, none
	}
	return certs, nil
}

// checkKeyPEM checks that data holds one unencrypted private key. Its
// errors never quote the data.
func checkKeyPEM(data []byte) error {
	rest := data
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return errors.New("no PEM private key found (expected a -----BEGIN PRIVATE KEY-----, " +
				"BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY block)")
		}
		if !strings.HasSuffix(block.Type, "PRIVATE KEY") {
			continue
		}
		if block.Type == "ENCRYPTED PRIVATE KEY" || block.Headers["Proc-Type"] != "" {
			return errors.New("the private key is encrypted with a passphrase, which the provider cannot ask for; " +
				"decrypt it (e.g. openssl pkey -in key.pem -out plain.pem) and keep the file private")
		}
		var err error
		switch block.Type {
		case "RSA PRIVATE KEY":
			_, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			_, err = x509.ParseECPrivateKey(block.Bytes)
		default:
			_, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		}
		if err != nil {
			return fmt.Errorf("the %s block does not parse (%s)", block.Type, keyParseReason(err))
		}
		return nil
	}
}

// keyParseReason keeps only the gist of a key parsing error.
func keyParseReason(err error) string {
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return msg
}

// applyTLS sets the TLS configuration of t from o (nil: Go's defaults)
// and records in info what error messages need to know.
func applyTLS(t *http.Transport, o *TLS, info *tlsInfo) error {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if o != nil {
		var err error
		if cfg, err = o.Config(); err != nil {
			return err
		}
		info.customCA, info.clientCert = len(o.CAPEM) > 0, len(o.CertPEM) > 0
	}
	// The configured certificate is sent whenever the server asks for one,
	// as curl and OpenSSL do (Go would send nothing when the server lists
	// acceptable authorities that do not include its issuer, which the
	// server then reports as a missing certificate). That the server asked
	// tells a client certificate problem from other handshake failures.
	var pair *tls.Certificate
	if len(cfg.Certificates) > 0 {
		pair = &cfg.Certificates[0]
		cfg.Certificates = nil
	}
	cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
		info.requested.Store(true)
		if pair == nil {
			return &tls.Certificate{}, nil
		}
		return pair, nil
	}
	t.TLSClientConfig = cfg
	return nil
}

package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// TLSProblem says what went wrong in a TLS handshake.
type TLSProblem int

// TLS problems, as a *TLSError reports them.
const (
	// TLSUnknownAuthority: the server's certificate is not signed by a
	// trusted authority (a private CA missing from TLS.CAPEM, a
	// self-signed certificate).
	TLSUnknownAuthority TLSProblem = iota + 1
	// TLSHostnameMismatch: the certificate is not for the base URL's host.
	TLSHostnameMismatch
	// TLSExpired: the certificate has expired or is not valid yet.
	TLSExpired
	// TLSInvalidCertificate: another reason the certificate was refused.
	TLSInvalidCertificate
	// TLSClientCertRequired: the server requires a client certificate and
	// none was sent.
	TLSClientCertRequired
	// TLSClientCertRejected: the server refused the client certificate
	// that was sent.
	TLSClientCertRejected
	// TLSNotTLS: the base URL says https:// but the server answered in
	// plain HTTP.
	TLSNotTLS
)

// TLSError reports a failed TLS handshake with the installation. Client
// calls return it (wrapped) whenever the connection failed for a
// certificate reason; it wraps the standard library's error. It is never
// retried: no retry fixes a certificate.
type TLSError struct {
	Problem TLSProblem
	// Host is the host the client connected to.
	Host string
	// Names are the DNS names and IP addresses the server's certificate
	// is for (TLSHostnameMismatch, TLSUnknownAuthority, TLSExpired).
	Names []string
	// Issuer is the certificate's issuer (TLSUnknownAuthority).
	Issuer string
	// NotBefore and NotAfter bound the certificate's validity (TLSExpired).
	NotBefore, NotAfter time.Time
	// CustomCA is whether TLS.CAPEM was given; ClientCertSent whether a
	// client certificate was configured.
	CustomCA       bool
	ClientCertSent bool
	// Alert is the TLS alert the server sent (TLSClientCert*), e.g.
	// "certificate required".
	Alert string
	Err   error
}

func (e *TLSError) Error() string {
	var what string
	switch e.Problem {
	case TLSUnknownAuthority:
		what = fmt.Sprintf("the server's certificate is signed by an unknown authority (issuer %q)", e.Issuer)
		if e.CustomCA {
			what += ", which is not among the configured CA certificates nor the system's"
		}
	case TLSHostnameMismatch:
		what = fmt.Sprintf("the server's certificate is not valid for the host name %q (it is for %s)", e.Host, names(e.Names))
	case TLSExpired:
		now := time.Now()
		if now.Before(e.NotBefore) {
			what = fmt.Sprintf("the server's certificate is not valid before %s", e.NotBefore.UTC().Format(time.RFC3339))
		} else {
			what = fmt.Sprintf("the server's certificate expired at %s", e.NotAfter.UTC().Format(time.RFC3339))
		}
	case TLSInvalidCertificate:
		what = "the server's certificate is not valid"
	case TLSClientCertRequired:
		what = fmt.Sprintf("the server requires a client certificate and none was sent (TLS alert %q)", e.Alert)
	case TLSClientCertRejected:
		what = fmt.Sprintf("the server did not accept the configured client certificate (TLS alert %q)", e.Alert)
	case TLSNotTLS:
		what = "the server answered in plain HTTP, not TLS, although the base URL starts with https://"
	}
	return fmt.Sprintf("TLS connection to %s failed: %s: %v", e.Host, what, e.Err)
}

func (e *TLSError) Unwrap() error { return e.Err }

// AsTLSError returns the *TLSError in err's chain, if any.
func AsTLSError(err error) (*TLSError, bool) {
	var te *TLSError
	ok := errors.As(err, &te)
	return te, ok
}

func names(ns []string) string {
	if len(ns) == 0 {
		return "no host name"
	}
	return strings.Join(ns, ", ")
}

func certNames(c *x509.Certificate) []string {
	if c == nil {
		return nil
	}
	ns := append([]string(nil), c.DNSNames...)
	for _, ip := range c.IPAddresses {
		ns = append(ns, ip.String())
	}
	if len(ns) == 0 && c.Subject.CommonName != "" {
		ns = append(ns, "common name "+c.Subject.CommonName+" only, which Go does not accept as a host name")
	}
	return ns
}

// classifyTLS returns err as a *TLSError when it is a certificate or
// handshake failure, else nil.
func classifyTLS(err error, host string, info *tlsInfo) *TLSError {
	if err == nil {
		return nil
	}
	if te, ok := AsTLSError(err); ok {
		return te
	}
	if info == nil {
		info = &tlsInfo{}
	}
	e := &TLSError{Host: host, CustomCA: info.customCA, ClientCertSent: info.clientCert, Err: err}
	var (
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &unknown):
		e.Problem = TLSUnknownAuthority
		if unknown.Cert != nil {
			e.Issuer = unknown.Cert.Issuer.String()
			e.Names = certNames(unknown.Cert)
		}
	case errors.As(err, &hostname):
		e.Problem = TLSHostnameMismatch
		if hostname.Host != "" {
			e.Host = hostname.Host
		}
		e.Names = certNames(hostname.Certificate)
	case errors.As(err, &invalid):
		e.Problem = TLSInvalidCertificate
		if invalid.Reason == x509.Expired {
			e.Problem = TLSExpired
		}
		if invalid.Cert != nil {
			e.NotBefore, e.NotAfter = invalid.Cert.NotBefore, invalid.Cert.NotAfter
			e.Names = certNames(invalid.Cert)
		}
	case errors.As(err, &verify):
		e.Problem = TLSInvalidCertificate
	case errors.As(err, &record), errors.Is(err, http.ErrSchemeMismatch):
		e.Problem = TLSNotTLS
	default:
		alert, ok := tlsAlert(err)
		if !ok || !clientCertAlert(alert, info.requested.Load()) {
			return nil
		}
		e.Alert = alert
		e.Problem = TLSClientCertRequired
		if info.clientCert {
			e.Problem = TLSClientCertRejected
		}
	}
	return e
}

// tlsAlert returns the text of a TLS alert the server sent, e.g.
// "certificate required". Go's alert type is unexported, so the text is
// the only handle.
func tlsAlert(err error) (string, bool) {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "remote error" || op.Err == nil {
		return "", false
	}
	return strings.TrimPrefix(op.Err.Error(), "tls: "), true
}

// clientCertAlert reports whether a TLS alert is about the client's
// certificate. Servers differ: under TLS 1.3 a missing certificate is
// "certificate required" (after the handshake, with the first read); under
// TLS 1.2 it is "handshake failure" (Go, OpenSSL) or "bad certificate"; a
// refused one is "bad certificate", "unknown certificate authority",
// "expired certificate" and the like. "handshake failure" also means other
// things (no common cipher), so it counts only when the server asked this
// client for a certificate in the handshake.
func clientCertAlert(alert string, requested bool) bool {
	switch alert {
	case "certificate required", "bad certificate", "unknown certificate authority", "expired certificate",
		"revoked certificate", "unsupported certificate", "unknown certificate":
		return true
	case "handshake failure", "access denied":
		return requested
	}
	return false
}

// tlsInfo is what a *TLSError needs to know of the client's TLS settings.
type tlsInfo struct {
	customCA, clientCert bool
	// requested records that a server asked for a client certificate.
	requested atomic.Bool
}

func (c *Client) classifyTLS(err error) *TLSError {
	if c.base.Scheme != "https" {
		return nil
	}
	return classifyTLS(err, c.base.Hostname(), c.tlsInfo)
}

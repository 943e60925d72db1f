package client

import (
	"errors"
	"net"
	"testing"
)

// Alerts as other servers send them, which the TLS test servers (Go's) do
// not: "bad certificate" for a missing certificate under TLS 1.2, and
// "handshake failure" that is about a certificate only when the server
// asked for one.
func TestClassifyTLSAlerts(t *testing.T) {
	t.Parallel()
	alert := func(text string) error {
		return &net.OpError{Op: "remote error", Err: errors.New("tls: " + text)}
	}
	for _, tc := range []struct {
		alert      string
		requested  bool
		clientCert bool
		want       TLSProblem // 0: not a TLS problem
	}{
		{"certificate required", true, false, TLSClientCertRequired},
		{"bad certificate", true, false, TLSClientCertRequired},
		{"bad certificate", false, false, TLSClientCertRequired},
		{"bad certificate", true, true, TLSClientCertRejected},
		{"unknown certificate authority", true, true, TLSClientCertRejected},
		{"expired certificate", true, true, TLSClientCertRejected},
		{"handshake failure", true, false, TLSClientCertRequired},
		{"handshake failure", true, true, TLSClientCertRejected},
		{"handshake failure", false, false, 0},
		{"protocol version not supported", true, false, 0},
		{"internal error", true, true, 0},
	} {
		info := &tlsInfo{clientCert: tc.clientCert}
		info.requested.Store(tc.requested)
		got := classifyTLS(alert(tc.alert), "analytics.example.com", info)
		switch {
		case tc.want == 0 && got != nil:
			t.Errorf("%q (requested %v): got problem %d, want none", tc.alert, tc.requested, got.Problem)
		case tc.want != 0 && (got == nil || got.Problem != tc.want || got.Alert != tc.alert):
			t.Errorf("%q (requested %v, cert %v): got %+v, want problem %d", tc.alert, tc.requested, tc.clientCert, got, tc.want)
		}
		if _, ok := tlsAlert(alert(tc.alert)); !ok || retryableError("GET", alert(tc.alert)) {
			t.Errorf("%q: a TLS alert must not be retried", tc.alert)
		}
	}
	if classifyTLS(errors.New("connection refused"), "h", nil) != nil {
		t.Error("a plain network error is not a TLS problem")
	}
}

package client_test

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// An attempt counts as unsent when it
// asked for a connection (httptrace GetConn) and got none (GotConn). Over
// HTTP/2, net/http leaves GotConn to its HTTP/2 transport. A store that
// reached the application over HTTP/2, on a new connection or on one a
// read opened before, and was then cancelled must stay an unknown outcome,
// never a bare cancel ("nothing was stored").
func TestCreateWebsite_http2CancelInFlightIsUnknown(t *testing.T) {
	t.Parallel()
	for _, warm := range []bool{false, true} {
		name := "new connection"
		if warm {
			name = "reused connection"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var stores atomic.Int32
			var proto atomic.Value
			s := httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					rw.Header().Set("Content-Type", "application/json")
					_, _ = rw.Write([]byte(`{"data":[],"links":{},"meta":{"current_page":1,"last_page":1,"per_page":100,"total":0}}`))
					return
				}
				proto.Store(r.Proto)
				stores.Add(1)
				_, _ = io.Copy(io.Discard, r.Body)
				cancel()
				<-r.Context().Done()
			}))
			s.EnableHTTP2 = true
			s.StartTLS()
			t.Cleanup(s.Close)
			pool := x509.NewCertPool()
			pool.AddCert(s.Certificate())
			tr := client.NewPooledTransport()
			tr.TLSClientConfig.RootCAs = pool
			tr.ForceAttemptHTTP2 = true
			c, err := client.New(s.URL, "key", client.Options{Transport: tr, Retry: fastRetry(4), Timeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if warm {
				if _, err := c.ListWebsites(cx, client.ListOptions{}); err != nil {
					t.Logf("warm-up list: %v", err)
				}
			}
			_, err = c.CreateWebsite(cx, client.WebsiteInput{Domain: "h2.example.com"})
			if stores.Load() != 1 {
				t.Fatalf("%d stores reached the server, want 1 (err %v)", stores.Load(), err)
			}
			t.Logf("protocol %v, error %v", proto.Load(), err)
			var unknown *client.CreateOutcomeUnknownError
			if !errors.As(err, &unknown) {
				t.Errorf("a store that reached the application over %v and was cancelled: %v, want an unknown outcome",
					proto.Load(), err)
			}
		})
	}
}

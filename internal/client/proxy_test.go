package client_test

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/tlstest"
)

// proxyHost is the installation's host name in the proxy tests. Proxies
// are never used for loopback hosts (localhost, 127.0.0.1: the rule of
// Go's ProxyFromEnvironment), so the tests name the installation by a
// host name that does not resolve (.test is reserved): only the proxy,
// which maps it to the test server, can reach it.
const proxyHost = "analytics.tf-acc.test"

// testProxy is an HTTP proxy: CONNECT tunnels (https) and absolute-form
// requests (http), both to target whatever host they name.
type testProxy struct {
	URL    string
	target string // host:port every request goes to

	mu   sync.Mutex
	seen []string // "CONNECT host:port" or "GET http://host/path"
}

func newTestProxy(t *testing.T, target string) *testProxy {
	t.Helper()
	p := &testProxy{target: target}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.Out.URL.Host = target
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		if r.Method == http.MethodConnect {
			p.seen = append(p.seen, "CONNECT "+r.Host)
		} else {
			p.seen = append(p.seen, r.Method+" "+r.URL.String())
		}
		p.mu.Unlock()
		if r.Method != http.MethodConnect {
			rp.ServeHTTP(w, r)
			return
		}
		tlstest.Tunnel(w, r, target)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func (p *testProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

func clearProxyEnv(t *testing.T) {
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "REQUEST_METHOD"} {
		t.Setenv(k, "")
	}
}

// HTTPS_PROXY carries https requests through a CONNECT tunnel, with the
// certificate still checked against the installation's host name;
// HTTP_PROXY carries http requests. Not parallel: it sets the environment.
func TestProxyFromEnvironment(t *testing.T) {
	p := newPKI(t)
	tlsSrv := newTLSServer(t, p.serverTLS)
	plain := emulator.NewServer(t, emulator.Options{})
	tlsAddr := strings.TrimPrefix(tlsSrv.URL, "https://")
	plainAddr := strings.TrimPrefix(plain.URL, "http://")

	t.Run("https through CONNECT", func(t *testing.T) {
		clearProxyEnv(t)
		proxy := newTestProxy(t, tlsAddr)
		t.Setenv("HTTPS_PROXY", proxy.URL)
		c, err := client.New("https://"+proxyHost, emulator.DefaultAPIKey, client.Options{TLS: &client.TLS{CAPEM: p.ca.PEM}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListWebsites(ctx(t), client.ListOptions{}); err != nil {
			t.Fatalf("through the proxy: %v", err)
		}
		if got := proxy.requests(); len(got) != 1 || got[0] != "CONNECT "+proxyHost+":443" {
			t.Errorf("the proxy saw %q, want one CONNECT %s:443", got, proxyHost)
		}
	})
	t.Run("http through the proxy", func(t *testing.T) {
		clearProxyEnv(t)
		proxy := newTestProxy(t, plainAddr)
		t.Setenv("HTTP_PROXY", proxy.URL)
		c := newClient(t, "http://"+proxyHost, emulator.DefaultAPIKey)
		if _, err := c.ListWebsites(ctx(t), client.ListOptions{}); err != nil {
			t.Fatalf("through the proxy: %v", err)
		}
		if got := proxy.requests(); len(got) != 1 || !strings.HasPrefix(got[0], "GET http://"+proxyHost+"/api/v1/websites") {
			t.Errorf("the proxy saw %q, want one GET http://%s/api/v1/websites", got, proxyHost)
		}
	})
	t.Run("the environment is read for each client", func(t *testing.T) {
		// http.ProxyFromEnvironment would keep the first value for the
		// whole process; each new client must see the current one.
		clearProxyEnv(t)
		first := newTestProxy(t, tlsAddr)
		second := newTestProxy(t, tlsAddr)
		for _, proxy := range []*testProxy{first, second} {
			t.Setenv("HTTPS_PROXY", proxy.URL)
			c, err := client.New("https://"+proxyHost, emulator.DefaultAPIKey, client.Options{TLS: &client.TLS{CAPEM: p.ca.PEM}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ListWebsites(ctx(t), client.ListOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if len(first.requests()) != 1 || len(second.requests()) != 1 {
			t.Errorf("first proxy saw %q, second %q; want one request each", first.requests(), second.requests())
		}
	})
	// NO_PROXY sends the request directly. The pooled transport's dialer
	// stands in for DNS here (the host name does not resolve): what it is
	// asked to dial shows where the request went.
	for _, noProxy := range []string{proxyHost, ".tf-acc.test", "*"} {
		t.Run("NO_PROXY="+noProxy, func(t *testing.T) {
			clearProxyEnv(t)
			proxy := newTestProxy(t, tlsAddr)
			t.Setenv("HTTPS_PROXY", proxy.URL)
			t.Setenv("NO_PROXY", noProxy)
			var mu sync.Mutex
			var dialed []string
			tr := client.NewPooledTransport()
			tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
				mu.Lock()
				dialed = append(dialed, addr)
				mu.Unlock()
				if addr == proxyHost+":443" {
					addr = tlsAddr
				}
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			}
			tr.TLSClientConfig = &tls.Config{RootCAs: p.ca.Pool(), MinVersion: tls.VersionTLS12}
			c, err := client.New("https://"+proxyHost, emulator.DefaultAPIKey, client.Options{Transport: tr})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ListWebsites(ctx(t), client.ListOptions{}); err != nil {
				t.Fatalf("direct: %v", err)
			}
			if got := proxy.requests(); len(got) != 0 {
				t.Errorf("the proxy saw %q despite NO_PROXY", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(dialed) != 1 || dialed[0] != proxyHost+":443" {
				t.Errorf("dialed %q, want %s:443 directly", dialed, proxyHost)
			}
		})
	}
	// The same transport, without NO_PROXY, dials the proxy: the dialer
	// hook above does not bypass it by itself.
	t.Run("custom dialer still uses the proxy", func(t *testing.T) {
		clearProxyEnv(t)
		proxy := newTestProxy(t, tlsAddr)
		t.Setenv("HTTPS_PROXY", proxy.URL)
		var dialed []string
		tr := client.NewPooledTransport()
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed = append(dialed, addr)
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: p.ca.Pool(), MinVersion: tls.VersionTLS12}
		c, err := client.New("https://"+proxyHost, emulator.DefaultAPIKey, client.Options{Transport: tr})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListWebsites(ctx(t), client.ListOptions{}); err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(proxy.URL)
		if len(dialed) != 1 || dialed[0] != u.Host || len(proxy.requests()) != 1 {
			t.Errorf("dialed %q, proxy saw %q; want only the proxy", dialed, proxy.requests())
		}
	})
}

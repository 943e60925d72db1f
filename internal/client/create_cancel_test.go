package client_test

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A create cancelled before its POST was sent (Ctrl-C while it waits for
// the throttle: Terraform cancels the provider's requests) stored nothing,
// and says so: not an unknown outcome, which would make the provider leave
// a website that skip_destroy kept out of the state and send the user to
// look for a website that cannot exist.
func TestCreateWebsite_cancelledBeforeSendIsNotUnknown(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.emu.ResetStats()
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	_, err := env.c.CreateWebsite(c, client.WebsiteInput{Domain: "cancelled.example.com"})
	if s := env.emu.Stats(); s.ByMethod["POST"] != 0 {
		t.Fatalf("the cancelled create sent %d POST", s.ByMethod["POST"])
	}
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create that sent nothing reports an unknown outcome: %v", err)
	}
}

// cancelOnRetry is a Logger that cancels the operation when the transport
// announces a retry: the cancel then lands in the wait before it, after the
// answer (or failure) that caused it was read.
type cancelOnRetry struct{ cancel context.CancelFunc }

func (cancelOnRetry) Debug(context.Context, string, map[string]any) {}
func (cancelOnRetry) Info(context.Context, string, map[string]any)  {}
func (l cancelOnRetry) Warn(_ context.Context, msg string, _ map[string]any) {
	if msg == "retrying request" {
		l.cancel()
	}
}

// A create whose only request was refused by the throttle
// (429, which runs before anything is stored) and that is cancelled while
// it waits out the Retry-After (Ctrl-C during a throttle wait, the case the
// fix of a create that sent nothing names) stored nothing. It must not
// report CreateOutcomeUnknownError ("The website may exist on the server"),
// which sends the user to look for a website that cannot exist.
func TestCreateWebsite_cancelledDuringOwn429WaitIsNotUnknown(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(http.StatusTooManyRequests, `{"message":"Too Many Attempts."}`, "Retry-After", "30"))
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := newRetryClient(t, u, "key", fastRetry(4), cancelOnRetry{cancel})
	_, err := c.CreateWebsite(cx, client.WebsiteInput{Domain: "throttled.example.com"})
	if s.count() != 1 {
		t.Fatalf("%d requests, want the one refused by the throttle", s.count())
	}
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create whose only request got a 429 reports an unknown outcome: %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the cancel", err)
	}
}

// Likewise a create whose attempt found no server
// (connection refused: nothing can have been stored, the transport repeats
// it) and that is cancelled during the backoff before the next attempt.
// The dialer refuses every connection itself, so no other process can
// answer in its place.
func TestCreateWebsite_cancelledWhileNoConnectionIsNotUnknown(t *testing.T) {
	t.Parallel()
	var dials atomic.Int32
	tr := client.NewPooledTransport()
	tr.DialContext = func(_ context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.New("http://127.0.0.1:9", "key", client.Options{Transport: tr, Retry: fastRetry(4),
		Logger: cancelOnRetry{cancel}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateWebsite(cx, client.WebsiteInput{Domain: "refused.example.com"})
	if n := dials.Load(); n != 1 {
		t.Fatalf("%d connections tried, want the one refused before the cancel", n)
	}
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create that never reached the server reports an unknown outcome: %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the cancel", err)
	}
}

// The other side of the two above: once an attempt may have reached the
// application (here the POST after the 429, cancelled while the server
// holds it), a cancel leaves the outcome unknown.
func TestCreateWebsite_cancelledWhileStoreInFlightIsUnknown(t *testing.T) {
	t.Parallel()
	cx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	hold := func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices a closed connection
		cancel()
		<-r.Context().Done() // the client gave up on this attempt
	}
	s, u := serve(t, answer(http.StatusTooManyRequests, `{"message":"Too Many Attempts."}`, "Retry-After", "0"), hold)
	c := newRetryClient(t, u, "key", fastRetry(4), nil)
	_, err := c.CreateWebsite(cx, client.WebsiteInput{Domain: "held.example.com"})
	if s.count() != 2 {
		t.Fatalf("%d requests, want the 429 and the held store", s.count())
	}
	var unknown *client.CreateOutcomeUnknownError
	if !errors.As(err, &unknown) {
		t.Errorf("a create cancelled while its store was on the server: %v, want an unknown outcome", err)
	}
}

// cancelOnWrite is a connection that cancels the operation when the client
// first writes to it: for an https base_url that is the TLS ClientHello, so
// the cancel lands while the handshake waits for the server's answer.
type cancelOnWrite struct {
	net.Conn
	once   sync.Once
	cancel context.CancelFunc
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.once.Do(c.cancel)
	return n, err
}

// A create cancelled (Ctrl-C) before its only
// request could be sent, during the connection's set-up, stored nothing,
// yet it reports CreateOutcomeUnknownError, which the provider turns into
// "Create Cancelled; Website May Have Been Created ... Check the analytics
// web interface". mayHaveReachedApp counts every failure other than a
// refused connection as one that may have reached the application; a cancel
// while the TCP connection or the TLS handshake is under way is not a dial
// error (net/http returns the bare context error, or the handshake's), so it
// counts as reached. createOutcome itself already classes a failed TLS
// handshake as "nothing stored" (classifyTLS); the two disagree.
//
// Both cases: the server never receives an HTTP request.
func TestCreateWebsite_cancelledBeforeRequestWrittenIsNotUnknown(t *testing.T) {
	t.Parallel()
	t.Run("TLS handshake", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ln.Close() })
		var conns []net.Conn
		var mu sync.Mutex
		t.Cleanup(func() {
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				_ = c.Close()
			}
		})
		go func() { // accepts, never answers the ClientHello
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
		cx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		tr := client.NewPooledTransport()
		var d net.Dialer
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &cancelOnWrite{Conn: c, cancel: cancel}, nil
		}
		c, err := client.New("https://"+ln.Addr().String(), "key", client.Options{Transport: tr, Retry: fastRetry(4),
			Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CreateWebsite(cx, client.WebsiteInput{Domain: "handshake.example.com"})
		wantCancelNotUnknown(t, err)
	})
	t.Run("TCP connect", func(t *testing.T) {
		t.Parallel()
		cx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		tr := client.NewPooledTransport()
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			cancel() // a connect that hangs (a dropped SYN) until Ctrl-C
			<-ctx.Done()
			return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
		}
		c, err := client.New("http://192.0.2.1:80", "key", client.Options{Transport: tr, Retry: fastRetry(4),
			Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CreateWebsite(cx, client.WebsiteInput{Domain: "connect.example.com"})
		wantCancelNotUnknown(t, err)
	})
}

func wantCancelNotUnknown(t *testing.T, err error) {
	t.Helper()
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create cancelled before its request was sent reports an unknown outcome: %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the cancel", err)
	}
}

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

package client_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

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

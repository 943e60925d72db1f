package client_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestPooledTransportReusesConnections: 10 requests at a time (Terraform's
// default -parallelism), 10 rounds, open about 10 connections in all. The
// standard library's default keeps 2 idle connections per host, which
// would open 8 new ones every round (82 in all).
func TestPooledTransportReusesConnections(t *testing.T) {
	t.Parallel()
	const parallel, rounds = 10, 10
	var conns atomic.Int64
	var mu sync.Mutex
	arrived, release := 0, make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		// Hold every request until the whole round is in flight, so that
		// the round needs 10 connections at once.
		mu.Lock()
		arrived++
		ch := release
		if arrived == parallel {
			arrived, release = 0, make(chan struct{})
			close(ch)
		}
		mu.Unlock()
		select {
		case <-ch:
		case <-time.After(2 * time.Second):
		}
		_, _ = io.WriteString(w, `{"status":200}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)

	tr := client.NewPooledTransport()
	t.Cleanup(tr.CloseIdleConnections)
	if tr.MaxIdleConnsPerHost < parallel {
		t.Fatalf("MaxIdleConnsPerHost = %d, want at least %d", tr.MaxIdleConnsPerHost, parallel)
	}
	hc := &http.Client{Transport: tr}
	for range rounds {
		var wg sync.WaitGroup
		for range parallel {
			wg.Go(func() {
				resp, err := hc.Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			})
		}
		wg.Wait()
		// Let the transport put the connections back before the next round.
		time.Sleep(20 * time.Millisecond)
	}
	// A little slack for a connection handed back just after the next
	// round asked for one.
	if n := conns.Load(); n > parallel+5 {
		t.Errorf("%d connections opened for %d rounds of %d requests, want about %d", n, rounds, parallel, parallel)
	}
}

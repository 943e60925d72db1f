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
// default -parallelism), 10 rounds, close no connection: each one goes back
// to the pool. The standard library's default keeps 2 idle connections per
// host, so it closes 8 after every round and opens 8 new ones. (Counting
// the connections opened instead would depend on how soon the transport
// puts them back, which a loaded machine delays.)
func TestPooledTransportReusesConnections(t *testing.T) {
	t.Parallel()
	const parallel, rounds = 10, 10
	var conns, closed atomic.Int64
	var usedMu sync.Mutex
	used := map[net.Conn]bool{}
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
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		usedMu.Lock()
		defer usedMu.Unlock()
		switch s {
		case http.StateNew:
			conns.Add(1)
		case http.StateActive:
			used[c] = true
		case http.StateClosed:
			// A connection dialled for a request that another one served
			// meanwhile may be dropped unused: only a used one counts.
			if used[c] {
				closed.Add(1)
			}
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
	}
	// Nothing but the client closes a connection before srv.Close (the
	// server has no idle time limit), so any used one closed is one the
	// pool refused to keep.
	if n := closed.Load(); n != 0 {
		t.Errorf("%d of %d connections closed during %d rounds of %d requests, want none", n, conns.Load(), rounds, parallel)
	}
}

package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A lookup's cost is not estimated from page 1, which
// holds the NEWEST websites, the most biased sample of a list when the
// websites a search matches were created together. A user holding 900
// websites of other domains who recently added 100 tenant-N.example.com
// creates example.com itself: the search answers its 100 matches in one
// page, so the lookup costs page 1 and the search (an estimate from page
// 1 made it sweep the list's ten pages).
func TestFindHoldersCostNotEstimatedFromNewestPage(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	for i := range 900 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("shop-%04d.other.org", i)})
	}
	for i := range 100 {
		env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("tenant-%04d.example.com", i)})
	}
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Clock: newFakeClock().Now, Linger: -1})
	ws, err := b.FindHolders(ctx(t), "example.com", func(d string) bool { return strings.EqualFold(d, "example.com") })
	if err != nil || len(ws) != 0 {
		t.Fatalf("FindHolders: %v, %v", ids(ws), err)
	}
	if _, list, _ := env.requests(); list > 2 {
		t.Errorf("one held-domain lookup cost %d GET /websites; its search answers in one page: want at most 2 (page 1 and the search)", list)
	}
}

// A fetch of list pages runs detached from every caller's
// deadline (context.WithoutCancel), and a 503's Retry-After is honoured
// whatever its length. A list page that the server (or a proxy in front
// of it) answers with 503 and Retry-After: 3600 keeps the fetch sleeping
// for an hour: a write waits for it only WriteWait, then is sent (the
// server answers the delete at once); it failed with "context deadline
// exceeded" at its own time limit.
func TestBulkReaderWriteSentPastStuckFetch(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250) // 3 pages
	entered := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && r.URL.Query().Get("page") != "" {
			select {
			case entered <- struct{}{}:
			default:
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
			return
		}
		env.emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newRetryClient(t, srv.URL, emulator.DefaultAPIKey, fastRetry(2), nil)
	b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, WriteWait: 100 * time.Millisecond})
	for _, id := range ids[:3] {
		go func() {
			// The probe GET, then the first page: a fetch.
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _ = b.Read(rctx, id)
		}()
	}
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("no fetch of list pages began")
	}
	wctx, cancel := context.WithTimeout(ctx(t), time.Minute)
	defer cancel()
	err := b.Write(wctx, ids[100], func() error { return c.DeleteWebsite(wctx, ids[100]) })
	if err != nil {
		t.Errorf("a delete while a list page waits out a Retry-After of an hour: %v; want it sent (the server answers it at once)", err)
	}
}

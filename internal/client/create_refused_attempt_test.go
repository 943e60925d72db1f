package client_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestCreateWebsite_refusedAttemptCountsNoWebsite (review rev44al):
// reduceDuplicates bounds the websites this create can have made by
// res.Attempts, but Attempts also counts an attempt the server refused
// (a 422: nothing stored). Here the first POST's answer is lost (a proxy's
// 504) and its store lands only after the settle window; meanwhile another
// pipeline stores the same domain with the same settings. The second POST
// is refused ("already taken"), so this create stored at most ONE website,
// yet the lookup finds two alike ones and one of them is deleted: it may
// be the other pipeline's, which its state still records.
func TestCreateWebsite_refusedAttemptCountsNoWebsite(t *testing.T) {
	t.Parallel()
	srv, proxy, serve := proxiedEmulator(t)
	settings := alikeSettings
	var mu sync.Mutex
	posts := 0
	var ownID, otherID int64
	base := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/websites") {
			mu.Lock()
			posts++
			n := posts
			mu.Unlock()
			switch n {
			case 1: // the answer is lost; the store is still running on the server
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusGatewayTimeout)
				_, _ = w.Write([]byte("<html><body>504 Gateway Time-out</body></html>"))
				return
			case 2: // the first store lands late, and another pipeline's too
				mu.Lock()
				defer mu.Unlock()
				ownID = srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com", Settings: settings}).ID
				otherID = srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com", Settings: settings}).ID
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	c, err := client.New(base, emulator.DefaultAPIKey,
		client.Options{Retry: fastRetry(3), Logger: &testLogger{}, Timeout: 2 * time.Second, CreateSettle: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
	mu.Lock()
	defer mu.Unlock()
	if posts < 2 {
		t.Fatalf("the create sent %d POST(s), want 2 (the scenario did not happen): %+v, %v", posts, res, err)
	}
	var dup *client.DuplicateCreateError
	if !errors.As(err, &dup) {
		t.Errorf("want a *DuplicateCreateError, got %+v, %v", res, err)
	}
	if left := srv.Websites(); len(left) != 2 {
		var ids []int64
		for _, w := range left {
			ids = append(ids, w.ID)
		}
		t.Errorf("the create's second POST was refused (422: nothing stored), so at most one of websites %d and %d "+
			"is its own; yet it deleted one (left: %v)", ownID, otherID, ids)
	}
}

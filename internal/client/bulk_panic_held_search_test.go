package client_test

// A FindHolders match that panics during the search that the reader runs
// with this process's writes held.

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// TestPanickingMatchInHeldSearchReleasesWrites: when this process's own
// creates made a lookup's search see the list change (ErrListChanged),
// lookup searches once more with every write slot held (holdWrites); a
// match that panics there (the caller recovers) releases the slots. Before,
// it never did: every later Write and every fetch of list pages waited
// WriteWait (default 10 s) for nothing, and then went on unheld.
// Deterministic: the creates during the first search are made at once
// before its pages 2 are served (the slots are free then), those tried
// during the held search give up after 200 ms without creating; the 10 s
// bound on the last Write only ends the test (it succeeds at once when
// the slots were released).
func TestPanickingMatchInHeldSearchReleasesWrites(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(150) // "site-…": a search for "site-" lists 2 pages, read twice
	clock := newFakeClock()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, PageConcurrency: 1, Clock: clock.Now, WriteWait: time.Hour})
	var created atomic.Int64
	env.hook(func(page int, after bool) {
		if after || page != 2 || created.Load() >= 6 {
			return
		}
		// This process's create between two pages of a read of the list
		// (before page 2 is served), as the creates of one apply run
		// beside its create checks. The sweep's fetch reads page 1 only.
		c, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		domain := fmt.Sprintf("site-new-%d.example.net", created.Load())
		err := b.Write(c, 0, func() (*client.Website, error) {
			res, err := env.c.CreateWebsite(context.Background(), client.WebsiteInput{Domain: domain})
			if err != nil {
				return nil, err
			}
			return res.Website, nil
		})
		if err == nil {
			created.Add(1)
		}
	})
	var panicked any
	func() {
		defer func() { panicked = recover() }()
		_, _ = b.FindHolders(ctx(t), "site-", func(string) bool { panic("a rule the caller cannot apply") })
	}()
	env.hook(func(int, bool) {})
	if created.Load() < 2 {
		t.Fatalf("premise: %d creates during the first search, want 2 (its two attempts saw the list change)", created.Load())
	}
	if panicked == nil {
		t.Fatalf("premise: the match was not called (creates %d); %+v", created.Load(), b.Stats())
	}
	c, cancel := context.WithTimeout(ctx(t), 10*time.Second)
	defer cancel()
	err := b.Write(c, 0, func() (*client.Website, error) {
		res, err := env.c.CreateWebsite(c, client.WebsiteInput{Domain: "after.example.org"})
		if err != nil {
			return nil, err
		}
		return res.Website, nil
	})
	if err != nil {
		t.Fatalf("a Write after a FindHolders whose match panicked in its held search: %v "+
			"(its write slots were never released: every Write and fetch waits WriteWait); %+v", err, b.Stats())
	}
}

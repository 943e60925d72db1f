package client_test

// Writes, forgets, cancelled lookups and a ListAll while a
// verify fetch (fetchVerify) is under way. Run with -race.

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestVerifyFetchWithWritesAndCancel(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(450) // 5 pages
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{PageConcurrency: 2, Linger: -1, WriteWait: 50 * time.Millisecond, Clock: newFakeClock().Now})
	if _, err := b.Read(ctx(t), ids[0]); err != nil {
		t.Fatal(err)
	}
	for id, r := range readAll(t, b, ids[1:], 20) {
		if r.err != nil {
			t.Fatalf("read %d: %v", id, r.err)
		}
	}
	// Five lookups search (the sweep's pages still outnumber them); the
	// next one reads the pages again (fetchVerify).
	for _, d := range domainsOf(env, ids[200:205]) {
		if _, err := b.FindByDomain(ctx(t), d); err != nil {
			t.Fatal(err)
		}
	}
	target := domainsOf(env, ids[400:401])[0]
	var lists atomic.Int64
	blocked := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	env.hook(func(page int, after bool) {
		if after {
			return
		}
		if lists.Add(1) == 1 {
			once.Do(func() { close(blocked) })
			<-release
		}
	})
	type res struct {
		w   *client.Website
		err error
	}
	first := make(chan res, 1)
	go func() {
		w, err := b.FindByDomain(ctx(t), target)
		first <- res{w, err}
	}()
	<-blocked
	// Meanwhile: a cancelled lookup, a write (renaming a page-2 website
	// into the target domain), a Forget, a read, a ListAll.
	cctx, cancel := context.WithCancel(ctx(t))
	cancelled := make(chan error, 1)
	go func() {
		_, err := b.FindByDomain(cctx, domainsOf(env, ids[5:6])[0])
		cancelled <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled lookup: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled lookup did not return while the verify fetch ran")
	}
	wrote := make(chan error, 1)
	go func() {
		wrote <- b.Write(ctx(t), ids[300], func() (*client.Website, error) {
			env.emu.UpdateWebsite(ids[300], func(w *emulator.Website) { w.Domain = target })
			return env.c.GetWebsite(ctx(t), ids[300]) // the update's answer
		})
	}()
	b.Forget(ids[10])
	close(release)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	r := <-first
	var de *client.DuplicateDomainError
	switch {
	case r.err == nil && r.w.ID == ids[400]:
	case errors.As(r.err, &de):
	case errors.Is(r.err, client.ErrListChanged):
	default:
		t.Errorf("lookup during the verify: %v, %v", r.w, r.err)
	}
	// Now both hold the target: every later lookup must say so.
	for range 3 {
		w, err := b.FindByDomain(ctx(t), target)
		if !errors.As(err, &de) {
			t.Errorf("lookup after the write: %v, %v; want a DuplicateDomainError (stats %+v)", w, err, b.Stats())
		}
	}
	if _, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage}); err != nil {
		t.Fatal(err)
	}
	w, err := b.FindByDomain(ctx(t), target)
	if !errors.As(err, &de) {
		t.Errorf("lookup after ListAll: %v, %v; want a DuplicateDomainError", w, err)
	}
	t.Logf("stats %+v, lists %d", b.Stats(), lists.Load())
}

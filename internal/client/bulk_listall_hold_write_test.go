package client_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// ListAll called from a write's callback (Write) waits for that write
// forever: holdWrites acquires every slot on context.Background, and the
// write holds one until its callback returns. Before 8de607c it listed.
// The ctx given to ListAll (ended after 2s here) does not end the wait.
// The 10s guard only bounds the failing test.
func TestListAllInsideWrite(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(150)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	done := make(chan error, 1)
	go func() {
		done <- b.Write(ctx(t), 0, func() (*client.Website, error) {
			c, cancel := context.WithTimeout(ctx(t), 2*time.Second)
			defer cancel()
			_, err := b.ListAll(c, client.ListOptions{PerPage: client.MaxPerPage})
			return nil, err
		})
	}()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Write with ListAll inside: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("ListAll from a write's callback still waits after 10s (its ctx ended at 2s): it waits for the write it runs in")
	}
}

// ListAll takes the reader's seq before it waits for this process's
// write under way (holdWrites): the list it then reads shows the write,
// yet the sweep it records counts the written website as changed since
// (forgotten > sweptSeq) and does not store it. So the Read of that
// website right after is a GET, not a hit, and FindByDomain of its domain
// searches instead of answering from the sweep.
func TestListAllSeqBeforeHold(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(250)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	id := ids[120]
	inWrite, release := make(chan struct{}), make(chan struct{})
	wrote := make(chan error, 1)
	go func() {
		wrote <- b.Write(ctx(t), id, func() (*client.Website, error) {
			close(inWrite)
			<-release
			env.emu.UpdateWebsite(id, func(w *emulator.Website) { p := 2; w.Privacy = &p; w.UpdatedAt = w.UpdatedAt.Add(time.Second) })
			return nil, errors.New("the update's answer was lost") // so that the list, not the write, tells the reader
		})
	}()
	<-inWrite
	listed := make(chan error, 1)
	go func() {
		_, err := b.ListAll(ctx(t), client.ListOptions{PerPage: client.MaxPerPage})
		listed <- err
	}()
	// Let ListAll reach its wait for the write. Should it not have
	// started by then, the test passes without testing the order: it
	// cannot fail for timing alone.
	time.Sleep(200 * time.Millisecond)
	close(release)
	if err := <-wrote; err == nil {
		t.Fatal("the write reported no error")
	}
	if err := <-listed; err != nil {
		t.Fatal(err)
	}
	_, _, before := env.requests()
	w, err := b.Read(ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	_, _, after := env.requests()
	if w.Privacy == nil || *w.Privacy != 2 {
		t.Fatalf("privacy %v", w.Privacy)
	}
	if after != before {
		t.Errorf("Read of a website that ListAll read after this process's write of it: %d GET; the list showed it as it is; %+v", after-before, b.Stats())
	}
}

// ListAll while a write of this process is under way waits for it
// (holdWrites, on context.Background): a ListAll whose ctx ends meanwhile
// does not return until the write does.
func TestListAllCancelledWhileWriteRuns(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.seed(150)
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	inWrite, release := make(chan struct{}), make(chan struct{})
	wrote := make(chan error, 1)
	go func() {
		wrote <- b.Write(ctx(t), 0, func() (*client.Website, error) {
			close(inWrite)
			select {
			case <-release:
			case <-time.After(20 * time.Second):
			}
			return nil, nil
		})
	}()
	<-inWrite
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	after := listAllEnds(t, b, c, context.Canceled, "with an ended ctx, for a write of this process under way")
	close(release)
	after()
	if err := <-wrote; err != nil {
		t.Error(err)
	}
}

// listAllEnds calls ListAll with c, which ends while ListAll waits, and
// checks that it returns want within 10 seconds (the guard only bounds a
// failing test). Call the function it returns once the wait is released:
// it waits for a ListAll that went on.
func listAllEnds(t *testing.T, b *client.BulkReader, c context.Context, want error, while string) func() {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := b.ListAll(c, client.ListOptions{PerPage: client.MaxPerPage})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, want) {
			t.Errorf("ListAll %s: %v, want %v", while, err, want)
		}
		return func() {}
	case <-time.After(10 * time.Second):
		t.Errorf("ListAll %s still waits, 10s on", while)
		return func() { t.Logf("ListAll at last: %v", <-done) }
	}
}

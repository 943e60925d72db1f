package client

import (
	"context"
	"sync"
)

// ctxMutex is a mutex whose lock gives up when the caller's context ends,
// so that a caller waiting behind another's long wait (a Retry-After that
// the other may wait out, and it may not) keeps its own deadline. The zero
// value is unlocked.
type ctxMutex struct {
	init sync.Once
	ch   chan struct{}
}

// lock takes the mutex, or returns ctx's error when ctx ends first.
func (m *ctxMutex) lock(ctx context.Context) error {
	m.init.Do(func() { m.ch = make(chan struct{}, 1) })
	select {
	case m.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unlock releases the mutex that lock took.
func (m *ctxMutex) unlock() { <-m.ch }

// Package testclock is the tests' fake clock, for the Clock options of the
// emulator and of the client's BulkReader. Only tests import it.
package testclock

import (
	"sync"
	"time"
)

// Clock is a fake clock, safe for concurrent use. One made by New stands
// still until Set, SetDay or Advance moves it; one made by Running runs at
// the real pace from wherever they put it, so that throttle windows and
// the client's waits end on their own.
type Clock struct {
	mu      sync.Mutex
	at      time.Time // the clock's time at the real time since
	since   time.Time
	running bool
}

// New returns a clock that stands at start.
func New(start time.Time) *Clock { return &Clock{at: start} }

// Running returns a clock that runs from start at the real pace.
func Running(start time.Time) *Clock { return &Clock{at: start, since: time.Now(), running: true} }

// Now returns the clock's time; its Clock options take c.Now.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if !c.running {
		return c.at
	}
	return c.at.Add(time.Since(c.since))
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.since = t, time.Now()
}

// SetDay moves the clock to noon of day (a date at midnight UTC), where a
// running clock stays on that date for the rest of the test.
func (c *Clock) SetDay(day time.Time) { c.Set(day.Add(12 * time.Hour)) }

// Advance moves the clock d on.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.since = c.nowLocked().Add(d), time.Now()
}

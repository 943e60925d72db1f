package testclock

import (
	"sync"
	"testing"
	"time"
)

var start = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func TestStandingClock(t *testing.T) {
	c := New(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now() = %v, want %v", got, start)
	}
	c.Advance(90 * time.Second)
	if got, want := c.Now(), start.Add(90*time.Second); !got.Equal(want) {
		t.Errorf("after Advance: %v, want %v", got, want)
	}
	c.SetDay(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC))
	if got, want := c.Now(), time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("after SetDay: %v, want %v", got, want)
	}
}

func TestRunningClock(t *testing.T) {
	c := Running(start)
	time.Sleep(10 * time.Millisecond)
	if d := c.Now().Sub(start); d < 10*time.Millisecond || d > time.Minute {
		t.Errorf("a running clock moved %v in 10 ms", d)
	}
	c.Set(start)
	c.Advance(time.Hour)
	if d := c.Now().Sub(start); d < time.Hour || d > time.Hour+time.Minute {
		t.Errorf("after Set and Advance an hour: %v", d)
	}
}

// TestConcurrentUse is for the race detector: the emulator reads the clock
// while the test moves it.
func TestConcurrentUse(t *testing.T) {
	c := Running(start)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				c.Advance(time.Second)
				_ = c.Now()
			}
		})
	}
	wg.Wait()
	if c.Now().Before(start.Add(400 * time.Second)) {
		t.Errorf("Now() = %v, want at least 400 s after the start", c.Now())
	}
}

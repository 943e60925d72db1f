package client

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	o := RetryOptions{WaitMin: 100 * time.Millisecond, WaitMax: time.Second}.withDefaults()
	for attempt, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 5: time.Second, 30: time.Second} {
		for range 50 {
			if d := o.backoff(attempt); d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %s, want between %s and %s", attempt, d, want/2, want)
			}
		}
	}
	d := RetryOptions{}.withDefaults()
	if d.WaitMin != DefaultRetryWaitMin || d.WaitMax != DefaultRetryWaitMax || d.MaxRetries != 0 {
		t.Errorf("defaults %+v", d)
	}
}

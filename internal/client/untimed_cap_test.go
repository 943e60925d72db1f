package client_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestUntimedWaitLimit: an operation without a deadline (a data source,
// an import) waits for a Retry-After of up to UntimedWaitLimit, whatever
// jitter the retry adds (at most WaitMin, a second here), and fails at
// once when the server asks for longer: alone, and when it shares its GET.
// Deterministic: a refusal is immediate, so a call still waiting after 3s
// waits; a shared GET reports when it settled (SharedGet).
func TestUntimedWaitLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		retryAfter string
		waits      bool
	}{
		{"300", true},
		{"303", false},
		{"320", false},
	} {
		t.Run("Retry-After "+tc.retryAfter, func(t *testing.T) {
			t.Parallel()
			url, id, _, release := throttledGets(t, tc.retryAfter)
			close(release) // no GET is held
			c := newRetryClient(t, url, emulator.DefaultAPIKey,
				&client.RetryOptions{MaxRetries: 4, WaitMin: time.Second, WaitMax: 30 * time.Second}, nil)
			ctx, cancel := context.WithCancel(context.Background()) // no deadline
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				_, err := c.GetWebsite(ctx, id)
				errc <- err
			}()
			var de *client.DeadlineError
			select {
			case err := <-errc:
				if tc.waits || !errors.As(err, &de) || !de.Untimed {
					t.Errorf("alone: want it to wait, or its untimed *DeadlineError at once; got %v", err)
				}
			case <-time.After(3 * time.Second):
				if !tc.waits {
					t.Errorf("alone: an operation without a deadline waits a Retry-After of %ss, more than %s",
						tc.retryAfter, client.UntimedWaitLimit)
				}
			}
			cancel()

			// A client of its own: no pacer that the first call's 429 holds.
			c = newRetryClient(t, url, emulator.DefaultAPIKey,
				&client.RetryOptions{MaxRetries: 4, WaitMin: time.Second, WaitMax: 30 * time.Second}, nil)
			b := client.NewBulkReader(c, client.BulkReaderOptions{Linger: -1, Probe: 100, Clock: newFakeClock().Now})
			go func() {
				_, err := b.Read(deadlineCtx(t, 0), id)
				errc <- err
			}()
			for b.Stats().Gets < 1 { // the GET started: SharedGet reports it, or that it ended
				time.Sleep(time.Millisecond)
			}
			for {
				if n, settled := client.SharedGet(b, id); settled && n == 1 {
					if !tc.waits {
						t.Errorf("shared: a read without a deadline waits a Retry-After of %ss", tc.retryAfter)
					}
					break
				} else if settled {
					if err := <-errc; tc.waits || !errors.As(err, &de) || !de.Untimed {
						t.Errorf("shared: want it to wait, or its untimed *DeadlineError; got %v", err)
					}
					break
				}
				time.Sleep(time.Millisecond)
			}
		})
	}
}

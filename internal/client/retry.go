package client

import (
	"context"
	"time"
)

// retryWait returns the wait before repeating a call that failed with err
// for the attempt-th time, and false when no retry is left or the wait would
// end past ctx's deadline.
func (c *Client) retryWait(ctx context.Context, attempt int, err error) (time.Duration, bool) {
	if attempt > c.retry.MaxRetries {
		return 0, false
	}
	wait := c.retry.backoff(attempt)
	if apiErr, ok := AsAPIError(err); ok && apiErr.RetryAfter > 0 {
		wait = apiErr.RetryAfter
	}
	if dl, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(dl) {
		return 0, false
	}
	return wait, true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// UpdateWebsite updates a website (PUT /websites/{id}), sending every field
// but the domain, which cannot change. The real server answers an update of
// an unknown id with 500 (older builds: 404), so on such an answer it reads the
// website: if it is gone, that ErrNotFound error is returned; if it exists,
// the 500 was a real server failure, and the update, which sends every field
// and can be repeated safely, is retried with backoff up to
// RetryOptions.MaxRetries times within ctx's deadline.
func (c *Client) UpdateWebsite(ctx context.Context, id int64, in WebsiteInput) (*Website, error) {
	for attempt := 1; ; attempt++ {
		w, err := c.updateWebsite(ctx, id, in)
		if err == nil {
			return w, nil
		}
		apiErr, ok := AsAPIError(err)
		if !ok || (apiErr.StatusCode != http.StatusInternalServerError && !errors.Is(err, ErrNotFound)) {
			return nil, err
		}
		if _, getErr := c.GetWebsite(ctx, id); getErr != nil {
			if errors.Is(getErr, ErrNotFound) {
				return nil, getErr
			}
			return nil, err
		}
		if errors.Is(err, ErrNotFound) {
			// An older build answered the update "not found", yet the
			// website is there: not a deletion, and not safe to repeat.
			return nil, &APIError{Kind: ErrServer, Method: apiErr.Method, Path: apiErr.Path, StatusCode: apiErr.StatusCode,
				Message: fmt.Sprintf("the update answered %q, but reading the website right after found it; nothing "+
					"was changed", apiErr.Message)}
		}
		wait, ok := c.retryWait(ctx, attempt, err)
		if !ok {
			return nil, err
		}
		c.log.Warn(ctx, "update answered HTTP 500 although the website exists; retrying it",
			map[string]any{"method": http.MethodPut, "path": websitePath(id), "attempt": attempt, "wait": wait.String()})
		if err := Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// updateWebsite sends one PUT /websites/{id} with every field but the
// domain, which cannot change. The real server answers an update of an
// unknown id with a 500 (older builds: 404), which UpdateWebsite resolves.
func (c *Client) updateWebsite(ctx context.Context, id int64, in WebsiteInput) (*Website, error) {
	return c.websiteCall(ctx, http.MethodPut, websitePath(id), in.form(false))
}

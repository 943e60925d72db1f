package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
)

// Account is the API key's user, as GET /account describes it (newer
// builds).
type Account struct {
	ID    int64
	Name  string
	Email string
	// WebsiteLimit is the plan's number of websites (-1: unlimited); valid
	// when HasWebsiteLimit.
	WebsiteLimit    int
	HasWebsiteLimit bool
}

type accountCache struct {
	mu   sync.Mutex
	done bool
	acct *Account
	err  error // ErrAccountUnsupported, or nil
}

// Account returns the API key's user (GET /account), fetched once per
// Client: the answer, or "unsupported", is remembered; transient failures
// are not. On builds without the endpoint it returns ErrAccountUnsupported.
func (c *Client) Account(ctx context.Context) (*Account, error) {
	c.account.mu.Lock()
	defer c.account.mu.Unlock()
	if c.account.done {
		return c.account.acct, c.account.err
	}
	var env struct {
		Data *struct {
			ID    json.RawMessage `json:"id"`
			Name  string          `json:"name"`
			Email string          `json:"email"`
			Plan  *struct {
				Features map[string]json.RawMessage `json:"features"`
			} `json:"plan"`
		} `json:"data"`
	}
	err := c.do(ctx, http.MethodGet, "/account", nil, nil, &env)
	if errors.Is(err, ErrNotFound) {
		c.account.done, c.account.err = true, ErrAccountUnsupported
		return nil, ErrAccountUnsupported
	}
	if err != nil {
		return nil, err
	}
	id, ierr := looseInt(nil)
	if env.Data != nil {
		id, ierr = looseInt(env.Data.ID)
	}
	if env.Data == nil || ierr != nil || id == nil {
		return nil, &APIError{Kind: ErrUndecodable, Method: http.MethodGet, Path: "/account", StatusCode: http.StatusOK,
			Err: errors.New(`expected {"data": {"id": ..., "name": ..., "email": ...}}`)}
	}
	a := &Account{ID: int64(*id), Name: env.Data.Name, Email: env.Data.Email}
	if env.Data.Plan != nil {
		if n, err := looseInt(env.Data.Plan.Features["websites"]); err == nil && n != nil {
			a.WebsiteLimit, a.HasWebsiteLimit = *n, true
		}
	}
	c.markVerified()
	c.account.done, c.account.acct = true, a
	return a, nil
}

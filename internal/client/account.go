package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// Account is the API key's user, as GET /account describes it (newer
// builds): the user and its plan.
type Account struct {
	ID        int64
	Name      string
	Email     string
	Locale    string
	Timezone  string
	CreatedAt string // as the server wrote it, e.g. "2024-01-01T00:00:00.000000Z"
	Plan      Plan
}

// Plan is the plan of the key's user. Its zero value is an answer without a
// plan (no feature known).
type Plan struct {
	ID       int64
	Name     string
	Features PlanFeatures
}

// Unlimited is the value of a numeric plan feature without a limit.
const Unlimited = -1

// PlanFeatures are the features of a plan. A nil field is a feature the
// answer leaves out (an older or customised build).
type PlanFeatures struct {
	// Websites and Pageviews are the number of websites the user may hold
	// and of pageviews recorded per month; Unlimited (-1) means no limit.
	Websites  *int
	Pageviews *int
	// API, EmailReports and DataExport say whether the plan has the feature
	// (the server sends 1 or 0).
	API          *bool
	EmailReports *bool
	DataExport   *bool
}

// WebsiteLimit returns the plan's website limit, and false when the server
// states none or an unlimited one.
func (a *Account) WebsiteLimit() (int, bool) {
	if a == nil || a.Plan.Features.Websites == nil || *a.Plan.Features.Websites < 0 {
		return 0, false
	}
	return *a.Plan.Features.Websites, true
}

type accountCache struct {
	mu   ctxMutex
	done bool
	acct *Account
	err  error // ErrAccountUnsupported, a 401 or 403 APIError, or nil
}

// accountEnvelope is the answer of GET /account.
type accountEnvelope struct {
	Data *struct {
		ID        json.RawMessage `json:"id"`
		Name      string          `json:"name"`
		Email     string          `json:"email"`
		Locale    string          `json:"locale"`
		Timezone  string          `json:"timezone"`
		CreatedAt string          `json:"created_at"`
		// Plan is decoded on its own (accountPlan): PHP writes an empty
		// array as [], so a plan, or its features, that is not an object is
		// no plan, or no feature, rather than an undecodable account.
		Plan json.RawMessage `json:"plan"`
	} `json:"data"`
}

// accountPlan is the plan of GET /account.
type accountPlan struct {
	ID       json.RawMessage `json:"id"`
	Name     string          `json:"name"`
	Features json.RawMessage `json:"features"`
}

// Account returns the API key's user (GET /account), fetched once per
// Client: the answer, "unsupported", or the key's refusal (401, 403) is
// remembered; transient failures are not. On builds without the endpoint it returns ErrAccountUnsupported.
// Concurrent callers wait for the one request.
func (c *Client) Account(ctx context.Context) (*Account, error) {
	if err := c.account.mu.lock(ctx); err != nil {
		return nil, err
	}
	defer c.account.mu.unlock()
	if c.account.done {
		return c.account.acct, c.account.err
	}
	var env accountEnvelope
	err := c.do(ctx, http.MethodGet, "/account", nil, nil, &env)
	if errors.Is(err, ErrNotFound) {
		c.account.done, c.account.err = true, ErrAccountUnsupported
		return nil, ErrAccountUnsupported
	}
	if errors.Is(err, ErrUnauthenticated) || errors.Is(err, ErrForbidden) {
		// The key is refused, or its plan has no API access: the answer
		// holds for the whole run, and every check would ask again.
		c.account.done, c.account.err = true, err
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	a, err := env.account()
	if err != nil {
		return nil, &APIError{Kind: ErrUndecodable, Method: http.MethodGet, Path: "/account", StatusCode: http.StatusOK, Err: err}
	}
	c.markVerified()
	c.account.done, c.account.acct = true, a
	return a, nil
}

// account decodes the envelope; features of an unexpected type are left out.
func (env accountEnvelope) account() (*Account, error) {
	id, ierr := looseInt(nil)
	if env.Data != nil {
		id, ierr = looseInt(env.Data.ID)
	}
	if env.Data == nil || ierr != nil || id == nil {
		return nil, errors.New(`expected {"data": {"id": ..., "name": ..., "email": ...}}`)
	}
	d := env.Data
	a := &Account{ID: int64(*id), Name: d.Name, Email: d.Email, Locale: d.Locale, Timezone: d.Timezone, CreatedAt: d.CreatedAt}
	var p accountPlan
	if !decodes(d.Plan, &p) {
		return a, nil // no plan, or not an object
	}
	a.Plan.Name = p.Name
	if pid, err := looseInt(p.ID); err == nil && pid != nil {
		a.Plan.ID = int64(*pid)
	}
	var f map[string]json.RawMessage
	if !decodes(p.Features, &f) {
		return a, nil // no features, or not an object
	}
	number := func(name string) *int {
		n, err := looseInt(f[name])
		if err != nil {
			return nil
		}
		return n
	}
	flag := func(name string) *bool {
		b, err := looseBool(f[name])
		if err != nil {
			return nil
		}
		return b
	}
	a.Plan.Features = PlanFeatures{
		Websites: number("websites"), Pageviews: number("pageviews"),
		API: flag("api"), EmailReports: flag("email_reports"), DataExport: flag("data_export"),
	}
	return a, nil
}

// decodes tells whether raw decodes into v (null does, leaving v as it is).
func decodes(raw json.RawMessage, v any) bool {
	return json.Unmarshal(raw, v) == nil
}

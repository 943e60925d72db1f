package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
)

// apiProof records whether the base URL answered as the API, which tells
// "no such website" from "wrong base URL": the application's own 404
// "Resource not found." also answers ANY unknown path under /api/v1 (its
// fallback route), so it is ErrNotFound only once this Client has seen an
// answer that only the API gives (a list envelope, a website record, a
// delete confirmation, an account), or VerifyAPI's list request succeeded;
// a 404 of any other shape is ErrNotAPI at once.
type apiProof struct {
	ok atomic.Bool
	mu ctxMutex // serialises VerifyAPI
}

type verifyingKey struct{}

// isAPINotFound reports whether a 404 body is the application's own
// {"message":"Resource not found.","status":404}.
func isAPINotFound(data []byte) bool {
	var body struct {
		Message *string     `json:"message"`
		Status  json.Number `json:"status"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&body) != nil || body.Message == nil {
		return false
	}
	return *body.Message == "Resource not found." && body.Status.String() == "404"
}

// markVerified records that the base URL answered as the API.
func (c *Client) markVerified() { c.proof.ok.Store(true) }

// apiVerified reports whether the base URL has answered as the API.
func (c *Client) apiVerified() bool { return c.proof.ok.Load() }

// VerifyAPI proves that the base URL serves the analytics API, with one
// list request unless an earlier answer already did. Success is remembered;
// failure is not (it may be transient). It returns an ErrNotAPI *APIError
// when the base URL answers, but not as the API.
func (c *Client) VerifyAPI(ctx context.Context) error {
	if c.apiVerified() {
		return nil
	}
	if err := c.proof.mu.lock(ctx); err != nil {
		return err
	}
	defer c.proof.mu.unlock()
	if c.apiVerified() {
		return nil
	}
	_, err := c.ListWebsites(context.WithValue(ctx, verifyingKey{}, true), ListOptions{PerPage: PerPageValues[0]})
	if errors.Is(err, ErrNotFound) {
		// The fallback route: the list endpoint itself is "not found".
		apiErr, _ := AsAPIError(err)
		return &APIError{Kind: ErrNotAPI, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusNotFound,
			BaseURL: c.BaseURL(), Message: fmt.Sprintf("even the list of websites answers %q", apiErr.Message)}
	}
	return err
}

// confirmNotFound turns the application's "not found" into ErrNotAPI when
// the base URL does not answer as the API (see VerifyAPI).
func (c *Client) confirmNotFound(ctx context.Context, err error) error {
	if c.apiVerified() || ctx.Value(verifyingKey{}) != nil {
		return err
	}
	verr := c.VerifyAPI(ctx)
	if verr == nil {
		return err
	}
	apiErr, _ := AsAPIError(err)
	if errors.Is(verr, ErrNotAPI) {
		return &APIError{Kind: ErrNotAPI, Method: apiErr.Method, Path: apiErr.Path, StatusCode: apiErr.StatusCode,
			BaseURL: c.BaseURL(), Message: fmt.Sprintf("%q, but this base URL does not answer a list request as the API "+
				"does (%s), and any unknown path under /api/v1 answers like a missing website", apiErr.Message, verr)}
	}
	return fmt.Errorf("%s %s answered %q, which is only trusted once the base URL has answered as the API, but "+
		"checking that failed: %w", apiErr.Method, apiErr.Path, apiErr.Message, verr)
}

// suggestBaseURL is the base URL a redirect of an API request points at:
// the Location without its /api/v1/... part.
func suggestBaseURL(location string) string {
	u, err := url.Parse(location)
	if err != nil || u.Host == "" {
		return location
	}
	p := u.Path
	if i := strings.Index(p, "/api/v1/"); i >= 0 {
		p = p[:i]
	} else {
		p = strings.TrimSuffix(strings.TrimRight(p, "/"), "/api/v1")
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: p}).String()
}

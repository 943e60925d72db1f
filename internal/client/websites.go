package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// dataEnvelope is the {"data": ..., "status": 200} wrapper of show, store
// and update answers.
type dataEnvelope struct {
	Data *Website `json:"data"`
}

func websitePath(id int64) string { return "/websites/" + strconv.FormatInt(id, 10) }

func (c *Client) websiteCall(ctx context.Context, method, path string, form url.Values) (*Website, error) {
	var env dataEnvelope
	if err := c.do(ctx, method, path, nil, form, &env); err != nil {
		return nil, err
	}
	if env.Data == nil {
		return nil, &APIError{Kind: ErrUndecodable, Method: method, Path: path, StatusCode: http.StatusOK,
			Err: fmt.Errorf(`expected a website record under "data"`)}
	}
	return env.Data, nil
}

// GetWebsite returns one website (GET /websites/{id}).
func (c *Client) GetWebsite(ctx context.Context, id int64) (*Website, error) {
	return c.websiteCall(ctx, http.MethodGet, websitePath(id), nil)
}

// CreateWebsite stores a website (POST /websites), sending every field.
// The record returned echoes the sent settings.
func (c *Client) CreateWebsite(ctx context.Context, in WebsiteInput) (*Website, error) {
	return c.websiteCall(ctx, http.MethodPost, "/websites", in.form(true))
}

// UpdateWebsite updates a website (PUT /websites/{id}), sending every field
// but the domain, which cannot change.
//
// The real server answers an update of an unknown id with a 500 (older
// builds: 404); callers must re-read to tell a deleted website from a
// server failure.
func (c *Client) UpdateWebsite(ctx context.Context, id int64, in WebsiteInput) (*Website, error) {
	return c.websiteCall(ctx, http.MethodPut, websitePath(id), in.form(false))
}

// DeleteWebsite deletes a website (DELETE /websites/{id}).
func (c *Client) DeleteWebsite(ctx context.Context, id int64) error {
	var out struct {
		Deleted *bool `json:"deleted"`
	}
	if err := c.do(ctx, http.MethodDelete, websitePath(id), nil, nil, &out); err != nil {
		return err
	}
	if out.Deleted != nil && !*out.Deleted {
		return &APIError{Kind: ErrServer, Method: http.MethodDelete, Path: websitePath(id), StatusCode: http.StatusOK,
			Message: `the server answered "deleted": false`}
	}
	return nil
}

// Sort keys and orders of the list endpoint.
const (
	SortByID     = "id"
	SortByDomain = "domain"
	SortAsc      = "asc"
	SortDesc     = "desc"
)

// PerPageValues are the page sizes the server accepts; anything else makes it
// fall back silently to its own default (10 on a fresh install).
var PerPageValues = []int{10, 25, 50, 100}

// MaxPerPage is the largest page size the server accepts.
const MaxPerPage = 100

// ListOptions are the query parameters of GET /websites. Zero values are not
// sent, except PerPage, which is always sent (MaxPerPage when zero) because
// the server's default differs between installations.
type ListOptions struct {
	Search   string
	SearchBy string // "domain" (the only value the server knows)
	SortBy   string // SortByID or SortByDomain
	Sort     string // SortAsc or SortDesc
	PerPage  int    // one of PerPageValues
	Page     int    // 1-based
	Favorite *bool  // newer builds only
}

func (o ListOptions) query() (url.Values, error) {
	q := url.Values{}
	if o.Search != "" {
		q.Set("search", o.Search)
		searchBy := o.SearchBy
		if searchBy == "" {
			searchBy = "domain"
		}
		q.Set("search_by", searchBy)
	}
	if o.SortBy != "" {
		if o.SortBy != SortByID && o.SortBy != SortByDomain {
			return nil, fmt.Errorf("sort_by must be %q or %q, got %q", SortByID, SortByDomain, o.SortBy)
		}
		q.Set("sort_by", o.SortBy)
	}
	if o.Sort != "" {
		if o.Sort != SortAsc && o.Sort != SortDesc {
			return nil, fmt.Errorf("sort must be %q or %q, got %q", SortAsc, SortDesc, o.Sort)
		}
		q.Set("sort", o.Sort)
	}
	perPage := o.PerPage
	if perPage == 0 {
		perPage = MaxPerPage
	}
	valid := false
	for _, v := range PerPageValues {
		valid = valid || v == perPage
	}
	if !valid {
		return nil, fmt.Errorf("per_page must be one of %v, got %d", PerPageValues, perPage)
	}
	q.Set("per_page", strconv.Itoa(perPage))
	if o.Page > 1 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	if o.Favorite != nil {
		q.Set("favorite", boolDigit(*o.Favorite))
	}
	return q, nil
}

// Page is one page of list results.
type Page struct {
	Websites    []Website
	CurrentPage int
	LastPage    int
	PerPage     int
	Total       int
}

type listEnvelope struct {
	Data *[]Website `json:"data"`
	Meta *struct {
		CurrentPage json.Number `json:"current_page"`
		LastPage    json.Number `json:"last_page"`
		PerPage     json.Number `json:"per_page"`
		Total       json.Number `json:"total"`
	} `json:"meta"`
}

// ListWebsites returns one page of the caller's websites (GET /websites).
func (c *Client) ListWebsites(ctx context.Context, opts ListOptions) (*Page, error) {
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	var env listEnvelope
	if err := c.do(ctx, http.MethodGet, "/websites", q, nil, &env); err != nil {
		return nil, err
	}
	if env.Data == nil || env.Meta == nil {
		return nil, &APIError{Kind: ErrUndecodable, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusOK,
			Err: fmt.Errorf(`expected a paginated list with "data" and "meta"`)}
	}
	p := &Page{Websites: *env.Data}
	for _, f := range []struct {
		n   json.Number
		dst *int
	}{
		{env.Meta.CurrentPage, &p.CurrentPage},
		{env.Meta.LastPage, &p.LastPage},
		{env.Meta.PerPage, &p.PerPage},
		{env.Meta.Total, &p.Total},
	} {
		v, err := strconv.Atoi(f.n.String())
		if err != nil && f.n != "" {
			return nil, &APIError{Kind: ErrUndecodable, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusOK,
				Err: fmt.Errorf("expected integer pagination fields in \"meta\", got %q", f.n)}
		}
		*f.dst = v
	}
	if p.LastPage < 1 {
		p.LastPage = 1
	}
	return p, nil
}

// AllWebsites iterates over every matching website, page by page (following
// meta.last_page, always sending per_page). Iteration stops at the first
// error, which is yielded with a zero Website.
//
// Pages are read one after another, so a website created or deleted while
// iterating may be seen twice or missed; the iterator drops repeated ids, and
// callers that must not miss a website confirm absences individually.
func (c *Client) AllWebsites(ctx context.Context, opts ListOptions) iter.Seq2[Website, error] {
	return func(yield func(Website, error) bool) {
		seen := map[int64]bool{}
		for page := max(opts.Page, 1); ; page++ {
			o := opts
			o.Page = page
			p, err := c.ListWebsites(ctx, o)
			if err != nil {
				yield(Website{}, err)
				return
			}
			for _, w := range p.Websites {
				if seen[w.ID] {
					continue
				}
				seen[w.ID] = true
				if !yield(w, nil) {
					return
				}
			}
			if page >= p.LastPage || len(p.Websites) == 0 {
				return
			}
		}
	}
}

// ListAllWebsites collects AllWebsites into a slice.
func (c *Client) ListAllWebsites(ctx context.Context, opts ListOptions) ([]Website, error) {
	var out []Website
	for w, err := range c.AllWebsites(ctx, opts) {
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// FindWebsiteByDomain pages through the search results for domain and
// returns the website whose domain matches exactly (search is a substring
// match on the server). It returns an ErrNotFound *APIError when none does.
func (c *Client) FindWebsiteByDomain(ctx context.Context, domain string) (*Website, error) {
	for w, err := range c.AllWebsites(ctx, ListOptions{Search: domain, SortBy: SortByID, Sort: SortAsc}) {
		if err != nil {
			return nil, err
		}
		if w.Domain == domain {
			return &w, nil
		}
	}
	return nil, &APIError{Kind: ErrNotFound, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusNotFound,
		Message: fmt.Sprintf("no website with the domain %q", domain)}
}

package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

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

// likeLiteral is a search as a literal in the server's LIKE pattern
// ("%search%", MySQL's, whose escape character is the backslash): a
// backslash, "%" and "_" escaped, so that it matches itself.
var likeLiteral = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace

func (o ListOptions) query() (url.Values, error) {
	q := url.Values{}
	if o.Search != "" {
		q.Set("search", likeLiteral(o.Search))
		searchBy := o.SearchBy
		if searchBy == "" {
			searchBy = "domain"
		}
		q.Set("search_by", searchBy)
	}
	if err := setListParams(q, o.SortBy, []string{SortByID, SortByDomain}, o.Sort, o.PerPage, o.Page); err != nil {
		return nil, err
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
	// LastPage is meta.last_page, or, when the server leaves it out, an
	// estimate (from meta.total, or the current page plus one while there
	// are more); LastPageKnown tells which.
	LastPage      int
	LastPageKnown bool
	// HasNext reports whether a page follows: meta.last_page, else
	// links.next, else a full page.
	HasNext bool
	PerPage int
	// Total is meta.total, -1 when the server leaves it out.
	Total int
}

type listEnvelope struct {
	Data  *[]Website `json:"data"`
	Links *struct {
		Next *string `json:"next"`
	} `json:"links"`
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
	if env.Data == nil || (env.Meta == nil && env.Links == nil) {
		return nil, &APIError{Kind: ErrUndecodable, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusOK,
			Err: fmt.Errorf(`expected a paginated list with "data" and "meta"`)}
	}
	c.markVerified()
	p := &Page{Websites: *env.Data, CurrentPage: max(opts.Page, 1), Total: -1}
	requested, _ := strconv.Atoi(q.Get("per_page"))
	p.PerPage = requested
	if env.Meta != nil {
		for _, f := range []struct {
			n   json.Number
			dst *int
		}{
			{env.Meta.CurrentPage, &p.CurrentPage},
			{env.Meta.LastPage, &p.LastPage},
			{env.Meta.PerPage, &p.PerPage},
			{env.Meta.Total, &p.Total},
		} {
			if f.n == "" {
				continue
			}
			v, err := strconv.Atoi(f.n.String())
			if err != nil {
				return nil, &APIError{Kind: ErrUndecodable, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusOK,
					Err: fmt.Errorf("expected integer pagination fields in \"meta\", got %q", f.n)}
			}
			*f.dst = v
		}
		p.LastPageKnown = env.Meta.LastPage != ""
	}
	switch {
	case p.LastPageKnown:
		p.HasNext = max(opts.Page, 1) < p.LastPage
	case env.Links != nil:
		p.HasNext = env.Links.Next != nil && *env.Links.Next != ""
	default:
		p.HasNext = p.PerPage > 0 && len(p.Websites) >= p.PerPage
	}
	if !p.LastPageKnown {
		switch {
		case p.Total >= 0 && p.PerPage > 0:
			p.LastPage = (p.Total + p.PerPage - 1) / p.PerPage
		case p.HasNext:
			p.LastPage = p.CurrentPage + 1
		default:
			p.LastPage = p.CurrentPage
		}
	}
	if p.LastPage < 1 {
		p.LastPage = 1
	}
	return p, nil
}

// listAllWebsites collects what AllWebsites yields into a slice. When
// the list changed while it was read, it reads it once more, not more:
// it calls sweepWebsites itself, so that AllWebsites's own second attempt
// does not come on top of its own.
func (c *Client) listAllWebsites(ctx context.Context, opts ListOptions) ([]Website, error) {
	for attempt := 1; ; attempt++ {
		var out []Website
		_, err := c.sweepWebsites(ctx, opts, func(w Website, _ error) bool {
			out = append(out, w)
			return true
		})
		if err == nil {
			return out, nil
		}
		if !errors.As(err, new(*listChangedError)) {
			return nil, err
		}
		if attempt == 2 {
			return nil, errListChanged("websites were created, deleted or renamed while the list was read")
		}
	}
}

// findWebsitesByDomain returns every website whose domain is exactly
// domain, by id (search is a substring match on the server, and the
// application has no unique index on domains, so there may be several).
func (c *Client) findWebsitesByDomain(ctx context.Context, domain string) ([]Website, error) {
	return c.searchWebsites(ctx, domain, func(d string) bool { return d == domain })
}

// searchWebsites returns every website whose domain match accepts, by id,
// from every page of the list's search for search (a case-insensitive
// substring of the domain, with LIKE's wildcards: a website match accepts
// is found only when its domain contains search).
func (c *Client) searchWebsites(ctx context.Context, search string, match func(domain string) bool) ([]Website, error) {
	ws, _, err := c.searchListed(ctx, search, match)
	return ws, err
}

// searchListed is searchWebsites, and also returns how many websites the
// search listed (its cost: see listRequests).
func (c *Client) searchListed(ctx context.Context, search string, match func(domain string) bool) ([]Website, int, error) {
	ws, err := c.listAllWebsites(ctx, ListOptions{Search: search, SortBy: SortByID, Sort: SortDesc})
	if err != nil {
		return nil, 0, err
	}
	var out []Website
	for _, w := range ws {
		if match(w.Domain) {
			out = append(out, w)
		}
	}
	slices.SortFunc(out, func(a, b Website) int { return cmp.Compare(a.ID, b.ID) })
	return out, len(ws), nil
}

// listPages is the number of pages of a list of n websites, 100 a page
// (one when empty).
func listPages(n int) int { return max(1, (n+MaxPerPage-1)/MaxPerPage) }

// listRequests is what reading a list of n websites costs, 100 a page:
// one page, or every page twice (sweepWebsites).
func listRequests(n int) int {
	pages := listPages(n)
	if pages == 1 {
		return 1
	}
	return 2 * pages
}

// FindWebsiteByDomain returns the website whose domain is exactly domain.
// It returns an ErrNotFound *APIError when there is none, and a
// *DuplicateDomainError when there are several.
func (c *Client) FindWebsiteByDomain(ctx context.Context, domain string) (*Website, error) {
	ws, err := c.findWebsitesByDomain(ctx, domain)
	if err != nil {
		return nil, err
	}
	return oneByDomain(domain, ws)
}

// oneByDomain returns the only website of ws, the websites whose domain is
// domain.
func oneByDomain(domain string, ws []Website) (*Website, error) {
	switch {
	case len(ws) == 0:
		return nil, &APIError{Kind: ErrNotFound, Method: http.MethodGet, Path: "/websites", StatusCode: http.StatusNotFound,
			Message: fmt.Sprintf("no website with the domain %q", domain)}
	case len(ws) > 1:
		return nil, &DuplicateDomainError{Domain: domain, IDs: websiteIDs(ws)}
	}
	return &ws[0], nil
}

func websiteIDs(ws []Website) []int64 {
	ids := make([]int64, len(ws))
	for i, w := range ws {
		ids[i] = w.ID
	}
	return ids
}

// setListParams checks and sets the parameters every list of the API
// takes: sort_by (one of sortBys; empty leaves the server's default), sort,
// per_page (one of PerPageValues; 0 means MaxPerPage, since the server's
// default differs between installations) and page (1-based).
func setListParams(v url.Values, sortBy string, sortBys []string, sort string, perPage, page int) error {
	if sortBy != "" {
		if !slices.Contains(sortBys, sortBy) {
			return fmt.Errorf("sort_by must be one of %q, got %q", sortBys, sortBy)
		}
		v.Set("sort_by", sortBy)
	}
	if sort != "" {
		if sort != SortAsc && sort != SortDesc {
			return fmt.Errorf("sort must be %q or %q, got %q", SortAsc, SortDesc, sort)
		}
		v.Set("sort", sort)
	}
	if perPage == 0 {
		perPage = MaxPerPage
	}
	if !slices.Contains(PerPageValues, perPage) {
		return fmt.Errorf("per_page must be one of %v, got %d", PerPageValues, perPage)
	}
	v.Set("per_page", strconv.Itoa(perPage))
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return nil
}

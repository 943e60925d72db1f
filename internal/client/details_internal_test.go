package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// cannedClient is a client of a server that answers every request with
// status and body, and records the last request's query.
func cannedClient(t *testing.T, status int, body string) (*Client, *url.Values) {
	t.Helper()
	var last url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last = r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, "CannedKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c, &last
}

func TestAPIErrorDetails(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err       APIError
		want, not string
	}{
		{APIError{Kind: ErrRateLimited, StatusCode: 429, RetryAfter: 3 * time.Second}, "(retry after 3s)", "attempts"},
		{APIError{Kind: ErrServer, StatusCode: 500, RetryAfter: 3 * time.Second}, "HTTP 500", "retry after"},
		{APIError{Kind: ErrRateLimited, StatusCode: 429}, "HTTP 429", "retry after"},
		{APIError{Kind: ErrServer, StatusCode: 502, Attempts: 2}, "(after 2 attempts)", ""},
		{APIError{Kind: ErrServer, StatusCode: 502, Attempts: 1}, "HTTP 502", "attempts"},
	} {
		got := tc.err.Error()
		if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("%+v: %q, want %q and not %q", tc.err, got, tc.want, tc.not)
		}
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abcd", 4, "abcd"},
		{"abcde", 4, "abcd…"},
		{"abcé", 5, "abcé"},  // é is 2 bytes: 5 bytes fit
		{"abcéf", 4, "abc…"}, // cut inside é: back to its start
		{"éé", 1, "…"},
		{"a\xffb", 3, "a?b"},
	} {
		if got := snippet([]byte(tc.in), tc.n); got != tc.want {
			t.Errorf("snippet(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestDeleteAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body     string
		wantErr  bool
		verified bool
	}{
		{`{"id":3,"object":"website","deleted":true,"status":200}`, false, true},
		{`{"id":3,"object":"website","deleted":false,"status":200}`, true, false},
		{`{"status":200}`, false, false}, // not the application's answer: proves nothing
	} {
		c, _ := cannedClient(t, 200, tc.body)
		err := c.DeleteWebsite(context.Background(), 3)
		if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, ErrServer)) {
			t.Errorf("%s: %v", tc.body, err)
		}
		if c.APIVerified() != tc.verified {
			t.Errorf("%s: verified %v, want %v", tc.body, c.APIVerified(), tc.verified)
		}
	}
}

func TestListQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opts    ListOptions
		want    string
		wantErr string
	}{
		{ListOptions{}, "per_page=100", ""},
		{ListOptions{Search: "ex", Page: 1}, "per_page=100&search=ex&search_by=domain", ""},
		{ListOptions{Search: "ex", SearchBy: "id", Page: 2}, "page=2&per_page=100&search=ex&search_by=id", ""},
		{ListOptions{Sort: SortAsc, SortBy: SortByDomain, PerPage: 10}, "per_page=10&sort=asc&sort_by=domain", ""},
		{ListOptions{Sort: "up"}, "", `sort must be "asc" or "desc"`},
		{ListOptions{SortBy: "name"}, "", `sort_by must be`},
		{ListOptions{PerPage: 7}, "", "per_page must be one of"},
	} {
		q, err := tc.opts.query()
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%+v: %v, want %q", tc.opts, err, tc.wantErr)
			}
		case err != nil || q.Encode() != tc.want:
			t.Errorf("%+v: %q, %v; want %q", tc.opts, q.Encode(), err, tc.want)
		}
	}
}

// Pagination read from answers without meta.last_page.
func TestListPagination(t *testing.T) {
	t.Parallel()
	two := `[{"id":1,"domain":"a.example"},{"id":2,"domain":"b.example"}]`
	for _, tc := range []struct {
		name, body string
		page       int
		hasNext    bool
		lastPage   int
		wantErr    bool
	}{
		{name: "neither meta nor links", body: `{"data":` + two + `,"status":200}`, wantErr: true},
		{name: "links only, next", body: `{"data":` + two + `,"links":{"next":"x?page=2"},"status":200}`, hasNext: true, lastPage: 2},
		{name: "links only, last", body: `{"data":` + two + `,"links":{"next":null},"status":200}`, lastPage: 1},
		{name: "meta without last_page, full page", body: `{"data":` + two + `,"meta":{"per_page":2},"status":200}`, hasNext: true, lastPage: 2},
		{name: "meta without last_page, short page", body: `{"data":[{"id":1,"domain":"a.example"}],"meta":{"per_page":2},"status":200}`, lastPage: 1},
		{name: "meta with total", body: `{"data":` + two + `,"meta":{"per_page":2,"total":5},"status":200}`, hasNext: true, lastPage: 3},
		{name: "page 3 of 3", page: 3, body: `{"data":` + two + `,"meta":{"current_page":3,"last_page":3,"per_page":2,"total":6},"status":200}`, lastPage: 3},
		{name: "empty", body: `{"data":[],"meta":{"current_page":1,"last_page":0,"per_page":10,"total":0},"status":200}`, lastPage: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := cannedClient(t, 200, tc.body)
			p, err := c.ListWebsites(context.Background(), ListOptions{PerPage: 10, Page: tc.page})
			if tc.wantErr {
				if !errors.Is(err, ErrUndecodable) {
					t.Errorf("err %v, want undecodable", err)
				}
				return
			}
			if err != nil || p.HasNext != tc.hasNext || p.LastPage != tc.lastPage {
				t.Errorf("%+v, %v; want hasNext %v, lastPage %d", p, err, tc.hasNext, tc.lastPage)
			}
		})
	}
}

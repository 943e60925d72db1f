package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// The statistics a website has recorded (GET /stats/{id}). The application
// deletes them with the website, so a caller about to delete one may want
// to know what would go.

// Statistics names and sort keys of GET /stats/{id}.
const (
	StatisticPageviews = "pageviews"
	StatisticEvents    = "event"
	StatisticVisitors  = "visitors"
	StatsSortByCount   = "count"
	StatsSortByValue   = "value"
)

// Date bounds that cover every date a statistic can have (MySQL's DATE
// range).
const (
	statsFrom = "1000-01-01"
	statsTo   = "9999-12-31"
)

// StatisticsQuery are the parameters of GET /stats/{id}. Name, From and To
// are required by the server; PerPage is always sent (MaxPerPage when
// zero).
type StatisticsQuery struct {
	Name     string // e.g. StatisticPageviews
	From, To string // YYYY-MM-DD, inclusive
	SortBy   string // StatsSortByCount (the server's default) or StatsSortByValue
	Sort     string // SortAsc or SortDesc (the server's default)
	PerPage  int    // one of PerPageValues
	Page     int    // 1-based
	Search   string // substring of the value
}

func (q StatisticsQuery) values() (url.Values, error) {
	v := url.Values{"name": {q.Name}, "from": {q.From}, "to": {q.To}}
	if err := setListParams(v, q.SortBy, []string{StatsSortByCount, StatsSortByValue}, q.Sort, q.PerPage, q.Page); err != nil {
		return nil, err
	}
	if q.Search != "" {
		v.Set("search", q.Search)
	}
	return v, nil
}

// StatisticsRow is one row of a statistics answer: for pageviews and
// visitors, Value is a day (YYYY-MM-DD) and Count that day's total.
type StatisticsRow struct {
	Value string
	Count int64
}

// StatisticsPage is one page of GET /stats/{id}.
type StatisticsPage struct {
	Rows []StatisticsRow
	// Total is the number of rows over every page (for pageviews: the
	// number of days with pageviews).
	Total       int
	CurrentPage int
	LastPage    int
}

// wireStatisticsPage is the bare Laravel paginator the endpoint answers
// (not the websites' envelope). Counts are strings (a MySQL SUM); numbers
// are accepted too.
type wireStatisticsPage struct {
	CurrentPage json.RawMessage `json:"current_page"`
	Data        *[]struct {
		Value json.RawMessage `json:"value"`
		Count json.RawMessage `json:"count"`
	} `json:"data"`
	LastPage json.RawMessage `json:"last_page"`
	Total    json.RawMessage `json:"total"`
}

func statsPath(id int64) string { return "/stats/" + strconv.FormatInt(id, 10) }

// noRetryKey marks a request context whose failed attempts must not be
// repeated by the retrying transport (the pacer still applies).
type noRetryKey struct{}

// withoutRetries returns ctx for calls that must cost one request each.
func withoutRetries(ctx context.Context) context.Context {
	return context.WithValue(ctx, noRetryKey{}, true)
}

// GetStatistics returns one page of a website's statistics
// (GET /stats/{id}). Another user's website and an unknown id are
// ErrNotFound, as is every id on an older build without the endpoint (its
// fallback route answers the same). The call is sent once, never retried:
// callers count the requests it costs.
func (c *Client) GetStatistics(ctx context.Context, id int64, q StatisticsQuery) (*StatisticsPage, error) {
	query, err := q.values()
	if err != nil {
		return nil, err
	}
	return c.statisticsCall(withoutRetries(ctx), id, query)
}

// statisticsCall sends GET /stats/{id} with query and decodes its page.
func (c *Client) statisticsCall(ctx context.Context, id int64, query url.Values) (*StatisticsPage, error) {
	path := statsPath(id)
	var raw json.RawMessage
	if err := c.do(ctx, http.MethodGet, path, query, nil, &raw); err != nil {
		return nil, err
	}
	page, err := decodeStatisticsPage(raw)
	if err != nil {
		return nil, c.undecodable(http.MethodGet, path, http.StatusOK, raw,
			fmt.Errorf(`expected a JSON object {"current_page": 1, "data": [{"value": ..., "count": "..."}], "total": ...}: %w`, err))
	}
	c.markVerified()
	return page, nil
}

func decodeStatisticsPage(raw []byte) (*StatisticsPage, error) {
	var w wireStatisticsPage
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	if w.Data == nil {
		return nil, errors.New(`no "data" list`)
	}
	total, err := looseInt(w.Total)
	if err != nil || total == nil {
		return nil, fmt.Errorf("field total: missing or not a number")
	}
	p := &StatisticsPage{Total: *total, CurrentPage: 1, LastPage: 1}
	if n, err := looseInt(w.CurrentPage); err == nil && n != nil {
		p.CurrentPage = *n
	}
	if n, err := looseInt(w.LastPage); err == nil && n != nil {
		p.LastPage = *n
	}
	for i, d := range *w.Data {
		value, err := looseString(d.Value)
		if err != nil {
			return nil, fmt.Errorf("data[%d].value: %w", i, err)
		}
		count, err := looseInt(d.Count)
		if err != nil || count == nil {
			return nil, fmt.Errorf("data[%d].count: expected a number or a numeric string, got %s", i, snippet(d.Count, 40))
		}
		p.Rows = append(p.Rows, StatisticsRow{Value: value, Count: int64(*count)})
	}
	return p, nil
}

// looseString decodes a JSON string, or the text of a number.
func looseString(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("expected a string, got %s", snippet(raw, 40))
}

// PageviewSummary is what a website's pageview statistics amount to.
type PageviewSummary struct {
	// Days is the number of days with pageviews; 0 when the website has
	// none.
	Days int
	// First and Last are the first and last of those days (YYYY-MM-DD);
	// empty when Days is 0. Last is empty too when the second request it
	// needed was not allowed (see SummarizePageviews).
	First, Last string
	// Events is the number of different custom events recorded, read only
	// when Days is 0: the application records a custom event without a
	// pageview, and every other statistic with one.
	Events int
	// Requests is the number of requests made: 1, or 2 for a website with
	// more days than a page or without pageviews, plus the retries and the
	// look-up after a "not found" (each one again allowed).
	Requests int
}

// Any reports whether the website has statistics.
func (s *PageviewSummary) Any() bool { return s.Days > 0 || s.Events > 0 }

// ErrRequestBudget is returned, wrapping the last failure, when the
// caller's budget (SummarizePageviews's again) allowed no further request:
// the retry or the look-up that would have answered.
var ErrRequestBudget = errors.New("the budget of requests allows no further request")

// ErrEventsNotChecked is wrapped, with ErrRequestBudget, when the budget
// refused the request for the custom events of a website without
// pageviews: no request failed.
var ErrEventsNotChecked = errors.New("the custom events were not checked")

// SummarizePageviews tells how many days of pageviews a website has, and
// the first and the last of them, with at most two requests: the days
// sorted by date, oldest first (total and first day; and the last day too
// when every day fits on that page), then, only if needed, newest first.
// A website without pageviews costs a second request too, for its custom
// events (Events), which are recorded without a pageview.
//
// The requests are retried like every read: a 429 or a 503 waits as the
// server asks (Retry-After), through the pacer the client's other requests
// share, within ctx's deadline. again is asked before every request after
// the first (nil allows them all): each retry, the second request, and, when
// the first answers "not found", the one GET /websites/{id} that tells a
// build without the endpoint (ErrStatisticsUnsupported) from a website that
// is not the key's user's (ErrNotFound). When again refuses the second
// request, Last is left empty (or, without pageviews, the error wraps
// ErrRequestBudget and ErrEventsNotChecked); when it refuses a retry or the look-up, the
// error wraps ErrRequestBudget and the last failure.
func (c *Client) SummarizePageviews(ctx context.Context, id int64, again func() bool) (*PageviewSummary, error) {
	s := &PageviewSummary{Requests: 1}
	refused := false
	gate := func() bool {
		if again != nil && !again() {
			refused = true
			return false
		}
		s.Requests++
		return true
	}
	ctx = withRetryGate(ctx, gate)
	failed := func(err error) error {
		if refused {
			return fmt.Errorf("%w: %w", ErrRequestBudget, err)
		}
		return err
	}
	q := StatisticsQuery{Name: StatisticPageviews, From: statsFrom, To: statsTo, SortBy: StatsSortByValue, Sort: SortAsc, PerPage: MaxPerPage}
	asc, err := c.getStatisticsPage(ctx, id, q)
	if errors.Is(err, ErrNotFound) && !refused {
		if !gate() {
			return nil, failed(err)
		}
		err = c.statisticsNotFound(ctx, id, err)
	}
	if err != nil {
		return nil, failed(err)
	}
	s.Days = max(asc.Total, 0)
	if asc.Total <= 0 || len(asc.Rows) == 0 {
		// No pageviews: custom events are recorded without one.
		if !gate() {
			return s, fmt.Errorf("%w: %w", ErrRequestBudget, ErrEventsNotChecked)
		}
		ev, err := c.getStatisticsPage(ctx, id, StatisticsQuery{Name: StatisticEvents, From: statsFrom, To: statsTo,
			PerPage: PerPageValues[0]})
		if err != nil {
			return s, failed(err)
		}
		s.Events = max(ev.Total, 0)
		return s, nil
	}
	s.First = asc.Rows[0].Value
	if asc.Total <= len(asc.Rows) {
		s.Last = asc.Rows[len(asc.Rows)-1].Value
		return s, nil
	}
	if !gate() {
		return s, nil
	}
	q.Sort = SortDesc
	desc, err := c.getStatisticsPage(ctx, id, q)
	if err != nil {
		return s, failed(err)
	}
	if len(desc.Rows) > 0 {
		s.Last = desc.Rows[0].Value
	}
	if desc.Total > s.Days {
		s.Days = desc.Total // a day recorded between the two requests
	}
	return s, nil
}

package client

import (
	"context"
	"errors"
	"fmt"
)

// Reading statistics in full (the statistics data source and the export
// action): every row of one name over a range of days, or its top values,
// at one request per 100 rows, never more.

// StatisticNames are every name GET /stats/{id} accepts, in the
// application's order.
var StatisticNames = []string{
	StatisticPageviews, StatisticVisitors, "browser", "os", "device", "country", "city", "page", "referrer",
	"resolution", "language", "landing_page", "event", "campaign", "continent", "visitors_hour", "pageviews_hour",
}

// ErrStatisticsUnsupported is returned when the installation answers the
// statistics endpoint with its "not found" for a website that exists: an
// older build without GET /stats/{id}, whose fallback route answers every
// unknown path like a missing website.
var ErrStatisticsUnsupported = errors.New("the installation has no statistics endpoint (GET /api/v1/stats/{id})")

// MaxStatisticsLimit is the largest number of top values one read returns:
// one page of the largest size the server accepts.
const MaxStatisticsLimit = MaxPerPage

// StatisticsRead says what to read.
type StatisticsRead struct {
	Name     string // one of StatisticNames
	From, To string // YYYY-MM-DD, inclusive
	// Limit > 0 reads the Limit values with the highest counts (ties by
	// value), in one request; at most MaxStatisticsLimit. 0 reads every
	// row, sorted by value (for pageviews and visitors: by day, oldest
	// first), 100 per request.
	Limit int
	// OnPage, if set, is called after each page with the rows read so far
	// and the requests made so far for this read.
	OnPage func(rows, requests int)
}

// StatisticsResult is what ReadStatistics read.
type StatisticsResult struct {
	Rows []StatisticsRow
	// Total is the number of rows the server has for the name and range
	// (more than len(Rows) when Limit cut them).
	Total    int
	Requests int
}

// ReadStatistics reads one statistic of website id (see StatisticsRead).
// Unlike GetStatistics, failed requests are retried like every other read
// (429 and 503 waited out, within ctx's deadline). A "not found" answer is
// told apart with one GET /websites/{id}: ErrNotFound when the website is
// unknown or another user's, ErrStatisticsUnsupported when it exists (an
// older build). A row that moves to another page while the pages are read
// (a value recorded in between) is kept once.
func (c *Client) ReadStatistics(ctx context.Context, id int64, r StatisticsRead) (*StatisticsResult, error) {
	if r.Limit < 0 || r.Limit > MaxStatisticsLimit {
		return nil, fmt.Errorf("statistics limit %d: must be between 1 and %d (or 0 for every row)", r.Limit, MaxStatisticsLimit)
	}
	q := StatisticsQuery{Name: r.Name, From: r.From, To: r.To, SortBy: StatsSortByValue, Sort: SortAsc, PerPage: MaxPerPage, Page: 1}
	if r.Limit > 0 {
		q.SortBy, q.Sort, q.PerPage = StatsSortByCount, SortDesc, pageSizeFor(r.Limit)
	}
	res := &StatisticsResult{}
	seen := map[string]bool{}
	for {
		p, err := c.getStatisticsPage(ctx, id, q)
		res.Requests++
		if err != nil {
			if errors.Is(err, ErrNotFound) && q.Page == 1 {
				return res, c.statisticsNotFound(ctx, id, err)
			}
			return res, err
		}
		res.Total = p.Total
		for _, row := range p.Rows {
			if !seen[row.Value] {
				seen[row.Value] = true
				res.Rows = append(res.Rows, row)
			}
		}
		if r.OnPage != nil {
			r.OnPage(len(res.Rows), res.Requests)
		}
		if r.Limit > 0 {
			if len(res.Rows) > r.Limit {
				res.Rows = res.Rows[:r.Limit]
			}
			return res, nil
		}
		if len(p.Rows) == 0 || q.Page >= p.LastPage || len(res.Rows) >= p.Total {
			return res, nil
		}
		q.Page++
	}
}

// pageSizeFor is the smallest page size the server accepts that holds n
// rows.
func pageSizeFor(n int) int {
	for _, s := range PerPageValues {
		if s >= n {
			return s
		}
	}
	return MaxPerPage
}

// getStatisticsPage is GetStatistics with the transport's retries.
func (c *Client) getStatisticsPage(ctx context.Context, id int64, q StatisticsQuery) (*StatisticsPage, error) {
	query, err := q.values()
	if err != nil {
		return nil, err
	}
	return c.statisticsCall(ctx, id, query)
}

// statisticsNotFound tells an unknown (or another user's) website from a
// build without the statistics endpoint, with one read of the website.
func (c *Client) statisticsNotFound(ctx context.Context, id int64, statsErr error) error {
	_, err := c.GetWebsite(ctx, id)
	switch {
	case err == nil:
		return fmt.Errorf("%w: GET /stats/%d answered \"not found\" although GET /websites/%d finds the website (%w)",
			ErrStatisticsUnsupported, id, id, statsErr)
	case errors.Is(err, ErrNotFound):
		return statsErr
	default:
		return err
	}
}

package emulator

// The websites' statistics: the application's `stats` table, which the
// tracking endpoint (package tracking) fills and GET /api/v1/stats/{id} reads. Not
// to be confused with the emulator's request counters (Stats, counters.go).

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/php"
)

// routeStatistics is GET /api/v1/stats/{id}: one website's statistics.
const routeStatistics = "/api/v1/stats/{id}"

// StatisticNames are the names GET /stats/{id} accepts (and the tracking
// endpoint records).
var StatisticNames = []string{
	"pageviews", "visitors", "browser", "os", "device", "country", "city", "page", "referrer",
	"resolution", "language", "landing_page", "event", "campaign", "continent", "visitors_hour", "pageviews_hour",
}

// Statistic is one row of a website's statistics (the application's `stats`
// table): how many hits recorded Value under Name on Date. For "pageviews"
// and "visitors" Value is the date itself; for "page" the recorded page
// (path and query), and so on.
type Statistic struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Date  string `json:"date"` // YYYY-MM-DD
	Count int    `json:"count"`
}

// statKey identifies a row: the table's unique key (website_id, name,
// value, date) without the website.
type statKey struct {
	name, value, date string
}

// recordLocked adds one hit to each row of website id (INSERT ... ON
// DUPLICATE KEY UPDATE count = count + 1). Callers hold e.mu.
func (e *Emulator) recordLocked(id int64, date string, rows []tracking.Row) {
	m := e.statistics[id]
	if m == nil {
		m = map[statKey]int{}
		e.statistics[id] = m
	}
	for _, r := range rows {
		m[statKey{name: r.Name, value: php.Substr(r.Value, 255), date: date}]++
	}
}

// Statistics returns the statistics recorded for the website with id
// (deleted with it), sorted by name, date and value. Tests read them
// here; they make them through the tracking endpoint, as a browser does.
func (e *Emulator) Statistics(id int64) []Statistic {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Statistic, 0, len(e.statistics[id]))
	for k, n := range e.statistics[id] {
		out = append(out, Statistic{Name: k.name, Value: k.value, Date: k.date, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		return a.Value < b.Value
	})
	return out
}

// SeedStatistics adds rows to the statistics of the website with id (their
// counts added to any recorded for the same name, value and date), as if
// that many hits had been tracked on their dates; false when there is no
// such website. For the tests and the benchmark that need a long history,
// which the tracking endpoint can only record day by day.
func (e *Emulator) SeedStatistics(id int64, rows []Statistic) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.websites[id]; !ok {
		return false
	}
	m := e.statistics[id]
	if m == nil {
		m = map[statKey]int{}
		e.statistics[id] = m
	}
	for _, r := range rows {
		m[statKey{name: r.Name, value: php.Substr(r.Value, 255), date: r.Date}] += r.Count
	}
	return e.persistLocked() == nil
}

// statisticsQuery is a GET /stats/{id} request after the controller's
// fallbacks.
type statisticsQuery struct {
	pageQuery      // sort_by "count" or "value"
	name, from, to string
}

// statisticsRules are the form request's rules (SelectStatsRequest).
func statisticsRules() []fieldSpec {
	return []fieldSpec{
		{name: "name", rules: []rule{ruleRequired("name"), ruleIn("name", StatisticNames)}},
		{name: "from", rules: []rule{ruleRequired("from"), ruleDateFormat("from")}},
		{name: "to", rules: []rule{ruleRequired("to"), ruleDateFormat("to")}},
	}
}

func ruleIn(field string, values []string) rule {
	return rule{check: func(v any) (string, bool) {
		s, _ := v.(string)
		for _, x := range values {
			if s == x {
				return "", true
			}
		}
		return "The selected " + attr(field) + " is invalid.", false
	}}
}

func ruleDateFormat(field string) rule {
	return rule{check: func(v any) (string, bool) {
		s, _ := v.(string)
		t, err := time.Parse(time.DateOnly, s)
		return "The " + attr(field) + " field must match the format Y-m-d.", err == nil && t.Format(time.DateOnly) == s
	}}
}

// parseStatisticsQuery reads the validated input; invalid optional values
// fall back silently, as the controller does.
func (e *Emulator) parseStatisticsQuery(in *input) (statisticsQuery, bool) {
	pq, ok := e.parsePageQuery(in, "count", "value")
	q := statisticsQuery{pageQuery: pq}
	q.name, _ = in.get("name").(string)
	q.from, _ = in.get("from").(string)
	q.to, _ = in.get("to").(string)
	return q, ok
}

// statisticsShow is GET /stats/{id}: the sum per value of the rows named
// name between from and to, as a bare paginator with string counts (a SUM
// comes back from MySQL as a string).
func (e *Emulator) statisticsShow(req *request) *Response {
	if e.opts.NoStatisticsEndpoint {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	if bag := validate(req.in, statisticsRules()); !bag.empty() {
		return validationError(bag)
	}
	q, ok := e.parseStatisticsQuery(req.in)
	if !ok {
		return serverError(req)
	}
	type row struct {
		value string
		count int
	}
	var rows []row
	e.mu.Lock()
	w, found := e.ownedLocked(req)
	if found {
		sums := map[string]int{}
		like := []rune("%" + strings.ToLower(q.search) + "%")
		for k, n := range e.statistics[w.ID] {
			if k.name != q.name || k.date < q.from || k.date > q.to {
				continue
			}
			if q.search != "" && !likeMatch([]rune(strings.ToLower(k.value)), like) {
				continue
			}
			sums[k.value] += n
		}
		for v, n := range sums {
			rows = append(rows, row{v, n})
		}
	}
	e.mu.Unlock()
	if !found {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if q.sortBy == "count" && a.count != b.count {
			return (a.count < b.count) != q.desc
		}
		if a.value != b.value {
			return (a.value < b.value) != (q.desc && q.sortBy == "value")
		}
		return false
	})

	data := []object{}
	from := (q.page - 1) * q.perPage
	if from < len(rows) {
		for _, r := range rows[from:min(from+q.perPage, len(rows))] {
			data = append(data, object{{"value", r.value}, {"count", strconv.Itoa(r.count)}})
		}
	}
	// The controller appends its parameters to the links (null ones, like an
	// absent search, are left out).
	order := "asc"
	if q.desc {
		order = "desc"
	}
	appends := []member{{"name", q.name}, {"from", q.from}, {"to", q.to}}
	if q.search != "" {
		appends = append(appends, member{"search", q.search})
	}
	appends = append(appends, member{"search_by", "value"}, member{"sort_by", q.sortBy}, member{"sort", order},
		member{"per_page", strconv.Itoa(q.perPage)})
	p := paginator{path: requestURL(req.r), query: appends, total: len(rows), perPage: q.perPage, current: q.page, count: len(data)}
	meta := p.meta()
	var fromItem, toItem any
	for _, m := range meta {
		switch m.key {
		case "from":
			fromItem = m.value
		case "to":
			toItem = m.value
		}
	}
	return jsonResponse(http.StatusOK, object{
		{"current_page", p.current},
		{"data", data},
		{"first_page_url", p.url(1)},
		{"from", fromItem},
		{"last_page", p.lastPage()},
		{"last_page_url", p.url(p.lastPage())},
		{"links", p.linkCollection()},
		{"next_page_url", p.nextURL()},
		{"path", p.path},
		{"per_page", p.perPage},
		{"prev_page_url", p.prevURL()},
		{"to", toItem},
		{"total", p.total},
		{"status", 200},
	})
}

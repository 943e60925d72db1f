package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/testclock"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// Keys of the test users.
const (
	keyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	keyB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// t0 is the fake clock's start; records show it without the fraction.
var t0 = time.Date(2024, 10, 13, 13, 9, 15, 987654321, time.UTC)

const t0s = "2024-10-13T13:09:15.000000Z"

// newClock is a standing clock at t0 for Options.Clock.
func newClock() *testclock.Clock { return testclock.New(t0) }

// newTestServer starts an emulator with users A and B and a fake clock.
func newTestServer(t *testing.T, opts Options) (*Server, *testclock.Clock) {
	t.Helper()
	clock := newClock()
	if opts.Clock == nil {
		opts.Clock = clock.Now
	}
	if opts.Users == nil {
		opts.Users = []User{{Key: keyA}, {Key: keyB}}
	}
	return NewServer(t, opts), clock
}

// call describes one request.
type call struct {
	method string
	path   string // below the base URL, e.g. "/api/v1/websites"
	root   bool   // path is below the host root, not the base URL (with Options.PathPrefix)
	key    string // Bearer key; "" sends no Authorization header
	form   url.Values
	body   string // raw body (with contentType), used when form is nil
	ctype  string
	accept string // "" means application/json; "-" sends none
	header map[string]string
}

// result is one response.
type result struct {
	status int
	header http.Header
	body   string
}

// do performs c against s with net/http only. It is safe to call from other
// goroutines: a transport failure is reported with t.Errorf and status -1.
func do(t *testing.T, s *Server, c call) result {
	t.Helper()
	var body io.Reader
	ctype := c.ctype
	switch {
	case c.form != nil:
		body = strings.NewReader(c.form.Encode())
		if ctype == "" {
			ctype = "application/x-www-form-urlencoded"
		}
	case c.body != "":
		body = strings.NewReader(c.body)
	}
	method := c.method
	if method == "" {
		method = http.MethodGet
	}
	base := s.URL
	if c.root {
		base = s.HTTP.URL
	}
	req, err := http.NewRequest(method, base+c.path, body)
	if err != nil {
		t.Errorf("new request: %v", err)
		return result{status: -1}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	switch c.accept {
	case "":
		req.Header.Set("Accept", "application/json")
	case "-":
	default:
		req.Header.Set("Accept", c.accept)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	resp, err := client.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, c.path, err)
		return result{status: -1}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Errorf("%s %s: reading body: %v", method, c.path, err)
		return result{status: -1}
	}
	return result{status: resp.StatusCode, header: resp.Header, body: string(raw)}
}

// expect fails t unless r has the status and exactly the body.
func expect(t *testing.T, r result, status int, body string) {
	t.Helper()
	if r.status != status || r.body != body {
		t.Fatalf("got %d %s\nwant %d %s", r.status, r.body, status, body)
	}
}

// create stores a website through the API and returns its id.
func create(t *testing.T, s *Server, key string, form url.Values) int64 {
	t.Helper()
	r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: key, form: form})
	if r.status != http.StatusCreated {
		t.Fatalf("store: %d %s", r.status, r.body)
	}
	var out struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.body), &out); err != nil {
		t.Fatalf("store: %v: %s", err, r.body)
	}
	return out.Data.ID
}

// decode unmarshals r's body into v.
func decode(t *testing.T, r result, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("decode %q: %v", r.body, err)
	}
}

func intp(i int) *int { return &i }

// laravelJSON is the body Laravel's exception handler answers to a request
// that expects JSON: pretty-printed, slashes unescaped, no "status" key.
func laravelJSON(message string) string {
	return "{\n    \"message\": " + strconv.Quote(message) + "\n}"
}

// withEveryColumn is the expected answer js, a record or {"data": record,
// ...}, with each column wire.Columns returns that js does not name, as
// null: the columns take the place of the first one js names (after the
// domain when it names none), in the table's order. A test names only the
// columns it is about; a column added to the table is expected NULL.
func withEveryColumn(js string) string {
	keys, vals := members(js)
	if keys == nil {
		return js
	}
	var b strings.Builder
	b.WriteByte('{')
	settings := map[string]json.RawMessage{}
	for i, k := range keys {
		if c, ok := wire.ByName(k); ok && c.Returned {
			settings[k] = vals[i]
		}
	}
	placed := false
	put := func(k string, v json.RawMessage) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		b.Write(v)
	}
	putColumns := func() {
		for _, c := range wire.Columns {
			if c.Returned {
				v, ok := settings[c.Name]
				if !ok {
					v = json.RawMessage("null")
				}
				put(c.Name, v)
			}
		}
		placed = true
	}
	for i, k := range keys {
		_, isColumn := settings[k]
		switch {
		case k == "data" && len(vals[i]) > 0 && vals[i][0] == '{':
			put(k, json.RawMessage(withEveryColumn(string(vals[i]))))
		case isColumn:
			if !placed {
				putColumns()
			}
		default:
			put(k, vals[i])
			if k == "domain" && len(settings) == 0 {
				putColumns()
			}
		}
	}
	b.WriteByte('}')
	return b.String()
}

// members are the members of the JSON object js, their values as written;
// nil if js is no object.
func members(js string) ([]string, []json.RawMessage) {
	dec := json.NewDecoder(strings.NewReader(js))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		k, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return nil, nil
		}
		key, _ := k.(string)
		keys, vals = append(keys, key), append(vals, v)
	}
	return keys, vals
}

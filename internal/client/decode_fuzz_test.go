package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fuzz targets of the client's reading of the API's answers: website
// records, statistics pages and error bodies, as the application (PHP,
// Laravel) may send them: loose types, strings for numbers, HTML pages.
// Their corpora are in testdata/fuzz/<target>/.

// withPassword is a record, between open and end, whose "password" holds
// pw (a string: the API sends a boolean), after a domain made of body, so
// that the password moves through the first bytes of the answer that an
// error may quote.
func withPassword(open string, body []byte, pw, end string) []byte {
	domain, _ := json.Marshal(string(body))
	secret, _ := json.Marshal(pw)
	return []byte(open + `{"id":12,"domain":` + string(domain) + `,"password":` + string(secret) + `}` + end)
}

// wireOf is w as the API would send it (the record's JSON), for round
// trips.
func wireOf(w *Website) []byte {
	m := map[string]any{"id": w.ID, "domain": w.Domain, "password": w.PasswordSet, "privacy": w.Privacy,
		"email": w.Email, "exclude_bots": w.ExcludeBots, "exclude_ips": nil}
	if w.ExcludeIPs != nil {
		m["exclude_ips"] = strings.Join(w.ExcludeIPs, "\n")
	}
	if w.Favorite != nil {
		m["favorite"] = *w.Favorite
	}
	for k, t := range map[string]time.Time{"created_at": w.CreatedAt, "updated_at": w.UpdatedAt} {
		if !t.IsZero() {
			m[k] = t.Format(time.RFC3339Nano)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzWebsiteRecord: GET /websites/{id} answered 200 with any body (the
// record under "data"), the API key (drawn by the fuzzer) planted in it in
// one of its forms (as sent, JSON- or URL-escaped, ...), and a record whose
// "password" is a string holding a password the fuzzer draws. No panic; no
// channel of an error (its text, every field of *APIError) holds a piece
// of the key or the password in any form; an accepted record
// round-trips: sent again as the API would write it, it reads as the same
// Website (its exclusion list, split into lines, joined again).
func FuzzWebsiteRecord(f *testing.F) {
	for _, s := range []string{
		`{"data":{"id":12,"domain":"example.com","privacy":0,"email":0,"password":false,"exclude_bots":1,"exclude_ips":"1.2.3.4\n5.6.7.8","favorite":false,"favorited_at":null,"created_at":"2024-10-13T13:09:15.000000Z","updated_at":"2024-10-13T13:09:15.000000Z"},"status":200}`,
		`{"data":{"id":"12","domain":"example.com","privacy":"2","email":"1","password":true,"exclude_bots":"0","exclude_ips":"1.2.3.4\r\n 5.6.7.8 ","created_at":"2024-10-13 13:09:15","updated_at":null},"status":200}`,
		`{"data":{"id":1,"domain":"a.example","privacy":null,"email":null,"password":1,"exclude_bots":null,"exclude_ips":null},"status":200}`,
		`{"data":{"id":1.0,"privacy":true,"email":"","password":"0","favorite":"1"}}`,
		`{"data":{"id":1e3,"privacy":1.5}}`,
		`{"data":{"id":99999999999999999999}}`,
		`{"data":{"id":1,"password":"` + seedPassword + `"}}`,
		`{"data":{"id":1,"privacy":"` + strings.Repeat("x", 30) + `"}}`,
		`{"data":null,"status":200}`,
		`<!DOCTYPE html><html><body>Whoops</body></html>`,
		``,
	} {
		f.Add([]byte(s), uint(0), seedPassword, seedKey, uint8(0))
	}
	// The key where the error's quote of a field's value is cut short.
	f.Add([]byte(`{"data":{"id":1,"privacy":["`+strings.Repeat("x", 30)+`"]}}`), uint(50), seedPassword, seedKey, uint8(0))
	f.Add([]byte(`{"data":{"id":1,"privacy":["`+strings.Repeat("x", 30)+`"]}}`), uint(50), seedOddKey, seedOddKey, uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, keyAt uint, pw, key string, form uint8) {
		// The record without its password: what an error may quote of it.
		secrets := meaningful([]string{string(body), string(withPassword(`{"data":`, body, "", `}`))}, key, pw)
		for _, b := range [][]byte{body, plant(body, keyAt, formOf(key, form)), withPassword(`{"data":`, body, pw, `}`)} {
			w, err := newFuzzClient(t, key, "", http.StatusOK, nil, b).GetWebsite(context.Background(), 12)
			checkChannels(t, err, fmt.Sprintf("%q", b), secrets...)
			if err != nil {
				continue
			}
			var again Website
			if err := json.Unmarshal(wireOf(w), &again); err != nil {
				t.Fatalf("%s: the record %+v, sent again, is refused: %v", b, w, err)
			}
			if !reflect.DeepEqual(*w, again) {
				t.Errorf("%s: the record does not round-trip:\n%+v\n%+v", b, *w, again)
			}
		}
	})
}

// FuzzWebsiteList: GET /websites answered 200 with any body (a page of
// records), the API key (drawn by the fuzzer) planted in it in one of its
// forms, and a page whose record's "password" is a string holding a
// password the fuzzer draws. No panic; no channel of an error holds a
// piece of the key or the password in any form; every record of an
// accepted page round-trips.
func FuzzWebsiteList(f *testing.F) {
	for _, s := range []string{
		`{"data":[{"id":1,"domain":"a.example","privacy":0},{"id":"2","domain":"b.example","email":"1"}],"links":{"next":null},"meta":{"current_page":1,"last_page":1,"per_page":100,"total":2},"status":200}`,
		`{"data":[],"links":{"first":"x","next":null},"meta":{"current_page":"1","total":"0"}}`,
		`{"data":[{"id":1}],"meta":{"total":1.5}}`,
		`{"data":[{"id":1,"password":"` + seedPassword + `"}],"meta":{}}`,
		`{"data":{"id":1},"meta":{}}`,
	} {
		f.Add([]byte(s), uint(0), seedPassword, seedKey, uint8(0))
	}
	f.Add([]byte(`{"data":[{"id":1}],"meta":{"total":"`), uint(30), seedOddKey, seedOddKey, uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, keyAt uint, pw, key string, form uint8) {
		secrets := meaningful([]string{string(body), string(withPassword(`{"data":[`, body, "", `],"meta":{}}`))}, key, pw)
		for _, b := range [][]byte{body, plant(body, keyAt, formOf(key, form)), withPassword(`{"data":[`, body, pw, `],"meta":{}}`)} {
			p, err := newFuzzClient(t, key, "", http.StatusOK, nil, b).ListWebsites(context.Background(), ListOptions{})
			checkChannels(t, err, fmt.Sprintf("%q", b), secrets...)
			if err != nil {
				continue
			}
			for _, w := range p.Websites {
				var again Website
				if err := json.Unmarshal(wireOf(&w), &again); err != nil || !reflect.DeepEqual(w, again) {
					t.Errorf("%s: the record %+v does not round-trip: %+v, %v", b, w, again, err)
				}
			}
		}
	})
}

// FuzzStatisticsPage: GET /stats/{id} answered 200 with any body (a bare
// Laravel paginator, counts as strings), and the API key (drawn by the
// fuzzer) planted in it in one of its forms. No panic; no channel of an
// error holds a piece of the key in any form; an accepted page round-trips: sent
// again as the API writes it, it reads as the same page.
func FuzzStatisticsPage(f *testing.F) {
	for _, s := range []string{
		`{"current_page":1,"data":[{"value":"2025-01-01","count":"120"},{"value":"2025-01-02","count":"80"}],"first_page_url":"x","from":1,"last_page":1,"per_page":10,"to":2,"total":2,"status":200}`,
		`{"current_page":"2","data":[{"value":12,"count":3},{"value":null,"count":"1e2"}],"last_page":"3","total":"30"}`,
		`{"data":[],"total":0}`,
		`{"data":[{"value":"x","count":"lots"}],"total":1}`,
		`{"data":[{"value":"x","count":"` + strings.Repeat("9", 30) + `"}],"total":1}`,
		`{"data":null,"total":1}`,
		`{"message":"Resource not found.","status":404}`,
	} {
		f.Add([]byte(s), uint(0), uint(0), seedKey, uint8(0))
	}
	f.Add([]byte(`{"data":[{"value":"x","count":"`), uint(31), uint(0), seedOddKey, uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, keyAt, _ uint, key string, form uint8) {
		secrets := meaningful([]string{string(body)}, key)
		planted := plant(body, keyAt, formOf(key, form))
		q := StatisticsQuery{Name: StatisticPageviews, From: statsFrom, To: statsTo}
		for _, b := range [][]byte{body, planted} {
			p, err := newFuzzClient(t, key, "", http.StatusOK, nil, b).GetStatistics(context.Background(), 12, q)
			checkChannels(t, err, fmt.Sprintf("%q", b), secrets...)
			if err != nil {
				continue
			}
			rows := make([]map[string]string, len(p.Rows))
			for i, r := range p.Rows {
				rows[i] = map[string]string{"value": r.Value, "count": strconv.FormatInt(r.Count, 10)}
			}
			wire, err := json.Marshal(map[string]any{"current_page": p.CurrentPage, "last_page": p.LastPage,
				"total": p.Total, "data": rows})
			if err != nil {
				t.Fatal(err)
			}
			again, err := decodeStatisticsPage(wire)
			if err != nil || !reflect.DeepEqual(p, again) {
				t.Errorf("%s: the page %+v does not round-trip: %+v, %v", b, p, again, err)
			}
		}
	})
}

// FuzzErrorBody: any status from 300 up, with any body and Location,
// Retry-After and X-RateLimit-Reset headers, from a client whose API key
// and extra header's value the fuzzer draws, each planted in the body and
// in the Location in one of its forms (as sent, JSON-escaped as Go or PHP
// write it, URL-escaped, HTML-escaped, ...). No panic; the error is an
// *APIError of exactly one kind that errors.Is finds (or, for a redirect to
// a Location that does not parse, Go's own error), a validation error's
// message starts with its first field's (fields sorted), and no channel of
// the error (its text, every field of *APIError: Message, Fields' names and
// messages, Snippet, Location, BaseURL, Err) holds a piece of the key or
// the header value in any form.
func FuzzErrorBody(f *testing.F) {
	for _, c := range []struct {
		status int
		body   string
		loc    string
	}{
		{422, `{"message":{"domain":["The domain has already been taken."],"privacy":["The selected privacy is invalid."]},"status":422}`, ""},
		{422, `{"message":"The given data was invalid.","errors":{"domain":["x"]}}`, ""},
		{422, `<html>oops</html>`, ""},
		{404, `{"message":"Resource not found.","status":404}`, ""},
		{404, `<html><title>404 Not Found</title></html>`, ""},
		{401, `{"message":"Unauthenticated."}`, ""},
		{302, ``, "https://analytics.example.com/login"},
		{301, ``, "https://other.example.com/api/v1/websites/12"},
		{429, `{"message":"Too Many Attempts."}`, ""},
		{503, `{"message":"Service Unavailable"}`, ""},
		{500, `{"message":{"a":1}}`, ""},
		{500, strings.Repeat("<p>", 40) + "Authorization: Bearer ", ""},
	} {
		f.Add(c.status, []byte(c.body), c.loc, "2", uint(0), uint(0), seedKey, seedHeader, uint8(0))
	}
	// The key where the error's quote of the body is cut short.
	f.Add(404, []byte(strings.Repeat("<p>", 40)), "", "", uint(100), uint(0), seedKey, seedHeader, uint8(0))
	f.Add(422, []byte(`{"message":{"a":"`+strings.Repeat("m", 200)+`"}}`), "", "", uint(190), uint(0), seedKey, seedHeader, uint8(0))
	// Keys and header values that escape differently, planted escaped.
	f.Add(422, []byte(`{"message":{"domain":["Bearer "]}}`), "", "", uint(27), uint(0), seedOddKey, seedHeader, uint8(3))
	f.Add(200, []byte(`<p>`), "", "", uint(3), uint(0), seedOddKey, seedHeader, uint8(1))
	f.Add(302, []byte(``), "https://analytics.example.com/login?next=", "", uint(0), uint(41), seedOddKey, seedHeader, uint8(8))
	kinds := []error{ErrNotFound, ErrNotAPI, ErrUnauthenticated, ErrForbidden, ErrValidation, ErrRateLimited, ErrServer,
		ErrUndecodable}
	f.Fuzz(func(t *testing.T, status int, body []byte, location, retryAfter string, keyAt, locAt uint, key, header string,
		form uint8) {
		if status < 300 || status > 999 {
			t.Skip("not an error status")
		}
		secrets := meaningful([]string{string(body), location, retryAfter}, key, header)
		type answer struct {
			body []byte
			loc  string
		}
		answers := []answer{{body, location}}
		for _, s := range []string{key, header} {
			answers = append(answers, answer{plant(body, keyAt, formOf(s, form)), string(plant([]byte(location), locAt, formOf(s, form)))})
		}
		for _, a := range answers {
			b := a.body
			h := http.Header{"Retry-After": {retryAfter}, "X-Ratelimit-Reset": {retryAfter}, "Location": {a.loc}}
			_, err := newFuzzClient(t, key, header, status, h, b).GetWebsite(context.Background(), 12)
			checkChannels(t, err, fmt.Sprintf("HTTP %d %q, Location %q", status, b, a.loc), secrets...)
			e, ok := AsAPIError(err)
			if !ok && status < 400 && strings.Contains(err.Error(), "failed to parse Location header") {
				continue // Go's client refuses the redirect before the answer is read: an error, though not an *APIError
			}
			if !ok {
				t.Fatalf("HTTP %d %q: not an *APIError: %v", status, b, err)
			}
			n := 0
			for _, k := range kinds {
				if errors.Is(err, k) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("HTTP %d %q: the error matches %d kinds: %v", status, b, n, err)
			}
			if names := e.FieldNames(); errors.Is(err, ErrValidation) && len(e.Fields) > 0 && !strings.HasPrefix(e.Message, strings.Join(e.Fields[names[0]], " ")) {
				t.Errorf("HTTP %d %q: the message does not start with the first field's: %q", status, b, e.Message)
			}
		}
	})
}

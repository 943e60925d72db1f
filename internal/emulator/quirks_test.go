package emulator

import (
	"bytes"
	"mime/multipart"
	"net/url"
	"strings"
	"testing"
)

func TestRequestQuirks(t *testing.T) {
	t.Parallel()
	multipartBody := func(fields map[string]string) (string, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for k, v := range fields {
			_ = mw.WriteField(k, v)
		}
		_ = mw.Close()
		return b.String(), mw.FormDataContentType()
	}
	mpStore, mpStoreType := multipartBody(map[string]string{"domain": "multi.example", "privacy": "1"})
	mpUpdate, mpUpdateType := multipartBody(map[string]string{"privacy": "1"})

	tests := []struct {
		name   string
		opts   Options
		c      call
		status int
		want   string // substring of the body
		check  func(t *testing.T, s *Server)
	}{
		{name: "_method field spoofs PATCH", c: call{method: "POST", path: "/api/v1/websites/1", key: keyA, form: url.Values{"_method": {"PATCH"}, "email": {"1"}}},
			status: 200, want: `"email":"1"`,
			check: func(t *testing.T, s *Server) {
				if s.Stats().ByRoute["PATCH /api/v1/websites/{id}"] != 1 {
					t.Errorf("stats %+v", s.Stats())
				}
			}},
		{name: "override header spoofs DELETE", c: call{method: "POST", path: "/api/v1/websites/1", key: keyA, header: map[string]string{"X-HTTP-Method-Override": "delete"}},
			status: 200, want: `{"id":1,"object":"website","deleted":true,"status":200}`},
		{name: "_method in a JSON body", c: call{method: "POST", path: "/api/v1/websites/1", key: keyA, ctype: "application/json", body: `{"_method":"PUT","exclude_bots":0}`},
			status: 200, want: `"exclude_bots":0,`},
		{name: "multipart store", c: call{method: "POST", path: "/api/v1/websites", key: keyA, ctype: mpStoreType, body: mpStore},
			status: 201, want: `"domain":"multi.example","privacy":"1"`},
		{name: "multipart PUT loses its fields", c: call{method: "PUT", path: "/api/v1/websites/1", key: keyA, ctype: mpUpdateType, body: mpUpdate},
			status: 200, want: `"privacy":null`},
		{name: "store fields from the query string", c: call{method: "POST", path: "/api/v1/websites?domain=query.example", key: keyA},
			status: 201, want: `"domain":"query.example"`},
		{name: "body wins over query", c: call{method: "POST", path: "/api/v1/websites?domain=query.example", key: keyA, form: url.Values{"domain": {"body.example"}}},
			status: 201, want: `"domain":"body.example"`},
		{name: "invalid UTF-8 is a database error", c: call{method: "POST", path: "/api/v1/websites", key: keyA, ctype: "application/x-www-form-urlencoded", body: "domain=u.example&exclude_ips=%FF"},
			status: 500, want: serverErr,
			check: func(t *testing.T, s *Server) {
				if len(s.Websites()) != 1 {
					t.Errorf("stored anyway")
				}
			}},
		{name: "blank privacy skips the rules and fails in the database", opts: Options{NoTrimStrings: true}, c: call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"b.example"}, "privacy": {"  "}}},
			status: 500, want: serverErr},
		{name: "body over post_max_size", c: call{method: "POST", path: "/api/v1/websites", key: keyA, ctype: "application/x-www-form-urlencoded", body: "domain=x.com&exclude_ips=" + strings.Repeat("1", maxBody)},
			status: 413, want: laravelJSON("")},
		{name: "untrimmed with NoTrimStrings", opts: Options{NoTrimStrings: true},
			c:      call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"t.example"}, "exclude_ips": {"1.2.3.4\n"}}},
			status: 201, want: `"exclude_ips":"1.2.3.4\n"`},
		{name: "TrimStrings by default, inner spaces kept",
			c:      call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {" t.example "}, "exclude_ips": {" 1.2.3.4 \n5.6.7.8\n"}, "email": {" "}, "password": {" pw "}}},
			status: 201, want: `"domain":"t.example","privacy":null,"email":null,"password":true,"exclude_bots":1,"exclude_ips":"1.2.3.4 \n5.6.7.8"`,
			check: func(t *testing.T, s *Server) {
				if w, _ := s.Website(2); w.Password != " pw " {
					t.Errorf("password trimmed: %q", w.Password)
				}
			}},
		{name: "empty exclude_params stored as NULL",
			c:      call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"p.example"}, "exclude_params": {""}}},
			status: 201, want: `"domain":"p.example"`,
			check: func(t *testing.T, s *Server) {
				if w, _ := s.Website(2); w.ExcludeParams != "" {
					t.Errorf("exclude_params = %q", w.ExcludeParams)
				}
			}},
		{name: "password 0 is stored but reads back as none",
			c:      call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"z.example"}, "privacy": {"2"}, "password": {"0"}}},
			status: 201, want: `"password":false`,
			check: func(t *testing.T, s *Server) {
				if w, _ := s.Website(2); w.Password != "0" {
					t.Errorf("password = %q", w.Password)
				}
			}},
		{name: "blank password is missing",
			c:      call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"b.example"}, "privacy": {"2"}, "password": {"   "}}},
			status: 422, want: `"password":["The password field is required."]`},
		{name: "update with privacy 2 and no password keeps the stored one",
			c:      call{method: "PUT", path: "/api/v1/websites/1", key: keyA, form: url.Values{"privacy": {"2"}}},
			status: 200, want: `"privacy":"2","email":null,"password":false`},
		{name: "unknown path under /api/v1 is the fallback route",
			c:      call{method: "GET", path: "/api/v1/nothing/here", key: keyA},
			status: 404, want: `{"message":"Resource not found.","status":404}`},
		{name: "path outside /api/v1",
			c:      call{method: "GET", path: "/analytics/api/v1/websites/1", key: keyA},
			status: 404, want: laravelJSON("The route analytics/api/v1/websites/1 could not be found.")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, tc.opts)
			create(t, s, keyA, url.Values{"domain": {"a.example"}})
			s.ResetStats()
			r := do(t, s, tc.c)
			if r.status != tc.status || !strings.Contains(r.body, tc.want) {
				t.Fatalf("got %d %s\nwant %d with %s", r.status, r.body, tc.status, tc.want)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

package emulator

import (
	"net/url"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// websiteBody is a {"data":record,"status":200} answer for a website made
// at t0 and not changed since; fields are privacy to exclude_ips.
func websiteBody(id, domain, fields string) string {
	return withEveryColumn(`{"data":{"id":` + id + `,"domain":"` + domain + `",` + fields +
		`,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"},"status":200}`)
}

// stored is what a test expects in the database after a request.
type stored struct {
	excludeIPs, excludeParams, password string
}

func checkStored(t *testing.T, s *Server, id int64, want stored) {
	t.Helper()
	w, ok := s.Website(id)
	if !ok {
		t.Fatalf("website %d missing", id)
	}
	if got := (stored{w.ExcludeIPs, w.ExcludeParams, w.Password}); got != want {
		t.Errorf("stored %+v, want %+v", got, want)
	}
}

// TrimStrings (except password) and ConvertEmptyStringsToNull run on every
// input of every installation, before validation.
func TestInputMiddlewareStore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		opts   Options
		c      call
		status int
		body   string
		stored stored
	}{
		{name: "exclude_ips trimmed at both ends",
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_ips": {" 1.2.3.4\n5.6.7.8 "}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":"1.2.3.4\n5.6.7.8"`),
			stored: stored{excludeIPs: "1.2.3.4\n5.6.7.8"}},
		{name: "inner spaces stay",
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_ips": {"1.2.3.4 \n5.6.7.8"}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":"1.2.3.4 \n5.6.7.8"`),
			stored: stored{excludeIPs: "1.2.3.4 \n5.6.7.8"}},
		{name: "empty exclude_params is NULL",
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_params": {""}, "exclude_ips": {""}, "email": {""}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":null`)},
		{name: "blank values are NULL after trimming",
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_params": {" \r\n "}, "exclude_ips": {"\t"}, "privacy": {"  "}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":null`)},
		{name: "numbers trimmed, then echoed",
			c:      call{form: url.Values{"domain": {" A.example\t"}, "privacy": {" 1 "}, "email": {"0 "}, "exclude_bots": {"\n0"}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":"1","email":"0","password":false,"exclude_bots":"0","exclude_ips":null`)},
		{name: "password not trimmed",
			c:      call{form: url.Values{"domain": {"a.example"}, "privacy": {"2"}, "password": {" pw "}, "exclude_params": {" utm_source\nref\n"}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":"2","email":null,"password":true,"exclude_bots":1,"exclude_ips":null`),
			stored: stored{excludeParams: "utm_source\nref", password: " pw "}},
		{name: "Unicode spaces, NEL, BOM and zero-width space trimmed, U+200C kept",
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_params": {"\u00a0\u2003ref\u200b\ufeff"}, "exclude_ips": {"1.2.3.4\u0085\u200c"}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":"1.2.3.4\u0085\u200c"`),
			stored: stored{excludeParams: "ref", excludeIPs: "1.2.3.4\u0085\u200c"}},
		{name: "NEL and U+180E trimmed (PCRE's \\v and \\h)",
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_ips": {"\u180e1.2.3.4\u0085"}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":"1.2.3.4"`),
			stored: stored{excludeIPs: "1.2.3.4"}},
		{name: "query string trimmed too",
			c:      call{path: "/api/v1/websites?domain=+q.example+&exclude_ips=%201.1.1.1%0A"},
			status: 201, body: websiteBody("1", "q.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":"1.1.1.1"`),
			stored: stored{excludeIPs: "1.1.1.1"}},
		{name: "JSON body trimmed too",
			c:      call{ctype: "application/json", body: `{"domain":" j.example ","exclude_ips":" 1.1.1.1 ","exclude_params":""}`},
			status: 201, body: websiteBody("1", "j.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":"1.1.1.1"`),
			stored: stored{excludeIPs: "1.1.1.1"}},
		{name: "NoTrimStrings keeps the ends",
			opts:   Options{NoTrimStrings: true},
			c:      call{form: url.Values{"domain": {"a.example"}, "exclude_ips": {" 1.2.3.4\n5.6.7.8 "}, "exclude_params": {""}}},
			status: 201, body: websiteBody("1", "a.example", `"privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":" 1.2.3.4\n5.6.7.8 "`),
			stored: stored{excludeIPs: " 1.2.3.4\n5.6.7.8 "}},
		{name: "blank domain is missing",
			c:      call{form: url.Values{"domain": {"  "}}},
			status: 422, body: `{"message":{"domain":["The domain field is required."]},"status":422}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, tc.opts)
			tc.c.method, tc.c.key = "POST", keyA
			if tc.c.path == "" {
				tc.c.path = "/api/v1/websites"
			}
			expect(t, do(t, s, tc.c), tc.status, tc.body)
			if tc.status == 201 {
				checkStored(t, s, 1, tc.stored)
			}
		})
	}
}

func TestInputMiddlewareUpdate(t *testing.T) {
	t.Parallel()
	const fields = `"privacy":2,"email":null,"password":true,"exclude_bots":1,`
	tests := []struct {
		name   string
		form   url.Values
		status int
		body   string
		stored stored
	}{
		{name: "exclude_ips trimmed", form: url.Values{"exclude_ips": {" 1.2.3.4\n5.6.7.8 "}},
			status: 200, body: websiteBody("1", "u.example", fields+`"exclude_ips":"1.2.3.4\n5.6.7.8"`),
			stored: stored{"1.2.3.4\n5.6.7.8", "ref", "pw"}},
		{name: "inner spaces stay", form: url.Values{"exclude_ips": {"1.2.3.4 \n5.6.7.8"}},
			status: 200, body: websiteBody("1", "u.example", fields+`"exclude_ips":"1.2.3.4 \n5.6.7.8"`),
			stored: stored{"1.2.3.4 \n5.6.7.8", "ref", "pw"}},
		{name: "empty exclude_params clears it", form: url.Values{"exclude_params": {""}},
			status: 200, body: websiteBody("1", "u.example", fields+`"exclude_ips":"9.9.9.9"`),
			stored: stored{"9.9.9.9", "", "pw"}},
		{name: "blank exclude_params and exclude_ips clear them", form: url.Values{"exclude_params": {"  "}, "exclude_ips": {"\r\n"}},
			status: 200, body: websiteBody("1", "u.example", fields+`"exclude_ips":null`),
			stored: stored{"", "", "pw"}},
		{name: "password not trimmed", form: url.Values{"password": {" new "}},
			status: 200, body: websiteBody("1", "u.example", fields+`"exclude_ips":"9.9.9.9"`),
			stored: stored{"9.9.9.9", "ref", " new "}},
		{name: "blank password is stored", form: url.Values{"password": {"   "}},
			status: 200, body: websiteBody("1", "u.example", fields+`"exclude_ips":"9.9.9.9"`),
			stored: stored{"9.9.9.9", "ref", "   "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			s.Seed(keyA, Website{Domain: "u.example", Settings: wire.Settings{Privacy: intp(2), Password: "pw", ExcludeBots: intp(1), ExcludeIPs: "9.9.9.9", ExcludeParams: "ref"}})
			expect(t, do(t, s, call{method: "PATCH", path: "/api/v1/websites/1", key: keyA, form: tc.form}), tc.status, tc.body)
			checkStored(t, s, 1, tc.stored)
		})
	}
}

// The record's password is PHP's truthiness of the stored value: "" (NULL)
// and "0" read back false. "required" treats a blank password as missing.
func TestPasswordTruthiness(t *testing.T) {
	t.Parallel()
	required := `{"message":{"password":["The password field is required."]},"status":422}`
	tests := []struct {
		name   string
		seed   *Website // the website 1 before the request, if any
		c      call
		status int
		body   string
		stored string // the stored password afterwards
	}{
		{name: "store 0", c: call{method: "POST", form: url.Values{"domain": {"p.example"}, "privacy": {"2"}, "password": {"0"}}},
			status: 201, body: websiteBody("1", "p.example", `"privacy":"2","email":null,"password":false,"exclude_bots":1,"exclude_ips":null`), stored: "0"},
		{name: "store 00", c: call{method: "POST", form: url.Values{"domain": {"p.example"}, "privacy": {"2"}, "password": {"00"}}},
			status: 201, body: websiteBody("1", "p.example", `"privacy":"2","email":null,"password":true,"exclude_bots":1,"exclude_ips":null`), stored: "00"},
		{name: "store blank with privacy 2", c: call{method: "POST", form: url.Values{"domain": {"p.example"}, "privacy": {"2"}, "password": {" \t "}}},
			status: 422, body: required},
		{name: "store empty with privacy 2", c: call{method: "POST", form: url.Values{"domain": {"p.example"}, "privacy": {"2"}, "password": {""}}},
			status: 422, body: required},
		{name: "store without password, privacy 2", c: call{method: "POST", form: url.Values{"domain": {"p.example"}, "privacy": {" 2 "}}},
			status: 422, body: required},
		{name: "store blank with privacy 0 is kept and truthy", c: call{method: "POST", form: url.Values{"domain": {"p.example"}, "privacy": {"0"}, "password": {" "}}},
			status: 201, body: websiteBody("1", "p.example", `"privacy":"0","email":null,"password":true,"exclude_bots":1,"exclude_ips":null`), stored: " "},
		{name: "show stored 0", seed: &Website{Domain: "s.example", Settings: wire.Settings{Password: "0"}}, c: call{path: "/api/v1/websites/1"},
			status: 200, body: websiteBody("1", "s.example", `"privacy":null,"email":null,"password":false,"exclude_bots":null,"exclude_ips":null`), stored: "0"},
		{name: "show stored 0.0", seed: &Website{Domain: "s.example", Settings: wire.Settings{Password: "0.0"}}, c: call{path: "/api/v1/websites/1"},
			status: 200, body: websiteBody("1", "s.example", `"privacy":null,"email":null,"password":true,"exclude_bots":null,"exclude_ips":null`), stored: "0.0"},
		{name: "update to privacy 2 without password keeps it", seed: &Website{Domain: "s.example", Settings: wire.Settings{Privacy: intp(0), Password: "pw"}},
			c:      call{method: "PUT", form: url.Values{"privacy": {"2"}}},
			status: 200, body: websiteBody("1", "s.example", `"privacy":"2","email":null,"password":true,"exclude_bots":null,"exclude_ips":null`), stored: "pw"},
		{name: "update to privacy 2 without password, none stored", seed: &Website{Domain: "s.example", Settings: wire.Settings{Privacy: intp(0)}},
			c:      call{method: "PATCH", form: url.Values{"privacy": {"2"}}},
			status: 200, body: websiteBody("1", "s.example", `"privacy":"2","email":null,"password":false,"exclude_bots":null,"exclude_ips":null`), stored: ""},
		// Not trimmed, and the update's rules for privacy 2 are a 1..128
		// character string without "required": three spaces pass min:1.
		{name: "update blank with privacy 2", seed: &Website{Domain: "s.example", Settings: wire.Settings{Privacy: intp(0), Password: "pw"}},
			c:      call{method: "PATCH", form: url.Values{"privacy": {"2"}, "password": {"   "}}},
			status: 200, body: websiteBody("1", "s.example", `"privacy":"2","email":null,"password":true,"exclude_bots":null,"exclude_ips":null`), stored: "   "},
		{name: "update password 0", seed: &Website{Domain: "s.example", Settings: wire.Settings{Privacy: intp(2), Password: "pw"}},
			c:      call{method: "PATCH", form: url.Values{"password": {"0"}}},
			status: 200, body: websiteBody("1", "s.example", `"privacy":2,"email":null,"password":false,"exclude_bots":null,"exclude_ips":null`), stored: "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			if tc.seed != nil {
				s.Seed(keyA, *tc.seed)
			}
			tc.c.key = keyA
			if tc.c.path == "" && tc.c.method == "POST" {
				tc.c.path = "/api/v1/websites"
			} else if tc.c.path == "" {
				tc.c.path = "/api/v1/websites/1"
			}
			expect(t, do(t, s, tc.c), tc.status, tc.body)
			w, ok := s.Website(1)
			if tc.status == 422 {
				if ok {
					t.Errorf("stored anyway: %+v", w)
				}
				return
			}
			if !ok || w.Password != tc.stored {
				t.Errorf("stored password %q (%v), want %q", w.Password, ok, tc.stored)
			}
		})
	}
}

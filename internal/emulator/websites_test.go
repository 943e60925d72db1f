package emulator

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

func TestStoreAndShowShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      Options
		form      url.Values
		wantStore string // data of the store response
		wantShow  string // data of the show response
	}{
		{
			name: "all fields sent: strings echoed, ints shown",
			form: url.Values{"domain": {"Example.com"}, "privacy": {"2"}, "password": {"s3cret"}, "email": {"1"},
				"exclude_bots": {"0"}, "exclude_params": {"utm_source\nfbclid"}, "exclude_ips": {"1.2.3.4\n5.6.7.8"}},
			wantStore: `{"id":1,"domain":"example.com","privacy":"2","email":"1","password":true,"exclude_bots":"0","exclude_ips":"1.2.3.4\n5.6.7.8","favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
			wantShow:  `{"id":1,"domain":"example.com","privacy":2,"email":1,"password":true,"exclude_bots":0,"exclude_ips":"1.2.3.4\n5.6.7.8","favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
		},
		{
			name:      "only domain: privacy and email NULL, exclude_bots 1",
			form:      url.Values{"domain": {"example.com"}},
			wantStore: `{"id":1,"domain":"example.com","privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
			wantShow:  `{"id":1,"domain":"example.com","privacy":null,"email":null,"password":false,"exclude_bots":1,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
		},
		{
			name:      "empty strings become null",
			form:      url.Values{"domain": {"example.com"}, "privacy": {""}, "email": {""}, "exclude_bots": {""}, "password": {""}, "exclude_ips": {""}},
			wantStore: `{"id":1,"domain":"example.com","privacy":null,"email":null,"password":false,"exclude_bots":null,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
			wantShow:  `{"id":1,"domain":"example.com","privacy":null,"email":null,"password":false,"exclude_bots":null,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
		},
		{
			name:      "password kept with public privacy, CRLF kept",
			form:      url.Values{"domain": {"example.com"}, "privacy": {"0"}, "password": {"pw"}, "exclude_ips": {"10.0.0.0/8\r\n::1"}},
			wantStore: `{"id":1,"domain":"example.com","privacy":"0","email":null,"password":true,"exclude_bots":1,"exclude_ips":"10.0.0.0\/8\r\n::1","favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
			wantShow:  `{"id":1,"domain":"example.com","privacy":0,"email":null,"password":true,"exclude_bots":1,"exclude_ips":"10.0.0.0\/8\r\n::1","favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
		},
		{
			name:      "older build without favorite",
			opts:      Options{OmitFavorite: true},
			form:      url.Values{"domain": {"example.com"}, "email": {"0"}},
			wantStore: `{"id":1,"domain":"example.com","privacy":null,"email":"0","password":false,"exclude_bots":1,"exclude_ips":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
			wantShow:  `{"id":1,"domain":"example.com","privacy":null,"email":0,"password":false,"exclude_bots":1,"exclude_ips":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, tc.opts)
			r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: tc.form})
			expect(t, r, 201, withEveryColumn(`{"data":`+tc.wantStore+`,"status":200}`))
			r = do(t, s, call{path: "/api/v1/websites/1", key: keyA})
			expect(t, r, 200, withEveryColumn(`{"data":`+tc.wantShow+`,"status":200}`))
			if strings.Contains(r.body, "exclude_params") || strings.Contains(r.body, "s3cret") {
				t.Errorf("secret fields returned: %s", r.body)
			}
		})
	}
}

func TestStoreKeepsHiddenFields(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	id := create(t, s, keyA, url.Values{"domain": {"example.com"}, "password": {"pw"}, "exclude_params": {"a\r\nb"}})
	w, ok := s.Website(id)
	if !ok || w.Password != "pw" || w.ExcludeParams != "a\r\nb" || w.Owner != keyA || w.Privacy != nil || *w.ExcludeBots != 1 {
		t.Fatalf("stored %+v", w)
	}
}

func TestStoreDomainCanonicalisation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string // want "" means "Invalid domain name."
	}{
		{"https://www.Example.com", "example.com"},
		{"HTTP://EXAMPLE.COM", "example.com"},
		{"www.a.www.b.com", "a.b.com"},
		{"a.www.b.com", "a.www.b.com"},
		{"http://https://x.org", "x.org"},
		{"sub.example.co.uk", "sub.example.co.uk"},
		{"192.168.1.20", "192.168.1.20"},
		{"xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"https://example.com/path", ""},
		{"example.com/", ""},
		{"example.com:8080", ""},
		{"localhost", ""},
		{"example.123", ""},
		{"256.1.1.1", ""},
		{strings.Repeat("a", 64) + ".com", ""},
		// ValidateDomainNameRule checks little but the last label: the
		// others are 1 to 63 bytes of anything ("." included), so these
		// are stored as sent (the recordings hold bücher-….example,
		// user@….example.com and ….example.com. answered 201).
		{"Bücher.Example", "bücher.example"},
		{"shop.example.com.", "shop.example.com."},
		{"user@d10.example.com", "user@d10.example.com"},
		{"-bad.com", "-bad.com"},
		{"bad-.com", "bad-.com"},
		{"a..com", "a..com"},
		{"..com", "..com"},
		{"exam ple.com", "exam ple.com"},
		{"exa_mple.com", "exa_mple.com"},
		{"example.123.", "example.123."}, // all digits, but a dot follows
		{"01.2.3.4", "01.2.3.4"},         // the IPv4 branch takes 0 to 199 as [01]?[0-9][0-9]?
		{"1.2.3.4.", "1.2.3.4."},
		{"a.com\nhttp://", "a.com\n"}, // PCRE's $ matches before a final line feed
		{strings.Repeat("a", 63) + ".com", strings.Repeat("a", 63) + ".com"},
		{".com", ""},
		{"example.com..", ""},
		{"://a.com", ""},
		{"a.com\n\nhttp://", ""},
		{"exam\nple.com", ""},
		{strings.Repeat("ü", 32) + ".com", ""}, // 32 characters, 64 bytes: the pattern counts bytes
		{strings.Repeat("a.", 126) + "com", strings.Repeat("a.", 126) + "com"}, // 255 bytes
		{strings.Repeat("ü.", 84) + "com", strings.Repeat("ü.", 84) + "com"},   // 171 characters, 255 bytes
		{strings.Repeat("ü.", 85) + "com", ""},                                 // 173 characters, 258 bytes
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {tc.in}}})
			if tc.want == "" {
				expect(t, r, 422, `{"message":{"domain":["Invalid domain name."]},"status":422}`)
				return
			}
			var got struct{ Data struct{ Domain string } }
			if decode(t, r, &got); r.status != 201 || got.Data.Domain != tc.want {
				t.Fatalf("got %d %s, want domain %q", r.status, r.body, tc.want)
			}
		})
	}
}

func TestStoreValidation(t *testing.T) {
	t.Parallel()
	msg := func(m string) string { return `{"message":` + m + `,"status":422}` }
	tests := []struct {
		name string
		opts Options
		form url.Values
		want string
	}{
		{"domain missing", Options{}, url.Values{},
			msg(`{"domain":["The domain field is required."]}`)},
		{"domain empty", Options{}, url.Values{"domain": {""}},
			msg(`{"domain":["The domain field is required."]}`)},
		{"domain only a scheme", Options{}, url.Values{"domain": {"https://"}},
			msg(`{"domain":["The domain field is required."]}`)},
		{"domain too long and invalid", Options{}, url.Values{"domain": {strings.Repeat("a", 256)}},
			msg(`{"domain":["The domain field must not be greater than 255 characters.","Invalid domain name."]}`)},
		{"domain taken", Options{}, url.Values{"domain": {"https://www.taken.com"}},
			msg(`{"domain":["The domain has already been taken."]}`)},
		{"domain taken by another user", Options{}, url.Values{"domain": {"other.com"}},
			msg(`{"domain":["The domain has already been taken."]}`)},
		{"banned word", Options{BannedWords: []string{"Casino"}}, url.Values{"domain": {"best-casino.com"}},
			msg(`{"domain":["The domain contains a banned word."]}`)},
		{"website limit", Options{DefaultWebsiteLimit: 1}, url.Values{"domain": {"second.com"}},
			msg(`{"domain":["You created too many websites."]}`)},
		{"privacy out of range", Options{}, url.Values{"domain": {"x.com"}, "privacy": {"3"}},
			msg(`{"privacy":["The privacy field must be between 0 and 2."]}`)},
		{"privacy not an integer", Options{}, url.Values{"domain": {"x.com"}, "privacy": {"abc"}},
			msg(`{"privacy":["The privacy field must be an integer.","The privacy field must be between 0 and 2."]}`)},
		{"privacy short non-integer", Options{}, url.Values{"domain": {"x.com"}, "privacy": {"1.5"}},
			msg(`{"privacy":["The privacy field must be an integer."]}`)},
		{"password required with privacy 2", Options{}, url.Values{"domain": {"x.com"}, "privacy": {"2"}},
			msg(`{"password":["The password field is required."]}`)},
		{"password empty with privacy 2", Options{}, url.Values{"domain": {"x.com"}, "privacy": {"2"}, "password": {""}},
			msg(`{"password":["The password field is required."]}`)},
		{"password too long", Options{}, url.Values{"domain": {"x.com"}, "password": {strings.Repeat("p", 129)}},
			msg(`{"password":["The password field must not be greater than 128 characters."]}`)},
		{"exclude_bots out of range", Options{}, url.Values{"domain": {"x.com"}, "exclude_bots": {"2"}},
			msg(`{"exclude_bots":["The exclude bots field must be between 0 and 1."]}`)},
		{"email not an integer", Options{}, url.Values{"domain": {"x.com"}, "email": {"yes"}},
			msg(`{"email":["The email field must be an integer."]}`)},
		{"every failing field", Options{}, url.Values{"domain": {"bad"}, "privacy": {"9"}, "email": {"x"}, "exclude_bots": {"-1"}},
			msg(`{"domain":["Invalid domain name."],"privacy":["The privacy field must be between 0 and 2."],"email":["The email field must be an integer."],"exclude_bots":["The exclude bots field must be between 0 and 1."]}`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, tc.opts)
			create(t, s, keyA, url.Values{"domain": {"taken.com"}})
			create(t, s, keyB, url.Values{"domain": {"other.com"}})
			r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: tc.form})
			expect(t, r, 422, tc.want)
			if n := len(s.Websites()); n != 2 {
				t.Errorf("%d websites after a refused store", n)
			}
		})
	}
}

func TestStoreAcceptedEdgeValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		form url.Values
		want string // substring of the store response
	}{
		{"email without range check", url.Values{"domain": {"x.com"}, "email": {"42"}}, `"email":"42"`},
		{"email at the TINYINT's top", url.Values{"domain": {"x.com"}, "email": {"127"}}, `"email":"127"`},
		{"email at the TINYINT's bottom", url.Values{"domain": {"x.com"}, "email": {"-128"}}, `"email":"-128"`},
		{"privacy with sign", url.Values{"domain": {"x.com"}, "privacy": {"+1"}}, `"privacy":"+1"`},
		{"password 128 chars", url.Values{"domain": {"x.com"}, "password": {strings.Repeat("é", 128)}}, `"password":true`},
		{"password 0 reads as false", url.Values{"domain": {"x.com"}, "privacy": {"2"}, "password": {"0"}}, `"password":false`},
		{"user_id ignored on store", url.Values{"domain": {"x.com"}, "user_id": {"7"}}, `"domain":"x.com"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: tc.form})
			if r.status != 201 || !strings.Contains(r.body, tc.want) {
				t.Fatalf("got %d %s, want %s", r.status, r.body, tc.want)
			}
		})
	}
}

// email has no range rule, but its column is a TINYINT: a value outside
// -128..127 passes validation and fails in the database, a 500 "Server
// Error" that stores and changes nothing.
func TestEmailOutsideTinyint(t *testing.T) {
	t.Parallel()
	for _, email := range []string{"128", "-129", "99999999999"} {
		t.Run(email, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{})
			id := create(t, s, keyA, url.Values{"domain": {"kept.example"}, "email": {"1"}})
			r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA,
				form: url.Values{"domain": {"x.example"}, "email": {email}}})
			expect(t, r, 500, serverErr)
			for _, method := range []string{"PUT", "PATCH"} {
				r = do(t, s, call{method: method, path: "/api/v1/websites/1", key: keyA,
					form: url.Values{"email": {email}, "exclude_ips": {"192.0.2.1"}}})
				expect(t, r, 500, serverErr)
			}
			if n := len(s.Websites()); n != 1 {
				t.Errorf("%d websites, want 1", n)
			}
			if w, _ := s.Website(id); w.Email == nil || *w.Email != 1 || w.ExcludeIPs != "" {
				t.Errorf("stored %+v, want it unchanged", w)
			}
		})
	}
}

func TestStoreJSONBody(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, ctype: "application/json",
		body: `{"domain":"www.JSON.org","privacy":2,"password":"pw","email":"","exclude_bots":0}`})
	expect(t, r, 201, withEveryColumn(`{"data":{"id":1,"domain":"json.org","privacy":2,"email":null,"password":true,"exclude_bots":0,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"`+t0s+`","updated_at":"`+t0s+`"},"status":200}`))

	r = do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, ctype: "application/json", body: `not json`})
	expect(t, r, 422, `{"message":{"domain":["The domain field is required."]},"status":422}`)
}

func TestUniquenessAndLimitAcrossUsers(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{Users: []User{{Key: keyA, WebsiteLimit: 2}, {Key: keyB}}, DefaultWebsiteLimit: 1})
	create(t, s, keyA, url.Values{"domain": {"one.com"}})
	create(t, s, keyA, url.Values{"domain": {"two.com"}})
	r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"three.com"}}})
	expect(t, r, 422, `{"message":{"domain":["You created too many websites."]},"status":422}`)

	// B's limit is the default (1); the domain is taken by A.
	r = do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyB, form: url.Values{"domain": {"ONE.com"}}})
	expect(t, r, 422, `{"message":{"domain":["The domain has already been taken."]},"status":422}`)
	create(t, s, keyB, url.Values{"domain": {"b.com"}})
	r = do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyB, form: url.Values{"domain": {"two.com"}}})
	expect(t, r, 422, `{"message":{"domain":["The domain has already been taken.","You created too many websites."]},"status":422}`)

	// Deleting frees both the slot and the domain; ids are never reused.
	r = do(t, s, call{method: "DELETE", path: "/api/v1/websites/2", key: keyA, accept: "-"})
	expect(t, r, 200, `{"id":2,"object":"website","deleted":true,"status":200}`)
	if id := create(t, s, keyA, url.Values{"domain": {"two.com"}}); id != 4 {
		t.Errorf("new id %d, want 4", id)
	}
	// A user added later with no limit of its own gets the default.
	s.AddUser(User{Key: "late"})
	create(t, s, "late", url.Values{"domain": {"late.com"}})
	r = do(t, s, call{method: "POST", path: "/api/v1/websites", key: "late", form: url.Values{"domain": {"late2.com"}}})
	expect(t, r, 422, `{"message":{"domain":["You created too many websites."]},"status":422}`)
}

// Seed is a raw insert: no input middleware, canonicalisation or
// validation; Website and Websites return everything stored.
func TestSeedIsARawInsert(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{DefaultWebsiteLimit: 1})
	create(t, s, keyA, url.Values{"domain": {"dup.example"}})
	w := s.Seed(keyA, Website{Domain: "dup.example", Settings: wire.Settings{ExcludeIPs: " 1.2.3.4 ", ExcludeParams: " ref\n", Password: "0"}})
	if w.ID != 2 || w.Owner != keyA || w.CreatedAt.IsZero() {
		t.Fatalf("Seed returned %+v", w)
	}
	s.Seed(keyA, Website{Domain: "https://www.Raw.example"})
	ws := s.Websites()
	if len(ws) != 3 || ws[1].Domain != "dup.example" || ws[1].ExcludeIPs != " 1.2.3.4 " || ws[1].ExcludeParams != " ref\n" ||
		ws[1].Password != "0" || ws[1].ExcludeBots != nil || ws[2].Domain != "https://www.Raw.example" {
		t.Fatalf("Websites() = %+v", ws)
	}
	expect(t, do(t, s, call{path: "/api/v1/websites/2", key: keyA}), 200,
		websiteBody("2", "dup.example", `"privacy":null,"email":null,"password":false,"exclude_bots":null,"exclude_ips":" 1.2.3.4 "`))
	var page listPage
	decode(t, do(t, s, call{path: "/api/v1/websites?search=dup", key: keyA}), &page)
	if ids := page.ids(); len(ids) != 2 || ids[0] != 2 || ids[1] != 1 {
		t.Errorf("search: %v", ids)
	}
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	const t1s = "2024-10-13T13:10:15.000000Z" // t0 + 1 minute
	rec := func(fields string, updated string) string {
		return withEveryColumn(`{"data":{"id":1,"domain":"example.com",` + fields + `,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + updated + `"},"status":200}`)
	}
	// The website before each update: privacy 2 with a password, email 1,
	// exclude_bots 1, exclude_ips "1.1.1.1".
	initial := url.Values{"domain": {"example.com"}, "privacy": {"2"}, "password": {"pw"}, "email": {"1"},
		"exclude_bots": {"1"}, "exclude_ips": {"1.1.1.1"}, "exclude_params": {"ref"}}
	tests := []struct {
		name      string
		method    string
		form      url.Values
		status    int
		body      string
		check     func(t *testing.T, w Website)
		afterShow string // show response after the update, if set
	}{
		{name: "strings echoed, others stored ints", method: "PUT", form: url.Values{"privacy": {"1"}},
			status: 200, body: rec(`"privacy":"1","email":1,"password":true,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t1s),
			afterShow: rec(`"privacy":1,"email":1,"password":true,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t1s)},
		{name: "empty password with public privacy clears it", method: "PATCH", form: url.Values{"privacy": {"0"}, "password": {""}},
			status: 200, body: rec(`"privacy":"0","email":1,"password":false,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t1s),
			check: func(t *testing.T, w Website) {
				if w.Password != "" {
					t.Errorf("password %q kept", w.Password)
				}
			}},
		{name: "privacy change keeps password", method: "PATCH", form: url.Values{"privacy": {"0"}},
			status: 200, body: rec(`"privacy":"0","email":1,"password":true,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t1s)},
		{name: "empty password without privacy clears it", method: "PATCH", form: url.Values{"password": {""}},
			status: 200, body: rec(`"privacy":2,"email":1,"password":false,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t1s),
			check: func(t *testing.T, w Website) {
				if w.Password != "" {
					t.Errorf("password %q kept", w.Password)
				}
			}},
		{name: "empty password with privacy 2", method: "PATCH", form: url.Values{"privacy": {"2"}, "password": {""}},
			status: 422, body: `{"message":{"password":["The password field must be a string.","The password field must be at least 1 characters."]},"status":422}`},
		{name: "empty password with privacy 3", method: "PATCH", form: url.Values{"privacy": {"3"}, "password": {""}},
			status: 422, body: `{"message":{"privacy":["The privacy field must be between 0 and 2."],"password":["The password field must be a string.","The password field must be at least 1 characters."]},"status":422}`},
		{name: "empty password with privacy 1.0", method: "PATCH", form: url.Values{"privacy": {"1.0"}, "password": {""}},
			status: 422, body: `{"message":{"privacy":["The privacy field must be an integer."]},"status":422}`},
		{name: "password too long", method: "PATCH", form: url.Values{"password": {strings.Repeat("x", 129)}},
			status: 422, body: `{"message":{"password":["The password field must not be greater than 128 characters."]},"status":422}`},
		{name: "null email, ips and params", method: "PATCH", form: url.Values{"email": {""}, "exclude_ips": {""}, "exclude_params": {""}},
			status: 200, body: rec(`"privacy":2,"email":null,"password":true,"exclude_bots":1,"exclude_ips":null`, t1s),
			check: func(t *testing.T, w Website) {
				if w.Email != nil || w.ExcludeIPs != "" || w.ExcludeParams != "" {
					t.Errorf("not cleared: %+v", w)
				}
			}},
		{name: "empty privacy is required", method: "PATCH", form: url.Values{"privacy": {""}},
			status: 422, body: `{"message":{"privacy":["The privacy field is required."]},"status":422}`},
		{name: "exclude_bots range", method: "PATCH", form: url.Values{"exclude_bots": {"5"}, "privacy": {"-1"}},
			status: 422, body: `{"message":{"privacy":["The privacy field must be between 0 and 2."],"exclude_bots":["The exclude bots field must be between 0 and 1."]},"status":422}`},
		{name: "domain silently ignored", method: "PATCH", form: url.Values{"domain": {"other.com"}, "exclude_bots": {"0"}},
			status: 200, body: rec(`"privacy":2,"email":1,"password":true,"exclude_bots":"0","exclude_ips":"1.1.1.1"`, t1s)},
		{name: "CRLF stored as sent", method: "PATCH", form: url.Values{"exclude_ips": {"1.2.3.4\r\n5.6.7.8"}},
			status: 200, body: rec(`"privacy":2,"email":1,"password":true,"exclude_bots":1,"exclude_ips":"1.2.3.4\r\n5.6.7.8"`, t1s)},
		{name: "same values do not touch updated_at", method: "PATCH", form: url.Values{"privacy": {"2"}, "email": {"1"}},
			status: 200, body: rec(`"privacy":"2","email":"1","password":true,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t0s)},
		{name: "empty update", method: "PUT", form: url.Values{},
			status: 200, body: rec(`"privacy":2,"email":1,"password":true,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t0s)},
		{name: "user_id refused", method: "PATCH", form: url.Values{"user_id": {"1"}, "privacy": {"0"}},
			status: 403, body: forbiddenUID},
		{name: "exclude_params changed but never shown", method: "PATCH", form: url.Values{"exclude_params": {"gclid"}},
			status: 200, body: rec(`"privacy":2,"email":1,"password":true,"exclude_bots":1,"exclude_ips":"1.1.1.1"`, t1s),
			check: func(t *testing.T, w Website) {
				if w.ExcludeParams != "gclid" {
					t.Errorf("exclude_params %q", w.ExcludeParams)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, clock := newTestServer(t, Options{})
			create(t, s, keyA, initial)
			clock.Advance(time.Minute)
			r := do(t, s, call{method: tc.method, path: "/api/v1/websites/1", key: keyA, form: tc.form})
			expect(t, r, tc.status, tc.body)
			w, _ := s.Website(1)
			if w.Domain != "example.com" {
				t.Errorf("domain changed to %q", w.Domain)
			}
			if tc.check != nil {
				tc.check(t, w)
			}
			if tc.afterShow != "" {
				expect(t, do(t, s, call{path: "/api/v1/websites/1", key: keyA}), 200, tc.afterShow)
			}
		})
	}
}

func TestBehindTheClientsBack(t *testing.T) {
	t.Parallel()
	s, clock := newTestServer(t, Options{})
	w := s.Seed(keyA, Website{Domain: "Seeded.example", Settings: wire.Settings{Privacy: intp(1), ExcludeIPs: "10.0.0.1"}, Favorite: true})
	if w.ID != 1 || !w.CreatedAt.Equal(t0.Truncate(time.Second)) || w.FavoritedAt.IsZero() {
		t.Fatalf("seeded %+v", w)
	}
	expect(t, do(t, s, call{path: "/api/v1/websites/1", key: keyA}), 200,
		withEveryColumn(`{"data":{"id":1,"domain":"Seeded.example","privacy":1,"email":null,"password":false,"exclude_bots":null,"exclude_ips":"10.0.0.1","favorite":true,"favorited_at":"`+t0s+`","created_at":"`+t0s+`","updated_at":"`+t0s+`"},"status":200}`))

	clock.Advance(2 * time.Second)
	if !s.UpdateWebsite(1, func(w *Website) { w.Privacy = intp(0); w.ID = 99 }) {
		t.Fatal("UpdateWebsite: not found")
	}
	got, _ := s.Website(1)
	if *got.Privacy != 0 || got.UpdatedAt.Sub(got.CreatedAt) != 2*time.Second {
		t.Errorf("after UpdateWebsite: %+v", got)
	}
	if s.UpdateWebsite(2, nil) || s.DeleteWebsite(2) {
		t.Error("unknown id reported as existing")
	}
	// A seeded explicit id moves the sequence on.
	s.Seed(keyB, Website{ID: 10, Domain: "ten.example"})
	if id := create(t, s, keyA, url.Values{"domain": {"eleven.example"}}); id != 11 {
		t.Errorf("next id %d, want 11", id)
	}
	if !s.DeleteWebsite(1) {
		t.Fatal("DeleteWebsite: not found")
	}
	expect(t, do(t, s, call{path: "/api/v1/websites/1", key: keyA}), 404, notFound)
	if ws := s.Websites(); len(ws) != 2 || ws[0].ID != 10 || ws[1].ID != 11 {
		t.Errorf("Websites() = %+v", ws)
	}
}

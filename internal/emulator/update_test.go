package emulator

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestUpdate(t *testing.T) {
	t.Parallel()
	const t1s = "2024-10-13T13:10:15.000000Z" // t0 + 1 minute
	rec := func(fields string, updated string) string {
		return `{"data":{"id":1,"domain":"example.com",` + fields + `,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + updated + `"},"status":200}`
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
		{name: "empty password without privacy", method: "PATCH", form: url.Values{"password": {""}},
			status: 422, body: `{"message":{"password":["The password field is required."]},"status":422}`},
		{name: "empty password with privacy 2", method: "PATCH", form: url.Values{"privacy": {"2"}, "password": {""}},
			status: 422, body: `{"message":{"password":["The password field is required."]},"status":422}`},
		{name: "password too long", method: "PATCH", form: url.Values{"password": {strings.Repeat("x", 129)}},
			status: 422, body: `{"message":{"password":["The password field must not be greater than 128 characters."]},"status":422}`},
		{name: "null email, ips and params", method: "PATCH", form: url.Values{"email": {""}, "exclude_ips": {""}, "exclude_params": {""}},
			status: 200, body: rec(`"privacy":2,"email":null,"password":true,"exclude_bots":1,"exclude_ips":null`, t1s),
			check: func(t *testing.T, w Website) {
				if w.Email != nil || w.ExcludeIPs != "" || w.ExcludeParams != "" {
					t.Errorf("not cleared: %+v", w)
				}
			}},
		{name: "empty privacy is not an integer", method: "PATCH", form: url.Values{"privacy": {""}},
			status: 422, body: `{"message":{"privacy":["The privacy field must be an integer."]},"status":422}`},
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
	w := s.Seed(keyA, Website{Domain: "Seeded.example", Privacy: intp(1), ExcludeIPs: "10.0.0.1", Favorite: true})
	if w.ID != 1 || !w.CreatedAt.Equal(t0.Truncate(time.Second)) || w.FavoritedAt.IsZero() {
		t.Fatalf("seeded %+v", w)
	}
	expect(t, do(t, s, call{path: "/api/v1/websites/1", key: keyA}), 200,
		`{"data":{"id":1,"domain":"Seeded.example","privacy":1,"email":null,"password":false,"exclude_bots":null,"exclude_ips":"10.0.0.1","favorite":true,"favorited_at":"`+t0s+`","created_at":"`+t0s+`","updated_at":"`+t0s+`"},"status":200}`)

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

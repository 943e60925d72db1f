package emulator

import (
	"fmt"
	"net/url"
	"testing"
)

// accountBody is the GET /account answer for a user.
func accountBody(id int64, name, email string, websites int) string {
	return fmt.Sprintf(`{"data":{"id":%[1]d,"name":%[2]q,"email":%[3]q,"avatar_url":"https:\/\/example.test\/avatar\/%[1]d.png",`+
		`"locale":"en","timezone":"UTC","plan":{"id":1,"name":"Default","features":{"pageviews":1000,"websites":%[4]d,`+
		`"email_reports":1,"data_export":1,"api":1}},"created_at":"2024-01-01T00:00:00.000000Z"},"status":200}`,
		id, name, email, websites)
}

func TestAccountEndpoint(t *testing.T) {
	t.Parallel()
	users := []User{
		{Key: keyA, Name: "Alice", Email: "alice@example.test"},
		{Key: keyB, WebsiteLimit: 3},
		{Key: keyNoAccess, NoAPIAccess: true},
	}
	tests := []struct {
		name   string
		opts   Options
		c      call
		status int
		body   string
	}{
		{name: "named user, unlimited", c: call{path: "/api/v1/account", key: keyA},
			status: 200, body: accountBody(1, "Alice", "alice@example.test", -1)},
		{name: "default name and e-mail, own limit", c: call{path: "/api/v1/account", key: keyB},
			status: 200, body: accountBody(2, "User 2", "user2@example.test", 3)},
		{name: "installation's default limit", opts: Options{DefaultWebsiteLimit: 5}, c: call{path: "/api/v1/account", key: keyA},
			status: 200, body: accountBody(1, "Alice", "alice@example.test", 5)},
		{name: "trailing slash", c: call{path: "/api/v1/account/", key: keyA},
			status: 200, body: accountBody(1, "Alice", "alice@example.test", -1)},
		{name: "explicit ids", opts: Options{Users: []User{{Key: keyB}, {Key: keyA, ID: 42}}}, c: call{path: "/api/v1/account", key: keyA},
			status: 200, body: accountBody(42, "User 42", "user42@example.test", -1)},
		{name: "no key", c: call{path: "/api/v1/account"},
			status: 401, body: unauthorized},
		{name: "wrong key", c: call{path: "/api/v1/account", key: "nope"},
			status: 401, body: unauthorized},
		{name: "plan without API access", c: call{path: "/api/v1/account", key: keyNoAccess},
			status: 403, body: noAccess},
		{name: "wrong method", c: call{method: "POST", path: "/api/v1/account", key: keyA},
			status: 405, body: laravelJSON("The POST method is not supported for route api/v1/account. Supported methods: GET, HEAD.")},
		{name: "older build", opts: Options{NoAccountEndpoint: true}, c: call{path: "/api/v1/account", key: keyA},
			status: 404, body: notFound},
		{name: "older build, no key", opts: Options{NoAccountEndpoint: true}, c: call{path: "/api/v1/account"},
			status: 401, body: unauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.opts.Users == nil {
				tc.opts.Users = users
			}
			tc.opts.RateLimit = 60
			s, _ := newTestServer(t, tc.opts)
			r := do(t, s, tc.c)
			expect(t, r, tc.status, tc.body)
			// Like every API route, it goes through the throttle.
			if got := r.header.Get("X-RateLimit-Remaining"); got != "59" {
				t.Errorf("X-RateLimit-Remaining = %q, want 59", got)
			}
			method := tc.c.method
			if method == "" {
				method = "GET"
			}
			if n := s.Stats().ByRoute[method+" /api/v1/account"]; n != 1 {
				t.Errorf("Stats.ByRoute: %v", s.Stats().ByRoute)
			}
		})
	}
}

func TestUserID(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{Users: []User{{Key: keyA}, {Key: keyB, ID: 7}, {Key: keyNoAccess}}})
	for key, want := range map[string]int64{keyA: 1, keyB: 7, keyNoAccess: 8, "unknown": 0} {
		if got := s.UserID(key); got != want {
			t.Errorf("UserID(%.4s…) = %d, want %d", key, got, want)
		}
	}
	s.AddUser(User{Key: "new"})
	s.AddUser(User{Key: keyA, Name: "Renamed"}) // keeps its id
	if s.UserID("new") != 9 || s.UserID(keyA) != 1 {
		t.Errorf("after AddUser: new %d, A %d", s.UserID("new"), s.UserID(keyA))
	}
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyA}), 200, accountBody(1, "Renamed", "user1@example.test", -1))
}

// The plans of a real installation's users, set per key when the emulator
// starts: what GET /account shows, the 403 of a plan without API access, the
// application's 422 over the website limit, and e-mail reports stored on a
// plan without them.
func TestNamedPlans(t *testing.T) {
	t.Parallel()
	plan := func(name string) *Plan {
		p, ok := PlanNamed(name)
		if !ok {
			t.Fatalf("PlanNamed(%q) unknown", name)
		}
		return &p
	}
	const keyC, keyD = "plan-three-0000000000000000000000000000000000000000000000000000", "plan-noemail-00000000000000000000000000000000000000000000000000"
	s, _ := newTestServer(t, Options{Users: []User{
		{Key: keyA, Plan: plan("unlimited")}, {Key: keyB, Plan: plan("no-api")},
		{Key: keyC, Plan: plan("three-websites")}, {Key: keyD, Plan: plan("no-email-reports")},
	}, DefaultWebsiteLimit: 1}) // a plan's own limit wins over the installation's default
	if got := PlanNames(); fmt.Sprint(got) != "[no-api no-email-reports three-websites unlimited]" {
		t.Errorf("PlanNames() = %v", got)
	}
	if _, ok := PlanNamed("gold"); ok {
		t.Error(`PlanNamed("gold") known`)
	}
	features := func(id int64, plan, features string) string {
		return fmt.Sprintf(`{"data":{"id":%[1]d,"name":"User %[1]d","email":"user%[1]d@example.test","avatar_url":"https:\/\/example.test\/avatar\/%[1]d.png",`+
			`"locale":"en","timezone":"UTC","plan":{%[2]s,"features":{%[3]s}},"created_at":"2024-01-01T00:00:00.000000Z"},"status":200}`,
			id, plan, features)
	}
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyA}), 200, features(1, `"id":1,"name":"Unlimited"`,
		`"pageviews":-1,"websites":-1,"email_reports":1,"data_export":1,"api":1`))
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyB}), 403, noAccess)
	expect(t, do(t, s, call{path: "/api/v1/websites", key: keyB}), 403, noAccess)
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyC}), 200, features(3, `"id":3,"name":"Starter"`,
		`"pageviews":10000,"websites":3,"email_reports":1,"data_export":1,"api":1`))
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyD}), 200, features(4, `"id":4,"name":"Basic"`,
		`"pageviews":100000,"websites":10,"email_reports":0,"data_export":1,"api":1`))

	for i := range 3 {
		create(t, s, keyC, url.Values{"domain": {fmt.Sprintf("three-%d.com", i)}})
		create(t, s, keyA, url.Values{"domain": {fmt.Sprintf("unlimited-%d.com", i)}})
	}
	create(t, s, keyA, url.Values{"domain": {"unlimited-3.com"}})
	r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyC, form: url.Values{"domain": {"three-3.com"}}})
	expect(t, r, 422, `{"message":{"domain":["You created too many websites."]},"status":422}`)

	// Stored although the plan sends no report, as the application does.
	id := create(t, s, keyD, url.Values{"domain": {"reports.com"}, "email": {"1"}})
	if w, ok := s.Website(id); !ok || w.Email == nil || *w.Email != 1 {
		t.Errorf("e-mail reports on a plan without them: stored %+v", w)
	}
}

// Only -1 means unlimited: a plan of 0 websites, as GET /account states it,
// allows none, as the application's check (count >= websites) refuses.
func TestPlanOfNoWebsites(t *testing.T) {
	t.Parallel()
	none := Plan{ID: 5, Name: "Stats only", Websites: 0, Pageviews: 100, API: true}
	s, _ := newTestServer(t, Options{Users: []User{{Key: keyA, Plan: &none}}})
	r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"first.com"}}})
	expect(t, r, 422, `{"message":{"domain":["You created too many websites."]},"status":422}`)
}

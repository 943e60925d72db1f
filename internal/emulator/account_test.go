package emulator

import (
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAccountEndpoint(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{Users: []User{
		{Key: keyA, Name: "Alice", Email: "alice@example.test"},
		{Key: keyB, WebsiteLimit: 3},
	}})
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyA}), 200,
		`{"data":{"id":1,"name":"Alice","email":"alice@example.test","avatar_url":"https:\/\/example.test\/avatar\/1.png",`+
			`"locale":"en","timezone":"UTC","plan":{"id":1,"name":"Default","features":{"pageviews":-1,"websites":-1,`+
			`"email_reports":1,"data_export":1,"api":1}},"created_at":"2024-01-01T00:00:00.000000Z"},"status":200}`)
	r := do(t, s, call{path: "/api/v1/account", key: keyB})
	if r.status != 200 || !strings.Contains(r.body, `"id":2,"name":"User 2","email":"user2@example.test"`) ||
		!strings.Contains(r.body, `"websites":3`) {
		t.Errorf("user B: %d %s", r.status, r.body)
	}
	if id := s.UserID(keyB); id != 2 {
		t.Errorf("UserID(keyB) = %d", id)
	}
	expect(t, do(t, s, call{path: "/api/v1/account"}), 401, `{"message":"Unauthenticated."}`)

	old, _ := newTestServer(t, Options{NoAccountEndpoint: true})
	expect(t, do(t, old, call{path: "/api/v1/account", key: keyA}), 404, notFound)
}

func TestAccountNoAPIAccess(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{Users: []User{{Key: keyA, NoAPIAccess: true}}})
	expect(t, do(t, s, call{path: "/api/v1/account", key: keyA}), 403,
		`{"message":"You don't have access to this feature.","status":403}`)
}

// Two overlapping stores of one domain both pass the uniqueness rule when
// the insert is slow: the real database has no unique index on domain.
func TestSlowCommitDuplicates(t *testing.T) {
	t.Parallel()
	s := NewServer(t, Options{Users: []User{{Key: keyA}}, Faults: &Faults{SlowCommit: 300 * time.Millisecond, SlowCommitCount: 1}})
	form := url.Values{"domain": {"dup.example"}}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	wg.Go(func() {
		statuses[0] = do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: form}).status
	})
	time.Sleep(50 * time.Millisecond)
	wg.Go(func() {
		statuses[1] = do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: form}).status
	})
	wg.Wait()
	if statuses[0] != 201 || statuses[1] != 201 {
		t.Fatalf("statuses %v, want both 201", statuses)
	}
	n := 0
	for _, w := range s.Websites() {
		if w.Domain == "dup.example" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d websites dup.example, want 2", n)
	}
	r := do(t, s, call{path: "/api/v1/websites?search=dup&per_page=10", key: keyA})
	if strings.Count(r.body, `"domain":"dup.example"`) != 2 {
		t.Errorf("the list does not show both: %s", r.body)
	}
	// A store after both landed is refused as usual.
	expect(t, do(t, s, call{method: "POST", path: "/api/v1/websites", key: keyA, form: form}), 422,
		`{"message":{"domain":["The domain has already been taken."]},"status":422}`)
	if c := s.FaultCounts()[FaultSlowCommit]; c != 1 {
		t.Errorf("slow commits counted: %d", c)
	}
}

func TestMaintenanceFault(t *testing.T) {
	t.Parallel()
	s := NewServer(t, Options{Users: []User{{Key: keyA}}, Faults: &Faults{Maintenance: true}})
	for _, c := range []call{
		{path: "/api/v1/websites", key: keyA},
		{method: "POST", path: "/api/v1/websites", key: keyA, form: url.Values{"domain": {"m.example"}}},
		{path: "/elsewhere"},
	} {
		expect(t, do(t, s, c), 503, `{"message":"Service Unavailable"}`)
	}
	if len(s.Websites()) != 0 {
		t.Error("a store was committed during maintenance")
	}
	f, err := ParseFaults("maintenance=true,slow-commit=2s,slow-commits=3")
	if err != nil || !f.Maintenance || f.SlowCommit != 2*time.Second || f.SlowCommitCount != 3 {
		t.Errorf("ParseFaults: %+v %v", f, err)
	}
}

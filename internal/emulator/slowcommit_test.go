package emulator

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// storedBody is the answer to a store of only a domain, and to a show of
// the website it made (nothing was echoed as a string).
func storedBody(id int64, domain string) string {
	return withEveryColumn(`{"data":{"id":` + strconv.FormatInt(id, 10) + `,"domain":"` + domain + `","privacy":null,"email":null,"password":false,` +
		`"exclude_bots":1,"exclude_ips":null,"favorite":false,"favorited_at":null,"created_at":"` + t0s + `","updated_at":"` + t0s + `"},"status":200}`)
}

// holdGate holds slow stores before their insert (Faults.SlowCommitHold)
// until the test releases them all.
type holdGate struct {
	arrived chan struct{} // one value per store that waits to insert
	release chan struct{}
	once    sync.Once
}

func newHoldGate(t *testing.T) *holdGate {
	g := &holdGate{arrived: make(chan struct{}, 8), release: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *holdGate) hold() {
	g.arrived <- struct{}{}
	<-g.release
}

func (g *holdGate) open() { g.once.Do(func() { close(g.release) }) }

// overlappingStores sends two stores, the second once the first has passed
// validation and waits in its slow commit (held by g), and returns their
// results in the order sent. The first is released once the second has
// answered or waits in its own slow commit.
func overlappingStores(t *testing.T, s *Server, g *holdGate, first, second call) [2]result {
	t.Helper()
	var out [2]result
	var wg sync.WaitGroup
	wg.Go(func() { out[0] = do(t, s, first) })
	<-g.arrived
	done := make(chan struct{})
	wg.Go(func() { defer close(done); out[1] = do(t, s, second) })
	select {
	case <-done:
	case <-g.arrived:
	}
	g.open()
	wg.Wait()
	return out
}

// storeCall is a store of domain by key.
func storeCall(key, domain string) call {
	return call{method: "POST", path: "/api/v1/websites", key: key, form: url.Values{"domain": {domain}}}
}

// storedID checks that r is the 201 of a store of domain and returns its id.
func storedID(t *testing.T, r result, domain string) int64 {
	t.Helper()
	var out struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	if r.status == http.StatusCreated {
		decode(t, r, &out)
	}
	expect(t, r, 201, storedBody(out.Data.ID, domain))
	return out.Data.ID
}

// Two overlapping stores of one domain both pass the uniqueness rule when
// the insert is slow: the real database has no unique index on domain. The
// emulator then lists, searches, shows, persists and deletes both.
func TestSlowCommitDuplicates(t *testing.T) {
	t.Parallel()
	for _, count := range []int{1, 0} { // only the first store slowed, or both
		t.Run("slow-commits="+strconv.Itoa(count), func(t *testing.T) {
			t.Parallel()
			state := filepath.Join(t.TempDir(), "state.json")
			g := newHoldGate(t)
			s, _ := newTestServer(t, Options{StateFile: state, Faults: &Faults{SlowCommitHold: g.hold, SlowCommitCount: count}})
			rs := overlappingStores(t, s, g, storeCall(keyA, "dup.example"), storeCall(keyA, "https://www.DUP.example"))
			ids := []int64{storedID(t, rs[0], "dup.example"), storedID(t, rs[1], "dup.example")}
			if slices.Sort(ids); !slices.Equal(ids, []int64{1, 2}) {
				t.Fatalf("ids %v, want 1 and 2", ids)
			}
			want := 2
			if count == 1 {
				want = 1
			}
			if c := s.FaultCounts()[FaultSlowCommit]; c != want {
				t.Errorf("slow commits counted: %d, want %d", c, want)
			}

			for _, q := range []string{"", "&search=DUP", "&search=dup.example", "&sort_by=domain&sort=asc"} {
				var page listPage
				decode(t, do(t, s, call{path: "/api/v1/websites?per_page=10" + q, key: keyA}), &page)
				if got := page.ids(); len(got) != 2 || page.Meta.Total != 2 || !slices.Contains(got, 1) || !slices.Contains(got, 2) {
					t.Errorf("list %q: ids %v, total %d", q, got, page.Meta.Total)
				}
			}
			for _, id := range ids {
				expect(t, do(t, s, call{path: "/api/v1/websites/" + strconv.FormatInt(id, 10), key: keyA}), 200, storedBody(id, "dup.example"))
			}
			// Both survive a restart.
			again, err := New(Options{StateFile: state})
			if err != nil {
				t.Fatal(err)
			}
			if ws := again.Websites(); len(ws) != 2 || ws[0].Domain != "dup.example" || ws[1].Domain != "dup.example" {
				t.Errorf("after a restart: %+v", ws)
			}

			// Once stored, the domain is taken for everyone, sequentially.
			taken := `{"message":{"domain":["The domain has already been taken."]},"status":422}`
			expect(t, do(t, s, storeCall(keyA, "dup.example")), 422, taken)
			expect(t, do(t, s, storeCall(keyB, "dup.example")), 422, taken)
			// Deleting one leaves the other, and the domain still taken.
			expect(t, do(t, s, call{method: "DELETE", path: "/api/v1/websites/1", key: keyA}), 200,
				`{"id":1,"object":"website","deleted":true,"status":200}`)
			expect(t, do(t, s, call{path: "/api/v1/websites/2", key: keyA}), 200, storedBody(2, "dup.example"))
			expect(t, do(t, s, storeCall(keyA, "dup.example")), 422, taken)
		})
	}
}

// Without overlap, the uniqueness rule holds, slow commit or not.
func TestSlowCommitSequentialStores(t *testing.T) {
	t.Parallel()
	taken := `{"message":{"domain":["The domain has already been taken."]},"status":422}`
	for _, f := range []*Faults{nil, {SlowCommit: 50 * time.Millisecond}} {
		t.Run("faults="+strconv.FormatBool(f != nil), func(t *testing.T) {
			t.Parallel()
			s, _ := newTestServer(t, Options{Faults: f})
			expect(t, do(t, s, storeCall(keyA, "seq.example")), 201, storedBody(1, "seq.example"))
			expect(t, do(t, s, storeCall(keyA, "seq.example")), 422, taken)
			expect(t, do(t, s, storeCall(keyB, "http://SEQ.example")), 422, taken)
			expect(t, do(t, s, storeCall(keyA, "other.example")), 201, storedBody(2, "other.example"))
			if len(s.Websites()) != 2 {
				t.Errorf("websites: %+v", s.Websites())
			}
		})
	}
}

// The website limit is only a validation rule too: overlapping stores can
// pass it together.
func TestSlowCommitWebsiteLimit(t *testing.T) {
	t.Parallel()
	g := newHoldGate(t)
	s, _ := newTestServer(t, Options{DefaultWebsiteLimit: 1, Faults: &Faults{SlowCommitHold: g.hold, SlowCommitCount: 1}})
	rs := overlappingStores(t, s, g, storeCall(keyA, "one.example"), storeCall(keyA, "two.example"))
	storedID(t, rs[0], "one.example")
	storedID(t, rs[1], "two.example")
	expect(t, do(t, s, storeCall(keyA, "three.example")), 422,
		`{"message":{"domain":["You created too many websites."]},"status":422}`)
	if n := len(s.Websites()); n != 2 {
		t.Errorf("%d websites, want 2 (over the limit of 1)", n)
	}
}

// A slow store is inserted even when its client gave up waiting, and a
// store that fails validation is not slowed (nor counted).
func TestSlowCommitClientGone(t *testing.T) {
	t.Parallel()
	g := newHoldGate(t)
	s, _ := newTestServer(t, Options{Faults: &Faults{SlowCommitHold: g.hold}})
	expect(t, do(t, s, storeCall(keyA, "not a domain")), 422, `{"message":{"domain":["Invalid domain name."]},"status":422}`)
	if c := s.FaultCounts()[FaultSlowCommit]; c != 0 {
		t.Errorf("an invalid store was slowed: %d", c)
	}
	// The client leaves once the store waits to insert.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-g.arrived
		cancel()
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/api/v1/websites", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.RawQuery = "domain=gone.example"
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+keyA)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("answered %d before the slow commit", resp.StatusCode)
	}
	if len(s.Websites()) != 0 {
		t.Fatal("inserted before the slow commit ended")
	}
	g.open()
	deadline := time.Now().Add(time.Minute)
	for len(s.Websites()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if ws := s.Websites(); len(ws) != 1 || ws[0].Domain != "gone.example" {
		t.Errorf("websites after the client left: %+v", ws)
	}
}

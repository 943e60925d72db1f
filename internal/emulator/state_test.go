package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestStateFileRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	opts := Options{StateFile: path}

	s1, _ := newTestServer(t, opts)
	create(t, s1, keyA, url.Values{"domain": {"one.com"}, "privacy": {"2"}, "password": {"pw"}, "exclude_ips": {"1.1.1.1\r\n2.2.2.2"}, "exclude_params": {"ref"}})
	create(t, s1, keyB, url.Values{"domain": {"two.com"}, "email": {"1"}})
	create(t, s1, keyA, url.Values{"domain": {"three.com"}})
	do(t, s1, call{method: "PATCH", path: "/api/v1/websites/2", key: keyB, form: url.Values{"exclude_bots": {"0"}}})
	do(t, s1, call{method: "DELETE", path: "/api/v1/websites/3", key: keyA})
	want := s1.Websites()

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	s2, _ := newTestServer(t, opts)
	got, _ := json.Marshal(s2.Websites())
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) || len(want) != 2 {
		t.Fatalf("reloaded\n%s\nwant\n%s", got, wantJSON)
	}
	r1 := do(t, s1, call{path: "/api/v1/websites/1", key: keyA})
	r2 := do(t, s2, call{path: "/api/v1/websites/1", key: keyA})
	if r1.body != r2.body || r2.status != 200 {
		t.Errorf("show differs after reload:\n%s\n%s", r1.body, r2.body)
	}
	// Deleted id 3 is not reused after a restart.
	if id := create(t, s2, keyA, url.Values{"domain": {"four.com"}}); id != 4 {
		t.Errorf("id after reload %d, want 4", id)
	}
	if s2.PersistError() != nil {
		t.Errorf("PersistError: %v", s2.PersistError())
	}
}

func TestStateFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StateFile: bad}); err == nil {
		t.Error("corrupt state file accepted")
	}

	// A state file that cannot be written: the API answers 500 and the
	// state is unchanged.
	path := filepath.Join(dir, "missing-dir", "state.json")
	e, err := New(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(e)
	defer hs.Close()
	req, _ := http.NewRequest("POST", hs.URL+"/api/v1/websites", strings.NewReader("domain=x.com"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 || len(e.Websites()) != 0 || e.PersistError() == nil {
		t.Errorf("status %d, websites %d, PersistError %v", resp.StatusCode, len(e.Websites()), e.PersistError())
	}
}

func TestConcurrentRequests(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{StateFile: filepath.Join(t.TempDir(), "state.json")})
	const workers, each = 8, 12
	var wg sync.WaitGroup
	errs := make(chan string, workers*each*4)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := keyA
			if w%2 == 1 {
				key = keyB
			}
			for i := range each {
				form := url.Values{"domain": {fmt.Sprintf("w%d-%d.example", w, i)}}
				r := do(t, s, call{method: "POST", path: "/api/v1/websites", key: key, form: form})
				if r.status != 201 {
					errs <- r.body
					continue
				}
				// Everyone races for the same domain too: only one wins.
				do(t, s, call{method: "POST", path: "/api/v1/websites", key: key, form: url.Values{"domain": {fmt.Sprintf("shared-%d.example", i)}}})
				do(t, s, call{path: "/api/v1/websites?per_page=100", key: key})
				do(t, s, call{method: "PATCH", path: "/api/v1/websites/1", key: key, form: url.Values{"email": {"1"}}})
				s.Stats()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("store failed: %s", e)
	}
	ws := s.Websites()
	if len(ws) != workers*each+each {
		t.Errorf("%d websites, want %d", len(ws), workers*each+each)
	}
	seen := map[int64]bool{}
	for _, w := range ws {
		if seen[w.ID] {
			t.Errorf("duplicate id %d", w.ID)
		}
		seen[w.ID] = true
	}
	if st := s.Stats(); st.Total != workers*each*4 {
		t.Errorf("total %d", st.Total)
	}
}

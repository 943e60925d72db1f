package hostiletest

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestPHPEscape(t *testing.T) {
	// What PHP 8's json_encode writes for `a/b"c\d<e>&'é😀`, without and
	// with JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT.
	in := "a/b\"c\\d<e>&'\u00e9\U0001F600\n"
	if got, want := PHPEscape(in, false), `a\/b\"c\\d<e>&'\u00e9\ud83d\ude00\n`; got != want {
		t.Errorf("default flags: %s, want %s", got, want)
	}
	if got, want := PHPEscape(in, true), `a\/b\u0022c\\d\u003Ce\u003E\u0026\u0027\u00e9\ud83d\ude00\n`; got != want {
		t.Errorf("hex flags: %s, want %s", got, want)
	}
}

func TestCanary(t *testing.T) {
	a, b := NewCanary("a", nil), NewCanary("b", func(core string) string { return "x/" + core })
	if len(a.Core) != 16 || a.Core == b.Core || a.Value != Wrap(a.Core) || b.Value != "x/"+b.Core {
		t.Fatalf("canaries %+v %+v", a, b)
	}
	for _, c := range Specials + " " {
		if !strings.ContainsRune(a.Value, c) {
			t.Errorf("%q lacks %q", a.Value, c)
		}
	}
	all := []Canary{a, b}
	forms := map[string]string{
		"raw": a.Value, "query-escaped": url.QueryEscape(a.Value), "path-escaped": url.PathEscape(a.Value),
		"PHP": PHPEscape(a.Value, false), "PHP hex": PHPEscape(a.Value, true), "HTML": html.EscapeString(a.Value),
		"cut": a.Core[3:13],
	}
	for name, form := range forms {
		leaks := Find("ch", "before "+form+" after", all)
		if len(leaks) != 1 || leaks[0].Canary != "a" || leaks[0].Channel != "ch" {
			t.Errorf("%s form: %v", name, leaks)
			continue
		}
		if strings.Contains(leaks[0].Context, a.Core[:WindowLen]) || strings.Contains(leaks[0].Context, a.Core[6:]) ||
			!strings.Contains(leaks[0].Context, "«a»") {
			t.Errorf("%s form: the context is not masked: %s", name, leaks[0].Context)
		}
	}
	if leaks := Find("ch", "nothing but "+a.Core[:WindowLen-1]+" and "+b.Core[7:], all); len(leaks) != 0 {
		t.Errorf("pieces shorter than %d characters: %v", WindowLen, leaks)
	}
	if got := Mask("k="+a.Core+"&p="+b.Core, all); got != "k=«a»&p=«b»" {
		t.Errorf("Mask: %s", got)
	}
}

// TestServer: a schedule's answers go, in order, to the requests that match
// it, each echoing what the request carried; every other request reaches
// the emulator.
func TestServer(t *testing.T) {
	key := NewCanary("key", nil)
	s := New(t, emulator.Options{Users: []emulator.User{{Key: key.Value}}})
	// get returns the answer's status, headers and body.
	get := func(path string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key.Value)
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-Token", "tok-"+key.Core)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(body)
	}
	if status, _, _ := get("/api/v1/websites"); status != http.StatusOK {
		t.Fatalf("without a schedule: %d", status)
	}
	s.Set(Rule{Method: http.MethodGet, Route: "/websites/{id}", Answers: Answers}, Rule{Method: http.MethodPost})
	if status, _, _ := get("/api/v1/websites"); status != http.StatusOK {
		t.Fatalf("a request no rule matches: %d", status)
	}
	for _, a := range Answers {
		status, header, body := get("/api/v1/websites/12")
		if !strings.Contains(header.Get("X-Debug-Request"), key.Value) {
			t.Errorf("%s: X-Debug-Request %q", a, header.Get("X-Debug-Request"))
		}
		var wantStatus int
		var forms []string
		switch a {
		case FieldErrors:
			wantStatus = http.StatusUnprocessableEntity
			var v struct{ Message map[string][]string }
			if err := json.Unmarshal([]byte(body), &v); err != nil || len(v.Message["Bearer "+key.Value]) != 1 ||
				!strings.Contains(v.Message["domain"][0], key.Value) {
				t.Errorf("%s: %v %s", a, err, body)
			}
			forms = []string{PHPEscape("Bearer "+key.Value, false)}
		case HTMLPage:
			wantStatus, forms = http.StatusBadGateway, []string{html.EscapeString(key.Value), key.Value}
		case PHPBody:
			wantStatus, forms = http.StatusOK, []string{PHPEscape(key.Value, false), PHPEscape(key.Value, true)}
			if json.Valid([]byte(body)) {
				t.Errorf("%s: the body decodes: %s", a, body)
			}
		case Redirect:
			wantStatus = http.StatusFound
			body = header.Get("Location")
			forms = []string{url.PathEscape("Bearer " + key.Value), url.QueryEscape("Bearer " + key.Value)}
		case PasswordJSON:
			wantStatus = http.StatusInternalServerError
			var v struct{ Password string }
			if err := json.Unmarshal([]byte(body), &v); err != nil || !strings.Contains(v.Password, key.Value) {
				t.Errorf("%s: %v %s", a, err, body)
			}
		}
		if status != wantStatus {
			t.Errorf("%s: status %d, want %d", a, status, wantStatus)
		}
		for _, f := range append(forms, "tok-"+key.Core, "/api/v1/websites/12") {
			if !strings.Contains(body, f) && !strings.Contains(body, PHPEscape(f, false)) &&
				!strings.Contains(body, url.QueryEscape(f)) {
				t.Errorf("%s: the answer lacks %q: %s", a, f, body)
			}
		}
	}
	if status, _, _ := get("/api/v1/websites/12"); status != http.StatusNotFound {
		t.Errorf("once the answers are spent, the emulator answers: %d", status)
	}
	if got := s.Unspent(); len(got) != 0 {
		t.Errorf("Unspent: %v", got)
	}
	if got := s.Served(); len(got) != len(Answers) || got[0] != (Served{"GET", "/websites/{id}", FieldErrors}) {
		t.Errorf("Served: %v", got)
	}
	s.Set(Rule{Method: http.MethodDelete, Answers: []Answer{HTMLPage}})
	if got := s.Unspent(); len(got) != 1 || got[0] != "DELETE: "+string(HTMLPage) {
		t.Errorf("Unspent: %v", got)
	}
}

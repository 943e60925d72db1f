package apprecord

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestPairs_keepOrderAndNull(t *testing.T) {
	t.Parallel()
	var c struct {
		Form  Pairs `json:"form"`
		Query Pairs `json:"query"`
	}
	if err := json.Unmarshal([]byte(`{"form": {"b": "1", "a": "x\ny", "c": ""}, "query": null}`), &c); err != nil {
		t.Fatal(err)
	}
	want := Pairs{{"b", "1"}, {"a", "x\ny"}, {"c", ""}}
	if len(c.Form) != len(want) {
		t.Fatalf("form %v", c.Form)
	}
	for i := range want {
		if c.Form[i] != want[i] {
			t.Fatalf("form %v, want %v", c.Form, want)
		}
	}
	if c.Query != nil {
		t.Errorf("query %v, want nil", c.Query)
	}
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != `{"form":{"b":"1","a":"x\ny","c":""},"query":null}` {
		t.Errorf("marshalled %s", got)
	}
	// A request sends the fields in that order.
	n := NewNormaliser()
	req, err := n.Request(t.Context(), "http://h/", "k", Call{Method: "POST", Path: "/websites", Form: c.Form,
		Query: Pairs{{"z", "1"}, {"a", "&"}}})
	if err != nil {
		t.Fatal(err)
	}
	if req.URL.String() != "http://h/api/v1/websites?z=1&a=%26" {
		t.Errorf("url %s", req.URL)
	}
	buf := new(strings.Builder)
	body, _ := req.GetBody()
	_, _ = io.Copy(buf, body)
	if buf.String() != "b=1&a=x%0Ay&c=" {
		t.Errorf("form body %q", buf.String())
	}
	if req.Header.Get("Accept") != "application/json" || req.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("headers %v", req.Header)
	}
}

func TestNormaliser_numbersIdsAndReduces(t *testing.T) {
	t.Parallel()
	n := NewNormaliser()
	store := Call{Method: http.MethodPost, Path: "/websites"}
	answer := func(c Call, status int, body string) string {
		t.Helper()
		out, err := n.Answer(c, status, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	// A refused store numbers nothing; stores answered 201 count from 0.
	answer(store, 422, `{"message":{"domain":["Invalid domain name."]},"status":422}`)
	if got := answer(store, 201, `{"data":{"id":41,"domain":"a.example","created_at":"x","updated_at":"y"},"status":200}`); got != `{"data":{"domain":"a.example","id":"#0"},"status":200}` {
		t.Errorf("store: %s", got)
	}
	answer(store, 201, `{"data":{"id":7},"status":200}`)
	if p, err := n.Path("/websites/#1"); err != nil || p != "/websites/7" {
		t.Errorf("path %q %v", p, err)
	}
	if _, err := n.Path("/websites/#2"); err == nil {
		t.Error("a path past the websites created is no error")
	}
	list := `{"data":[{"id":41},{"id":3}],"links":{"first":"u"},"meta":{"current_page":1,"from":1,"last_page":1,` +
		`"links":[],"path":"u","per_page":10,"to":2,"total":2},"status":200}`
	want := `{"data":[{"id":"#0"},{"id":"#?"}],"meta":{"current_page":1,"from":1,"last_page":1,"per_page":10,"to":2,"total":2},"status":200}`
	if got := answer(Call{Method: http.MethodGet, Path: "/websites"}, 200, list); got != want {
		t.Errorf("list:\n%s\nwant\n%s", got, want)
	}
	if got := answer(Call{Method: http.MethodDelete, Path: "/websites/#1"}, 200, `{"id":7,"object":"website","deleted":true,"status":200}`); got != `{"deleted":true,"id":"#1","object":"website","status":200}` {
		t.Errorf("delete: %s", got)
	}
	if _, err := n.Answer(store, 500, []byte("<html>")); err == nil {
		t.Error("an HTML answer is no error")
	}
	// An id that is no JSON integer fails, naming the call, wherever it is.
	for _, body := range []string{`{"data":{"id":"7"}}`, `{"data":[{"id":1},{"id":1.5}]}`, `{"website_id":true}`, `{"id":1e3}`} {
		del := Call{Method: http.MethodDelete, Path: "/websites/#1"}
		if _, err := n.Answer(del, 200, []byte(body)); err == nil || !strings.Contains(err.Error(), "DELETE /websites/#1") {
			t.Errorf("%s: err %v, want one naming the call", body, err)
		}
	}
	if got := answer(Call{Method: http.MethodGet, Path: "/x"}, 200, `{"website_id":null}`); got != `{"website_id":null}` {
		t.Errorf("a null id: %s", got)
	}
}

// The application's ids are JSON integers. A server that answers an id as a
// string ("7") differs from it for every client that decodes the id as a
// number, so the normalisation must not make the two answers equal (it
// does: "#k" stands for both; seen by mutating the emulator's record and
// delete answers to string ids, and the replay passed all three files).
func TestNormaliser_idTypeIsNotHidden(t *testing.T) {
	t.Parallel()
	store := Call{Method: http.MethodPost, Path: "/websites"}
	asInt, errInt := NewNormaliser().Answer(store, 201, []byte(`{"data":{"id":7},"status":200}`))
	asString, errString := NewNormaliser().Answer(store, 201, []byte(`{"data":{"id":"7"},"status":200}`))
	if errInt != nil {
		t.Fatal(errInt)
	}
	if errString == nil && string(asInt) == string(asString) {
		t.Errorf("an integer id and a string id normalise alike: %s", asInt)
	}
}

// Every domain a store can get accepted holds the sequence's tag
// "df<seed>", as record-app-answers and the emulator's README promise: the
// domain rule is unique across ALL users of an installation, so a tagless
// accepted domain (127.0.0.1) is held, while the recording runs, against
// every other user, and where another user already holds it the store is
// refused "already taken" and the recording no longer replays.
func TestGenerator_acceptedDomainsHoldTheTag(t *testing.T) {
	t.Parallel()
	g := NewGenerator(4, 1) // accepted values only
	for i := range 3000 {
		c := g.Next(0)
		if c.Method != http.MethodPost {
			continue
		}
		for _, kv := range c.Form {
			if kv.Key == "domain" && !strings.Contains(strings.ToLower(kv.Value), "df4") {
				t.Fatalf("call %d stores domain %q, without df4", i, kv.Value)
			}
		}
	}
}

// An answer with anything but white space after its JSON value (a PHP
// warning printed after the JSON, a second document) is no JSON to a
// client: the provider's json.Unmarshal refuses it. The normaliser reads
// only the first value and drops the rest, so the recorder would record
// such an answer of the application as clean, and the replay passes an
// emulator that appends bytes (seen by mutating jsonBodyResponse to append
// `<br />` or `{"status":500}`: all three files replay equal).
func TestNormaliser_trailingBytesAreNotHidden(t *testing.T) {
	t.Parallel()
	show := Call{Method: http.MethodGet, Path: "/websites/0"}
	for _, body := range []string{
		`{"message":"Resource not found.","status":404}<br />` + "\n<b>Warning</b>: x",
		`{"message":"Resource not found.","status":404}{"status":500}`,
	} {
		if got, err := NewNormaliser().Answer(show, 404, []byte(body)); err == nil {
			t.Errorf("%q normalised to %s, without error", body, got)
		}
	}
	if _, err := NewNormaliser().Answer(show, 404, []byte(`{"message":"Resource not found.","status":404}`+"\n")); err != nil {
		t.Errorf("a final line break: %v", err)
	}
}

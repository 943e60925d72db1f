package client_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The secrets of these tests hold every character that escapes differently
// in JSON (Go's and PHP's), in URLs and in HTML, and a space.
const (
	echoKey    = `key/+="\<&?# Zq7Wm3Kd9Lp2`
	echoHeader = `hdr/+="\<&?# Vx4Rt8Yn1Bc6 ` // a trailing space
)

// echoWindows are pieces of the secrets' cores: none may appear anywhere.
var echoWindows = []string{"Zq7Wm3Kd9L", "Vx4Rt8Yn1B", "q7Wm3Kd9Lp", "x4Rt8Yn1Bc"}

// phpEscape is s as PHP's json_encode writes it inside a string.
func phpEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `/`, `\/`)
	return r.Replace(s)
}

// TestSecrets_echoedInEveryForm answers each request by echoing the API key
// and the header value in one of the places an answer can carry them, and
// checks that neither reaches the error's text or any field of APIError.
func TestSecrets_echoedInEveryForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, key, hdr string)
	}{
		{"422 field message", func(w http.ResponseWriter, key, hdr string) {
			w.WriteHeader(422)
			fmt.Fprintf(w, `{"message":{"domain":["The token Bearer %s and %s are invalid."]}}`, phpEscape(key), phpEscape(hdr))
		}},
		{"422 field name", func(w http.ResponseWriter, key, hdr string) {
			w.WriteHeader(422)
			fmt.Fprintf(w, `{"message":{"%s":["invalid"],"%s":["also"]}}`, phpEscape(key), phpEscape(hdr))
		}},
		{"undecodable 2xx, PHP escaping", func(w http.ResponseWriter, key, hdr string) {
			fmt.Fprintf(w, `{"data":{"id":"%s","x":"%s"`, phpEscape(key), phpEscape(hdr))
		}},
		{"undecodable 2xx, cut", func(w http.ResponseWriter, key, _ string) {
			fmt.Fprintf(w, `%s%s`, strings.Repeat("x", 100), phpEscape(key))
		}},
		{"redirect, query-escaped", func(w http.ResponseWriter, key, hdr string) {
			w.Header().Set("Location", "https://elsewhere.example/api/v1/?k="+url.QueryEscape(key)+"&h="+url.QueryEscape(hdr))
			w.WriteHeader(302)
		}},
		{"redirect, path-escaped", func(w http.ResponseWriter, key, hdr string) {
			w.Header().Set("Location", "https://elsewhere.example/"+url.PathEscape(key)+"/"+url.PathEscape(hdr)+"/login")
			w.WriteHeader(302)
		}},
		{"HTML 502", func(w http.ResponseWriter, key, hdr string) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			fmt.Fprintf(w, "<p>%s</p><p>%s</p>", htmlEscape(key), htmlEscape(hdr))
		}},
		{"5xx JSON with a password member", func(w http.ResponseWriter, key, hdr string) {
			w.WriteHeader(500)
			fmt.Fprintf(w, `{"error":{"password":"%s","h":"%s"}}`, phpEscape(key), phpEscape(hdr))
		}},
		{"404 of another shape", func(w http.ResponseWriter, key, hdr string) {
			w.WriteHeader(404)
			fmt.Fprintf(w, `{"message":"no route for %s %s"}`, phpEscape(key), phpEscape(hdr))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				tc.answer(w, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), r.Header.Get("X-Token"))
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(srv.URL, echoKey, client.Options{Headers: map[string]string{"X-Token": echoHeader}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetWebsite(ctx(t), 1)
			if err == nil {
				t.Fatal("want an error")
			}
			for _, channel := range errorChannels(err) {
				for _, w := range echoWindows {
					if strings.Contains(channel.text, w) {
						t.Errorf("%s holds a secret: %q", channel.name, channel.text)
					}
				}
			}
		})
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

type channel struct{ name, text string }

// errorChannels is everything of err a caller may print: its text and every
// field of the APIError in its chain.
func errorChannels(err error) []channel {
	out := []channel{{"the error's text", err.Error()}}
	var e *client.APIError
	if errors.As(err, &e) {
		out = append(out,
			channel{"APIError.Message", e.Message},
			channel{"APIError.Snippet", e.Snippet},
			channel{"APIError.Location", e.Location},
			channel{"APIError.BaseURL", e.BaseURL},
			channel{"APIError.Path", e.Path})
		for k, msgs := range e.Fields {
			out = append(out, channel{"APIError.Fields' name", k})
			for _, m := range msgs {
				out = append(out, channel{"APIError.Fields[" + k + "]", m})
			}
		}
		for _, k := range e.FieldNames() {
			out = append(out, channel{"APIError.FieldNames()", k})
		}
		if e.Err != nil {
			out = append(out, channel{"APIError.Err", e.Err.Error()})
		}
	}
	return out
}

// A header value with spaces at either end is sent trimmed (as Go's
// transport writes it); the trimmed value is what the redactor must know.
func TestSecrets_headerTrimmed(t *testing.T) {
	t.Parallel()
	var seen string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("X-Token")
		w.WriteHeader(500)
		fmt.Fprintf(w, `{"message":"bad token %s."}`, phpEscape(seen))
	}))
	t.Cleanup(srv.Close)
	const value = "  spaced-token-Hq2Lw9Xe  "
	c, err := client.New(srv.URL, "another-key-8Jd3", client.Options{Headers: map[string]string{"X-Token": value}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetWebsite(ctx(t), 1)
	if seen != strings.TrimSpace(value) {
		t.Errorf("the server saw %q, want the trimmed value", seen)
	}
	if err == nil || strings.Contains(err.Error(), "Hq2Lw9Xe") {
		t.Errorf("error = %v: want one without the header's value", err)
	}
}

package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func newClient(t *testing.T, baseURL, key string) *client.Client {
	t.Helper()
	c, err := client.New(baseURL, key, client.Options{Version: "1.2.3", UserAgentExtra: "Terraform/1.8.5"})
	if err != nil {
		t.Fatalf("client.New: %v", err)
	}
	return c
}

func newEnv(t *testing.T, opts emulator.Options) (*emulator.Server, *client.Client) {
	t.Helper()
	srv := emulator.NewServer(t, opts)
	key := emulator.DefaultAPIKey
	if len(opts.Users) > 0 {
		key = opts.Users[0].Key
	}
	return srv, newClient(t, srv.URL, key)
}

func ctx(t *testing.T) context.Context {
	t.Helper()
	// A guard against a hang, not a time limit: under -race on a busy
	// two-core machine a test of 5000 websites takes over 30 seconds.
	c, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return c
}

func TestNewValidatesBaseURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "https://a.example.com", want: "https://a.example.com/api/v1"},
		{in: "https://a.example.com/", want: "https://a.example.com/api/v1"},
		{in: "https://example.com/analytics", want: "https://example.com/analytics/api/v1"},
		{in: "https://example.com/analytics/api/v1/", want: "https://example.com/analytics/api/v1"},
		{in: "http://127.0.0.1:8099", want: "http://127.0.0.1:8099/api/v1"},
		{in: "", err: "empty"},
		{in: "example.com", err: "must start with https://"},
		{in: "ftp://example.com", err: "must start with https://"},
		{in: "https://user:pw@example.com", err: "credentials"},
		{in: "https://admin:2024/Pw-hidden@analytics.example.com", err: "credentials"},
		{in: "https://admin:2024?Pw-hidden@analytics.example.com", err: "credentials"},
		{in: "https://analytics.example.com:20%zz/Pw-hidden", err: "not a valid URL"},
		{in: "https://example.com?x=1", err: "query"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			c, err := client.New(tc.in, "key", client.Options{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("New(%q) error = %v, want one containing %q", tc.in, err, tc.err)
				}
				if strings.Contains(err.Error(), "Pw-hidden") || strings.Contains(err.Error(), "2024") {
					t.Errorf("New(%q) error repeats the value: %v", tc.in, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.BaseURL(); got != tc.want {
				t.Errorf("BaseURL() = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := client.New("https://example.com", " ", client.Options{}); err == nil {
		t.Error("New accepted an empty API key")
	}
}

func TestCRUD(t *testing.T) {
	t.Parallel()
	srv, c := newEnv(t, emulator.Options{})
	pw := "hunter2-hunter2"
	res, err := c.CreateWebsite(ctx(t), client.WebsiteInput{
		Domain: "example.com", Privacy: client.PrivacyPassword, Password: &pw, Email: true, ExcludeBots: true,
		ExcludeParams: []string{"utm_source", "fbclid"}, ExcludeIPs: []string{"1.2.3.4", "10.0.0.0/8"},
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	created := res.Website
	if created.ID <= 0 || created.Domain != "example.com" || created.PrivacyValue() != 2 || !created.EmailValue() ||
		!created.ExcludeBotsValue() || !created.PasswordSet {
		t.Errorf("create returned %+v", created)
	}
	if got := strings.Join(created.ExcludeIPs, ","); got != "1.2.3.4,10.0.0.0/8" {
		t.Errorf("create exclude_ips = %q", got)
	}
	stored, _ := srv.Website(created.ID)
	if stored.ExcludeParams != "utm_source\nfbclid" || stored.Password != pw {
		t.Errorf("stored exclude_params=%q / password match=%v", stored.ExcludeParams, stored.Password == pw)
	}

	got, err := c.GetWebsite(ctx(t), created.ID)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if got.ID != created.ID || got.PrivacyValue() != 2 || got.CreatedAt.IsZero() || got.Favorite == nil {
		t.Errorf("get returned %+v", got)
	}

	empty := ""
	updated, err := c.UpdateWebsite(ctx(t), created.ID, client.WebsiteInput{Privacy: client.PrivacyPrivate, Password: &empty})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if updated.PrivacyValue() != 1 || updated.PasswordSet || updated.EmailValue() || updated.ExcludeBotsValue() || len(updated.ExcludeIPs) != 0 {
		t.Errorf("update returned %+v", updated)
	}
	if err := c.DeleteWebsite(ctx(t), created.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := c.GetWebsite(ctx(t), created.ID); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("get after delete: %v, want ErrNotFound", err)
	}
	if err := c.DeleteWebsite(ctx(t), created.ID); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("second delete: %v, want ErrNotFound", err)
	}
	if n := srv.Stats().KeyOutsideHeader; n != 0 {
		t.Errorf("the key was sent outside the Authorization header %d times", n)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	const other = "other-user-key"
	srv, c := newEnv(t, emulator.Options{Users: []emulator.User{
		{Key: emulator.DefaultAPIKey, WebsiteLimit: 2}, {Key: other}, {Key: "noapi", NoAPIAccess: true},
	}})
	foreign := srv.Seed(other, emulator.Website{Domain: "theirs.example.com"})
	mine := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "mine.example.com"})

	for _, tc := range []struct {
		name   string
		call   func(c *client.Client) error
		client *client.Client
		kind   error
		status int
		msg    string
		field  string
	}{
		{name: "show unknown id", call: func(c *client.Client) error { _, err := c.GetWebsite(ctx(t), 9999); return err },
			kind: client.ErrNotFound, status: 404, msg: "Resource not found."},
		{name: "show someone else's id", call: func(c *client.Client) error { _, err := c.GetWebsite(ctx(t), foreign.ID); return err },
			kind: client.ErrNotFound, status: 404},
		{name: "delete someone else's id", call: func(c *client.Client) error { return c.DeleteWebsite(ctx(t), foreign.ID) },
			kind: client.ErrNotFound, status: 404},
		{name: "update unknown id is a 500", call: func(c *client.Client) error {
			_, err := client.UpdateWebsiteAttempt(c, ctx(t), 9999, client.WebsiteInput{})
			return err
		}, kind: client.ErrServer, status: 500, msg: "Server Error"},
		{name: "domain taken by another user", call: func(c *client.Client) error {
			_, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "theirs.example.com"})
			return err
		}, kind: client.ErrValidation, status: 422, msg: "The domain has already been taken.", field: "domain"},
		{name: "invalid domain", call: func(c *client.Client) error {
			_, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "example.com/path"})
			return err
		}, kind: client.ErrValidation, status: 422, msg: "Invalid domain name.", field: "domain"},
		{name: "password required", call: func(c *client.Client) error {
			_, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "pw.example.com", Privacy: 2})
			return err
		}, kind: client.ErrValidation, status: 422, field: "password"},
		{name: "wrong key", client: newClient(t, srv.URL, "wrong"), call: func(c *client.Client) error {
			_, err := c.ListWebsites(ctx(t), client.ListOptions{})
			return err
		}, kind: client.ErrUnauthenticated, status: 401, msg: "Unauthenticated."},
		{name: "no API access", client: newClient(t, srv.URL, "noapi"), call: func(c *client.Client) error {
			_, err := c.GetWebsite(ctx(t), mine.ID)
			return err
		}, kind: client.ErrForbidden, status: 403, msg: "You don't have access to this feature."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl := c
			if tc.client != nil {
				cl = tc.client
			}
			err := tc.call(cl)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("error = %v, want %v", err, tc.kind)
			}
			apiErr, ok := client.AsAPIError(err)
			if !ok {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if apiErr.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", apiErr.StatusCode, tc.status)
			}
			if tc.msg != "" && apiErr.Message != tc.msg {
				t.Errorf("message = %q, want %q", apiErr.Message, tc.msg)
			}
			if tc.field != "" && len(apiErr.Fields[tc.field]) == 0 {
				t.Errorf("fields = %v, want messages for %q", apiErr.Fields, tc.field)
			}
			if strings.Contains(err.Error(), emulator.DefaultAPIKey) {
				t.Errorf("the error contains the API key: %v", err)
			}
		})
	}

	// the website limit (2): one seeded, one more allowed, the third refused
	if _, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "two.example.com"}); err != nil {
		t.Fatal(err)
	}
	_, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "three.example.com"})
	if apiErr, ok := client.AsAPIError(err); !ok || !errors.Is(err, client.ErrValidation) ||
		strings.Join(apiErr.Fields["domain"], "") != "You created too many websites." {
		t.Errorf("create over the limit: %v", err)
	}
}

// Without Accept: application/json the real server redirects to /login; the
// client sends the header, but must still classify such a redirect.
func TestRedirectToLoginIsUnauthenticated(t *testing.T) {
	t.Parallel()
	var sawAccept, sawAuth string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAccept, sawAuth = r.Header.Get("Accept"), r.Header.Get("Authorization")
		http.Redirect(w, r, "https://elsewhere.example/login", http.StatusFound)
	}))
	t.Cleanup(hs.Close)
	c := newClient(t, hs.URL, "secret-key")
	_, err := c.GetWebsite(ctx(t), 1)
	if !errors.Is(err, client.ErrUnauthenticated) {
		t.Fatalf("error = %v, want ErrUnauthenticated", err)
	}
	if sawAccept != "application/json" || sawAuth != "Bearer secret-key" {
		t.Errorf("headers: Accept=%q Authorization set=%v", sawAccept, sawAuth != "")
	}
	if !strings.Contains(err.Error(), "302") {
		t.Errorf("error %q does not name the status", err)
	}
}

func TestRateLimited(t *testing.T) {
	t.Parallel()
	srv, c := newEnv(t, emulator.Options{RateLimit: 2, RateWindow: time.Hour})
	_ = srv
	for range 2 {
		if _, err := c.ListWebsites(ctx(t), client.ListOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.ListWebsites(ctx(t), client.ListOptions{})
	apiErr, ok := client.AsAPIError(err)
	if !ok || !errors.Is(err, client.ErrRateLimited) {
		t.Fatalf("error = %v, want ErrRateLimited", err)
	}
	if apiErr.RetryAfter < 59*time.Minute || apiErr.RetryAfter > time.Hour {
		t.Errorf("RetryAfter = %s, want about an hour", apiErr.RetryAfter)
	}
}

func TestRetryAfterHeaders(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	for _, tc := range []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"http date", http.Header{"Retry-After": {now.Add(9 * time.Second).UTC().Format(http.TimeFormat)}}, 9 * time.Second},
		{"reset", http.Header{"X-Ratelimit-Reset": {fmt.Sprint(now.Unix() + 12)}}, 12 * time.Second},
		{"reset in the past", http.Header{"X-Ratelimit-Reset": {fmt.Sprint(now.Unix() - 12)}}, 0},
		{"none", http.Header{}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := client.RetryAfter(tc.h, now); got != tc.want {
				t.Errorf("RetryAfter = %s, want %s", got, tc.want)
			}
		})
	}
}

// stubServer answers every request with status and body.
func stubServer(t *testing.T, status int, body string) *client.Client {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(hs.Close)
	return newClient(t, hs.URL, "the-secret-key")
}

func TestUndecodableAndUnexpectedAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		body   string
		kind   error
		want   string
	}{
		{"html page", 200, "<html><body>Welcome the-secret-key</body></html>", client.ErrUndecodable, `body starts with "<html><body>Welcome [REDACTED]`},
		{"truncated json", 200, `{"data":{"id":1,"domain":"a.b`, client.ErrUndecodable, "could not decode"},
		{"no data", 200, `{"status":200}`, client.ErrUndecodable, `expected a website record under "data"`},
		{"bad privacy type", 200, `{"data":{"id":1,"domain":"a.com","privacy":[1]}}`, client.ErrUndecodable, "field privacy: expected an integer"},
		{"html 500", 500, "<html>oops</html>", client.ErrServer, "HTTP 500"},
		{"405", 405, `{"message":"The GET method is not supported."}`, client.ErrServer, "HTTP 405: The GET method is not supported."},
		{"502 from a proxy", 502, "Bad Gateway", client.ErrServer, "HTTP 502"},
		{"422 not json", 422, "nope", client.ErrUndecodable, "HTTP 422"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := stubServer(t, tc.status, tc.body)
			_, err := c.GetWebsite(ctx(t), 1)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("error = %v, want %v", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "the-secret-key") {
				t.Errorf("error leaks the key: %q", err)
			}
		})
	}
}

func TestLooseTypes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                     string
		record                   string
		privacy, email, bots     *int
		passwordSet              bool
		favorite                 *bool
		ips                      string
		ipsNull, wantCreatedZero bool
	}{
		{name: "integers (show)", record: `"privacy":2,"email":1,"exclude_bots":0,"password":true,"favorite":false,"exclude_ips":"1.1.1.1\n2.2.2.2"`,
			privacy: ptr(2), email: ptr(1), bots: ptr(0), passwordSet: true, favorite: ptr(false), ips: "1.1.1.1,2.2.2.2"},
		{name: "strings (store echo)", record: `"privacy":"1","email":"0","exclude_bots":"1","password":false,"exclude_ips":"a\r\n\r\nb\r\n"`,
			privacy: ptr(1), email: ptr(0), bots: ptr(1), ips: "a,b"},
		{name: "nulls, old build", record: `"privacy":null,"email":null,"exclude_bots":null,"password":false,"exclude_ips":null`,
			ipsNull: true},
		{name: "booleans", record: `"privacy":false,"email":true,"exclude_bots":true,"password":1,"favorite":1`,
			privacy: ptr(0), email: ptr(1), bots: ptr(1), passwordSet: true, favorite: ptr(true), ipsNull: true},
		{name: "id as string, unknown fields", record: `"privacy":"","extra":{"x":1},"exclude_ips":""`, ips: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			id := `1`
			if strings.HasPrefix(tc.name, "id as string") {
				id = `"1"`
			}
			body := `{"data":{"id":` + id + `,"domain":"a.com",` + tc.record + `,"created_at":"2024-10-13T13:09:15.000000Z"},"status":200}`
			w, err := stubServer(t, 200, body).GetWebsite(ctx(t), 1)
			if err != nil {
				t.Fatal(err)
			}
			eq := func(name string, got, want *int) {
				if (got == nil) != (want == nil) || (got != nil && *got != *want) {
					t.Errorf("%s = %v, want %v", name, deref(got), deref(want))
				}
			}
			eq("privacy", w.Privacy, tc.privacy)
			eq("email", w.Email, tc.email)
			eq("exclude_bots", w.ExcludeBots, tc.bots)
			if w.PasswordSet != tc.passwordSet {
				t.Errorf("PasswordSet = %v", w.PasswordSet)
			}
			if (w.Favorite == nil) != (tc.favorite == nil) || (w.Favorite != nil && *w.Favorite != *tc.favorite) {
				t.Errorf("Favorite = %v, want %v", w.Favorite, tc.favorite)
			}
			if got := strings.Join(w.ExcludeIPs, ","); got != tc.ips {
				t.Errorf("ExcludeIPs = %q, want %q", got, tc.ips)
			}
			if (w.ExcludeIPs == nil) != tc.ipsNull {
				t.Errorf("ExcludeIPs nil = %v, want %v", w.ExcludeIPs == nil, tc.ipsNull)
			}
			if w.ID != 1 || w.CreatedAt.IsZero() {
				t.Errorf("ID = %d CreatedAt = %v", w.ID, w.CreatedAt)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestSplitLines(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                          "",
		"a":                         "a",
		"a\nb":                      "a,b",
		"a\r\nb\r\n":                "a,b",
		"\r\n\r\na\r\r\nb\n\n":      "a,b",
		"  a  \n \n b":              "  a  , , b", // entries are not trimmed: the server never matches them
		"a\rb":                      "a,b",
		"1.2.3.4 \n5.6.7.8":         "1.2.3.4 ,5.6.7.8",
		"10.0.0.0/8\r\n2001:db8::1": "10.0.0.0/8,2001:db8::1",
	} {
		if got := strings.Join(client.SplitLines(in), ","); got != want {
			t.Errorf("SplitLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBaseURLWithPathPrefix(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{PathPrefix: "/analytics"})
	if !strings.HasSuffix(srv.URL, "/analytics") {
		t.Fatalf("emulator URL %q has no prefix", srv.URL)
	}
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	res, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "prefixed.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWebsite(ctx(t), res.Website.ID); err != nil {
		t.Fatal(err)
	}
	// without the prefix, the same server answers Laravel's route 404:
	// not the API's "not found"
	bare := newClient(t, strings.TrimSuffix(srv.URL, "/analytics"), emulator.DefaultAPIKey)
	if _, err := bare.GetWebsite(ctx(t), res.Website.ID); !errors.Is(err, client.ErrNotAPI) || !strings.Contains(err.Error(), "could not be found") {
		t.Errorf("without the prefix: %v, want ErrNotAPI", err)
	}
}

func TestHeadersAndForm(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []*http.Request
	var bodies []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		seen = append(seen, r)
		bodies = append(bodies, r.PostForm.Encode())
		mu.Unlock()
		w.WriteHeader(200)
		if r.Method == http.MethodDelete {
			_, _ = w.Write([]byte(`{"id":1,"object":"website","deleted":true,"status":200}`))
			return
		}
		_, _ = w.Write([]byte(`{"data":{"id":1,"domain":"a.com"},"status":200}`))
	}))
	t.Cleanup(hs.Close)
	c := newClient(t, hs.URL+"/prefix/", "k3y")
	pw := "p"
	_, _ = c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "a.com", Privacy: 2, Password: &pw, ExcludeIPs: []string{"1.1.1.1", "2.2.2.2"}})
	_, _ = c.UpdateWebsite(ctx(t), 1, client.WebsiteInput{Domain: "ignored.com"})
	_ = c.DeleteWebsite(ctx(t), 1)
	if len(seen) != 3 {
		t.Fatalf("saw %d requests", len(seen))
	}
	for _, r := range seen {
		if r.Header.Get("Authorization") != "Bearer k3y" || r.Header.Get("Accept") != "application/json" ||
			r.Header.Get("User-Agent") != "terraform-provider-analytics/1.2.3 Terraform/1.8.5" {
			t.Errorf("%s headers: %v", r.Method, r.Header)
		}
		if strings.Contains(r.URL.RawQuery, "k3y") {
			t.Errorf("the key is in the query string")
		}
		if !strings.HasPrefix(r.URL.Path, "/prefix/api/v1/websites") {
			t.Errorf("path %q", r.URL.Path)
		}
	}
	if seen[0].Method != http.MethodPost || seen[0].Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("create: %s %s", seen[0].Method, seen[0].Header.Get("Content-Type"))
	}
	wantCreate := "domain=a.com&email=0&exclude_bots=0&exclude_ips=1.1.1.1%0A2.2.2.2&exclude_params=&password=p&privacy=2"
	if bodies[0] != wantCreate {
		t.Errorf("create body %q, want %q", bodies[0], wantCreate)
	}
	if seen[1].Method != http.MethodPut || strings.Contains(bodies[1], "domain=") || strings.Contains(bodies[1], "password") {
		t.Errorf("update: %s body %q", seen[1].Method, bodies[1])
	}
	if seen[2].Method != http.MethodDelete {
		t.Errorf("delete method %s", seen[2].Method)
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	srv, c := newEnv(t, emulator.Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: fmt.Sprintf("c%d.example.com", i)})
			if err == nil {
				_, err = c.GetWebsite(ctx(t), res.Website.ID)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := len(srv.Websites()); n != 40 {
		t.Errorf("%d websites, want 40", n)
	}
}

func TestContextAndTimeout(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-block }))
	t.Cleanup(func() { close(block); hs.Close() })
	c, err := client.New(hs.URL, "k", client.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := c.GetWebsite(context.Background(), 1); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("timeout: err=%v after %s", err, time.Since(start))
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newClient(t, hs.URL, "k").GetWebsite(cctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// The store response's shape as the real server sends it decodes.
func TestDecodesDocumentedRecord(t *testing.T) {
	t.Parallel()
	doc := `{"id": 12, "domain": "example.com", "privacy": 0, "email": 0, "password": false,
"exclude_bots": 1, "exclude_ips": "1.2.3.4\n5.6.7.8", "favorite": false,
"favorited_at": null, "created_at": "2024-10-13T13:09:15.000000Z", "updated_at": "2024-10-13T13:09:15.000000Z"}`
	var w client.Website
	if err := json.Unmarshal([]byte(doc), &w); err != nil {
		t.Fatal(err)
	}
	if w.ID != 12 || w.PrivacyValue() != 0 || !w.ExcludeBotsValue() || len(w.ExcludeIPs) != 2 ||
		w.CreatedAt.Format(time.RFC3339) != "2024-10-13T13:09:15Z" {
		t.Errorf("decoded %+v", w)
	}
}

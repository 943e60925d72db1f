package client_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const recordJSON = `{"data":{"id":7,"domain":"example.com","privacy":0,"email":0,"password":false,"exclude_bots":1,` +
	`"exclude_ips":null,"created_at":"2024-10-13T13:09:15.000000Z","updated_at":"2024-10-13T13:09:15.000000Z"},"status":200}`

// testLogger records log messages.
type testLogger struct {
	mu   sync.Mutex
	msgs []string
}

func (l *testLogger) add(level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, fmt.Sprintf("%s %s %v", level, msg, fields))
}

func (l *testLogger) Debug(_ context.Context, msg string, f map[string]any) { l.add("DEBUG", msg, f) }
func (l *testLogger) Info(_ context.Context, msg string, f map[string]any)  { l.add("INFO", msg, f) }
func (l *testLogger) Warn(_ context.Context, msg string, f map[string]any)  { l.add("WARN", msg, f) }

func (l *testLogger) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.msgs, "\n")
}

// fastRetry retries quickly, as the tests need.
func fastRetry(n int) *client.RetryOptions {
	return &client.RetryOptions{MaxRetries: n, WaitMin: 5 * time.Millisecond, WaitMax: 20 * time.Millisecond}
}

func newRetryClient(t *testing.T, baseURL, key string, retry *client.RetryOptions, log client.Logger) *client.Client {
	t.Helper()
	c, err := client.New(baseURL, key, client.Options{Retry: retry, Logger: log, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// scripted serves answers from a script, one per request, and counts
// requests; after the script, every request gets the last answer.
type scripted struct {
	mu    sync.Mutex
	calls int
	steps []func(w http.ResponseWriter, r *http.Request)
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	i := min(s.calls, len(s.steps)-1)
	s.calls++
	s.mu.Unlock()
	s.steps[i](w, r)
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func answer(status int, body string, headers ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func reset(w http.ResponseWriter, _ *http.Request) {
	h, ok := w.(http.Hijacker)
	if !ok {
		panic("no http.Hijacker")
	}
	conn, _, err := h.Hijack()
	if err != nil {
		panic(err)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

func serve(t *testing.T, steps ...func(http.ResponseWriter, *http.Request)) (*scripted, string) {
	t.Helper()
	s := &scripted{steps: steps}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

const serverError = `{"message":"Server Error"}`

func TestRetryPolicyByMethodAndStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method string
		name   string // what the first answer is
		first  func(http.ResponseWriter, *http.Request)
		retry  bool
	}{
		{"GET", "500", answer(500, serverError), true},
		{"GET", "502", answer(502, "<html>Bad Gateway</html>"), true},
		{"GET", "503", answer(503, `{"message":"Service Unavailable"}`), true},
		{"GET", "504", answer(504, ""), true},
		{"GET", "429 with Retry-After", answer(429, `{"message":"Too Many Attempts."}`, "Retry-After", "0"), true},
		{"GET", "200 with a spoiled body", answer(200, `{"data":{"id":7,"dom`), true},
		{"GET", "connection reset", reset, true},
		{"GET", "404", answer(404, `{"message":"The route x could not be found."}`), false},
		{"GET", "401", answer(401, `{"message":"Unauthenticated."}`), false},
		{"PUT", "500", answer(500, serverError), false}, // unknown id on the real server
		{"PUT", "502", answer(502, ""), true},
		{"PUT", "connection reset", reset, true},
		{"PUT", "200 with a spoiled body", answer(200, `<br />`), true},
		{"DELETE", "500", answer(500, serverError), true},
		{"DELETE", "connection reset", reset, true},
		{"POST", "500", answer(500, serverError), false},
		{"POST", "502", answer(502, ""), false},
		{"POST", "503", answer(503, ""), false},
		{"POST", "connection reset", reset, false},
		{"POST", "201 with a spoiled body", answer(201, `{"data":{"id":7,"dom`), false},
		{"POST", "429 with Retry-After", answer(429, `{"message":"Too Many Attempts."}`, "Retry-After", "0"), true},
		{"POST", "422", answer(422, `{"message":{"domain":["The domain has already been taken."]},"status":422}`), false},
	} {
		t.Run(tc.method+" "+tc.name, func(t *testing.T) {
			t.Parallel()
			ok := answer(200, recordJSON)
			if tc.method == "POST" {
				ok = answer(201, recordJSON)
			}
			if tc.method == "DELETE" {
				ok = answer(200, `{"id":7,"object":"website","deleted":true,"status":200}`)
			}
			s, u := serve(t, tc.first, ok)
			c := newRetryClient(t, u, "key", fastRetry(3), nil)
			var err error
			in := client.WebsiteInput{Domain: "example.com"}
			switch tc.method {
			case "GET":
				_, err = c.GetWebsite(ctx(t), 7)
			case "PUT":
				_, err = client.UpdateWebsiteAttempt(c, ctx(t), 7, in)
			case "DELETE":
				err = c.DeleteWebsite(ctx(t), 7)
			case "POST":
				_, err = client.CreateWebsiteAttempt(c, ctx(t), in)
			}
			want := map[bool]int{true: 2, false: 1}[tc.retry]
			if got := s.count(); got != want {
				t.Errorf("%d requests, want %d (err %v)", got, want, err)
			}
			if tc.retry && err != nil {
				t.Errorf("retried, but failed: %v", err)
			}
			if !tc.retry && err == nil {
				t.Error("not retried, but succeeded")
			}
		})
	}
}

func TestRetryGivesUpAfterMaxRetries(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(503, `{"message":"Service Unavailable"}`))
	log := &testLogger{}
	c := newRetryClient(t, u, "secret-key-0123456789", fastRetry(2), log)
	_, err := c.GetWebsite(ctx(t), 7)
	apiErr, ok := client.AsAPIError(err)
	if !ok || !errors.Is(err, client.ErrServer) || apiErr.StatusCode != 503 || apiErr.Attempts != 3 {
		t.Fatalf("err = %#v", err)
	}
	if s.count() != 3 {
		t.Errorf("%d requests, want 3", s.count())
	}
	if !strings.Contains(err.Error(), "HTTP 503: Service Unavailable (after 3 attempts)") {
		t.Errorf("message %q", err)
	}
	logs := log.all()
	for _, want := range []string{"retrying request", "giving up: no retries left", "method:GET", "path:/api/v1/websites/7", "status:503", "attempt:2", "wait:"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "secret-key") {
		t.Errorf("the API key was logged:\n%s", logs)
	}

	// Zero retries: one attempt.
	s, u = serve(t, answer(503, `{"message":"Service Unavailable"}`))
	c = newRetryClient(t, u, "key", fastRetry(0), nil)
	if _, err := c.GetWebsite(ctx(t), 7); !errors.Is(err, client.ErrServer) || s.count() != 1 {
		t.Errorf("max 0: %v after %d requests", err, s.count())
	}
}

func TestRetryNetworkErrorsGiveUp(t *testing.T) {
	t.Parallel()
	s, u := serve(t, reset)
	c := newRetryClient(t, u, "key", fastRetry(2), nil)
	_, err := c.GetWebsite(ctx(t), 7)
	if err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") || s.count() != 3 {
		t.Errorf("err = %v after %d requests", err, s.count())
	}
	if _, ok := client.AsAPIError(err); ok {
		t.Errorf("a network failure became an API error: %v", err)
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	_, u := serve(t, answer(429, `{"message":"Too Many Attempts."}`, "Retry-After", "1"), answer(200, recordJSON))
	c := newRetryClient(t, u, "key", fastRetry(2), nil)
	start := time.Now()
	if _, err := c.GetWebsite(ctx(t), 7); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("retried after %s, before the Retry-After of 1s", d)
	}
}

func TestRetryHonoursRateLimitReset(t *testing.T) {
	t.Parallel()
	// The reset is read against the server's Date, not the local clock: a
	// server an hour ahead asks for a one-second wait.
	serverNow := time.Now().Add(time.Hour)
	_, u := serve(t, answer(429, `{"message":"Too Many Attempts."}`,
		"X-RateLimit-Reset", strconv.FormatInt(serverNow.Unix()+1, 10),
		"Date", serverNow.UTC().Format(http.TimeFormat)), answer(200, recordJSON))
	c := newRetryClient(t, u, "key", fastRetry(2), nil)
	start := time.Now()
	if _, err := c.GetWebsite(ctx(t), 7); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 900*time.Millisecond || d > 5*time.Second {
		t.Errorf("retried after %s, want about a second", d)
	}
}

// An operation without a deadline (a data source, an import: Terraform
// times neither) waits at most client.UntimedWaitLimit at once: a server
// that asks for an hour fails it at once, saying so; the context alone
// would let it wait the hour.
func TestRetryWithoutDeadlineRefusesAnHour(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(429, `{"message":"Too Many Attempts."}`, "Retry-After", "3600"))
	c := newRetryClient(t, u, "key", fastRetry(4), nil)
	done := make(chan error, 1)
	go func() {
		_, err := c.GetWebsite(context.Background(), 7)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("an operation without deadline still waits for the server's hour after a minute")
	}
	var de *client.DeadlineError
	if !errors.As(err, &de) || !de.Untimed {
		t.Fatalf("err = %v, want a *DeadlineError for an operation without deadline", err)
	}
	for _, want := range []string{"the server asked to retry after 1h0m0s (HTTP 429)", "longer than the 5m0s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if s.count() != 1 {
		t.Errorf("%d requests", s.count())
	}
}

func TestRetryNeverSleepsPastTheDeadline(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(429, `{"message":"Too Many Attempts."}`, "Retry-After", "30"))
	c := newRetryClient(t, u, "key", fastRetry(4), nil)
	cx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.GetWebsite(cx, 7)
	if d := time.Since(start); d > time.Second {
		t.Errorf("failed after %s, want at once", d)
	}
	var de *client.DeadlineError
	if !errors.As(err, &de) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *DeadlineError", err)
	}
	for _, want := range []string{"gave up after 1 attempt(s)", "the server asked to retry after 30s (HTTP 429)",
		"past the operation's deadline", "HTTP 429: Too Many Attempts."} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if de.Status != http.StatusTooManyRequests {
		t.Errorf("DeadlineError.Status = %d, want the last answer's 429", de.Status)
	}
	if s.count() != 1 {
		t.Errorf("%d requests", s.count())
	}

	// The same for backoff waits.
	_, u = serve(t, answer(502, ""))
	c = newRetryClient(t, u, "key", &client.RetryOptions{MaxRetries: 4, WaitMin: 10 * time.Second}, nil)
	cx2, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	if _, err := c.GetWebsite(cx2, 7); !errors.As(err, &de) || !strings.Contains(err.Error(), "retry 1 of 4 is due after a backoff") {
		t.Errorf("backoff: %v", err)
	}
}

func TestAttemptTimeoutIsRetried(t *testing.T) {
	t.Parallel()
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(time.Minute):
		case <-r.Context().Done():
		}
	}
	s, u := serve(t, slow, answer(200, recordJSON))
	// The first attempt hangs until its time limit; the second must
	// answer within it, which a loaded machine does within seconds, not
	// always within 200ms.
	c, err := client.New(u, "key", client.Options{Retry: fastRetry(2), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWebsite(ctx(t), 7); err != nil {
		t.Fatalf("err = %v", err)
	}
	if s.count() != 2 {
		t.Errorf("%d requests", s.count())
	}
	// Every attempt gets its own time limit: the whole call took longer
	// than one. The limit leaves a loaded machine time to reach the
	// server with each attempt (100ms did not, once, under make test).
	s, u = serve(t, slow)
	c, _ = client.New(u, "key", client.Options{Retry: fastRetry(1), Timeout: time.Second})
	_, err = c.GetWebsite(ctx(t), 7)
	if err == nil || !strings.Contains(err.Error(), "no complete answer within 1s, the time limit of one request") || s.count() != 2 {
		t.Errorf("err = %v after %d requests", err, s.count())
	}
}

func TestMalformedAnswerSaysWhatWasExpected(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(200, `{"data":{"id":7,"domain":"exa<br />`))
	c := newRetryClient(t, u, "key", fastRetry(1), nil)
	_, err := c.GetWebsite(ctx(t), 7)
	if !errors.Is(err, client.ErrUndecodable) || s.count() != 2 {
		t.Fatalf("err = %v after %d requests", err, s.count())
	}
	for _, want := range []string{`expected a JSON object {"data": {website record}, "status": 200}`, "(after 2 attempts)", `body starts with`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func TestPacerAvoidsThrottle(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{RateLimit: 10, RateWindow: time.Second})
	for i := range 3 {
		srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: fmt.Sprintf("s%d.example.com", i)})
	}
	c := newRetryClient(t, srv.URL, emulator.DefaultAPIKey, fastRetry(4), nil)
	// 45 reads, 10 at a time, as Terraform's parallelism would send them.
	var wg sync.WaitGroup
	var failed atomic.Int32
	sem := make(chan struct{}, 10)
	start := time.Now()
	for i := range 45 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if _, err := c.GetWebsite(ctx(t), int64(i%3+1)); err != nil {
				t.Errorf("read %d: %v", i, err)
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	st := srv.Stats()
	t.Logf("45 reads in %s, %d answered 429", time.Since(start), st.Throttled)
	// The first window's end is unknown: one probe learns it (a 429). Later
	// windows are predicted.
	if st.Throttled > 2 {
		t.Errorf("%d requests were throttled, want at most 2", st.Throttled)
	}
	if failed.Load() > 0 || st.ByStatus["200"] != 45 {
		t.Errorf("stats %+v", st)
	}
}

func TestRequestsPerMinute(t *testing.T) {
	t.Parallel()
	s, u := serve(t, answer(200, recordJSON))
	c := newRetryClient(t, u, "key", &client.RetryOptions{RequestsPerMinute: 600}, nil) // one per 100ms
	start := time.Now()
	for range 4 {
		if _, err := c.GetWebsite(ctx(t), 7); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 280*time.Millisecond {
		t.Errorf("4 requests at 600/min took %s, want at least 300ms", d)
	}
	if s.count() != 4 {
		t.Errorf("%d requests", s.count())
	}
	// A cap that allows nothing before the deadline fails at once.
	c = newRetryClient(t, u, "key", &client.RetryOptions{RequestsPerMinute: 1}, nil)
	if _, err := c.GetWebsite(ctx(t), 7); err != nil {
		t.Fatal(err)
	}
	cx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := c.GetWebsite(cx, 7)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "requests_per_minute = 1 allows no request sooner") {
		t.Errorf("err = %v", err)
	}
}

func TestPacerWaitsOutA429ForEveryone(t *testing.T) {
	t.Parallel()
	var first atomic.Bool
	var early atomic.Int32
	var blockedUntil atomic.Int64
	h := func(w http.ResponseWriter, r *http.Request) {
		if first.CompareAndSwap(false, true) {
			blockedUntil.Store(time.Now().Add(time.Second).UnixNano())
			answer(429, `{"message":"Too Many Attempts."}`, "Retry-After", "1")(w, r)
			return
		}
		if time.Now().UnixNano() < blockedUntil.Load() {
			early.Add(1)
		}
		answer(200, recordJSON)(w, r)
	}
	_, u := serve(t, h)
	c := newRetryClient(t, u, "key", fastRetry(0), nil)
	if _, err := c.GetWebsite(ctx(t), 7); !errors.Is(err, client.ErrRateLimited) {
		t.Fatalf("err = %v", err)
	}
	// Every request of the client waits for the end of the 429's Retry-After.
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.GetWebsite(ctx(t), 7); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if early.Load() != 0 {
		t.Errorf("%d requests were sent before the Retry-After elapsed", early.Load())
	}
}

func TestPacerForgetsAThrottleThatWentAway(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{RateLimit: 5, RateWindow: time.Second})
	w := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com"})
	c := newRetryClient(t, srv.URL, emulator.DefaultAPIKey, fastRetry(4), nil)
	for range 6 {
		if _, err := c.GetWebsite(ctx(t), w.ID); err != nil {
			t.Fatal(err)
		}
	}
	if !client.Paced(c) {
		t.Fatal("premise: the throttle's answers make the pacer pace")
	}
	srv.SetRateLimit(0, 0)
	if _, err := c.GetWebsite(ctx(t), w.ID); err != nil {
		t.Fatal(err)
	}
	if client.Paced(c) {
		t.Error("an answer without throttle headers left the pacer pacing")
	}
}

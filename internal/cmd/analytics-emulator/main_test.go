package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

const testKey = "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"

var listeningRE = regexp.MustCompile(`^analytics-emulator: listening on (http://127\.0\.0\.1:[0-9]+)\n$`)

// buildBinary compiles the command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	bin := filepath.Join(t.TempDir(), "analytics-emulator")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is a running emulator binary.
type process struct {
	cmd    *exec.Cmd
	url    string
	stderr *bytes.Buffer
	rest   chan string // the rest of stdout, once the process ends
}

// start runs bin with args and waits for its listening line.
func start(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stderr: &bytes.Buffer{}, rest: make(chan string, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(stdout)
		line, _ := br.ReadString('\n')
		lines <- line
		rest, _ := io.ReadAll(br)
		p.rest <- string(rest)
	}()
	select {
	case line := <-lines:
		m := listeningRE.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("first line %q", line)
		}
		p.url = m[1]
	case <-time.After(30 * time.Second):
		t.Fatal("no listening line")
	}
	return p
}

// stop sends SIGTERM and checks a clean exit with nothing more on stdout.
func (p *process) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\nstderr: %s", err, p.stderr)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	if rest := <-p.rest; rest != "" {
		t.Errorf("more output on stdout: %q", rest)
	}
}

func get(t *testing.T, method, u, key string, form url.Values) (int, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(raw)
}

func TestBinary(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	state := filepath.Join(t.TempDir(), "state.json")

	p := start(t, bin, "-api-key", testKey, "-api-key", "second", "-v", "-state-file", state, "-per-page", "25")
	status, body := get(t, "GET", p.url+"/api/v1/websites", testKey, nil)
	if status != 200 || !strings.Contains(body, `"per_page":25,`) || !strings.Contains(body, `"total":0}`) {
		t.Fatalf("list: %d %s", status, body)
	}
	status, body = get(t, "POST", p.url+"/api/v1/websites", "second", url.Values{"domain": {"https://www.Demo.org"}})
	if status != 201 || !strings.Contains(body, `"domain":"demo.org"`) {
		t.Fatalf("store: %d %s", status, body)
	}
	if status, _ := get(t, "GET", p.url+"/api/v1/websites", emulator.DefaultAPIKey, nil); status != 401 {
		t.Errorf("default key accepted although -api-key was given: %d", status)
	}
	p.stop(t)
	if !strings.Contains(p.stderr.String(), "POST /api/v1/websites 201") {
		t.Errorf("-v log: %q", p.stderr)
	}

	// The state file survives a restart.
	p = start(t, bin, "-api-key", "second", "-state-file", state, "-rate-limit", "1", "-rate-window", "1m")
	status, body = get(t, "GET", p.url+"/api/v1/websites/1", "second", nil)
	if status != 200 || !strings.Contains(body, `"domain":"demo.org"`) {
		t.Fatalf("show after restart: %d %s", status, body)
	}
	if status, body := get(t, "GET", p.url+"/api/v1/websites/1", "second", nil); status != 429 {
		t.Errorf("rate limit: %d %s", status, body)
	}
	p.stop(t)
	if p.stderr.Len() != 0 {
		t.Errorf("stderr without -v: %q", p.stderr)
	}
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	c, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.addr != "127.0.0.1:8099" || len(c.opts.Users) != 1 || c.opts.Users[0].Key != emulator.DefaultAPIKey ||
		c.opts.DefaultPerPage != 10 || c.opts.RateLimit != 0 || c.opts.RateWindow != time.Minute {
		t.Errorf("defaults: %+v", c)
	}
	c, err = parseFlags([]string{"-api-key", "a", "-api-key", "b", "-no-api-access-key", "c", "-website-limit", "3",
		"-omit-favorite", "-legacy-update-404", "-banned-word", "casino", "-path-prefix", "/analytics", "-no-trim-strings", "-no-account-endpoint",
		"-no-statistics-endpoint"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := c.opts
	if len(o.Users) != 3 || o.Users[1].Key != "b" || !o.Users[2].NoAPIAccess || o.DefaultWebsiteLimit != 3 ||
		!o.OmitFavorite || !o.LegacyUpdateNotFound || o.BannedWords[0] != "casino" || o.PathPrefix != "/analytics" || !o.NoTrimStrings || !o.NoAccountEndpoint ||
		!o.NoStatisticsEndpoint {
		t.Errorf("parsed: %+v", o)
	}
	if _, err := parseFlags([]string{"extra"}, io.Discard); err == nil {
		t.Error("extra argument accepted")
	}
	if _, err := parseFlags([]string{"-rate-limit", "x"}, io.Discard); err == nil {
		t.Error("bad -rate-limit accepted")
	}
}

// -plan KEY=PLAN gives a user one of the plans of a real installation's
// users; a key named by no other flag becomes a user.
func TestParseFlagsPlans(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"-api-key", "a", "-plan", "a=three-websites", "-plan", "b=no-email-reports",
		"-plan", "c=unlimited", "-plan", "d=no-api"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "Starter", "b": "Basic", "c": "Unlimited", "d": "Free"}
	if len(c.opts.Users) != 4 {
		t.Fatalf("users: %+v", c.opts.Users)
	}
	for _, u := range c.opts.Users {
		if u.Plan == nil || u.Plan.Name != want[u.Key] {
			t.Errorf("user %s: plan %+v, want %s", u.Key, u.Plan, want[u.Key])
		}
	}
	if u := c.opts.Users[0]; u.Plan.Websites != 3 || !u.Plan.API || !u.Plan.EmailReports {
		t.Errorf("three-websites: %+v", u.Plan)
	}
	for _, bad := range []string{"gold", "a=gold", "=unlimited"} {
		_, err := parseFlags([]string{"-plan", bad}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "no-api, no-email-reports, three-websites, unlimited") {
			t.Errorf("-plan %s: %v", bad, err)
		}
	}
}

// startInProcess runs the command's run function with args in a goroutine,
// waits for its listening line and returns the base URL, and a stop function
// that cancels run and returns its error.
func startInProcess(t *testing.T, args ...string) (baseURL string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, io.Discard)
		_ = pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	m := listeningRE.FindStringSubmatch(line)
	if m == nil {
		cancel()
		t.Fatalf("line %q", line)
	}
	return m[1], func() error {
		cancel()
		return <-done
	}
}

func TestRunInProcess(t *testing.T) {
	t.Parallel()
	base, stop := startInProcess(t, "-addr", "127.0.0.1:0")
	if status, _ := get(t, "GET", base+"/api/v1/websites", emulator.DefaultAPIKey, nil); status != 200 {
		t.Errorf("status %d", status)
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
	if err := run(context.Background(), []string{"-addr", "256.0.0.1:0"}, io.Discard, io.Discard); err == nil {
		t.Error("bad address accepted")
	}
}

// The command's defaults are the newest real server's; flags emulate older
// builds.
func TestRunBuildFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		account    int    // status of GET /api/v1/account
		excludeIPs string // exclude_ips stored from " 1.1.1.1 "
	}{
		{name: "defaults", account: 200, excludeIPs: `"exclude_ips":"1.1.1.1"`},
		{name: "older build", args: []string{"-no-account-endpoint", "-no-trim-strings"}, account: 404, excludeIPs: `"exclude_ips":" 1.1.1.1 "`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, stop := startInProcess(t, append([]string{"-addr", "127.0.0.1:0"}, tc.args...)...)
			if status, body := get(t, "GET", base+"/api/v1/account", emulator.DefaultAPIKey, nil); status != tc.account {
				t.Errorf("account: %d %s", status, body)
			}
			status, body := get(t, "POST", base+"/api/v1/websites", emulator.DefaultAPIKey,
				url.Values{"domain": {"flags.example"}, "exclude_ips": {" 1.1.1.1 "}})
			if status != 201 || !strings.Contains(body, tc.excludeIPs) {
				t.Errorf("store: %d %s", status, body)
			}
			if status, body := get(t, "GET", base+"/wrong/api/v1/websites/1", emulator.DefaultAPIKey, nil); status != 404 ||
				body != "{\n    \"message\": \"The route wrong/api/v1/websites/1 could not be found.\"\n}" {
				t.Errorf("outside /api/v1: %d %q", status, body)
			}
			if err := stop(); err != nil {
				t.Errorf("run: %v", err)
			}
		})
	}
}

// A -plan without "=PLAN" is usually an API key on its own: the error does
// not print it (the house rule: never print an API key, in any form).
func TestParseFlagsPlanWithoutPlanHidesKey(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k3Y", 21) + "z"
	for _, bad := range []string{key, key + "=", "=" + key} {
		_, err := parseFlags([]string{"-plan", bad}, io.Discard)
		if err == nil {
			t.Fatalf("-plan %d characters: no error", len(bad))
		}
		if strings.Contains(err.Error(), key[:8]) {
			t.Errorf("the error prints the key: %v", err)
		}
		if !strings.Contains(err.Error(), "KEY=PLAN") {
			t.Errorf("the error does not say the form: %v", err)
		}
	}
}

package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/apprecord"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// env is a getenv over m.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestRun_writesTheRecording(t *testing.T) {
	t.Parallel()
	s := emulator.NewServer(t, emulator.Options{})
	out := filepath.Join(t.TempDir(), "seed5.json")
	var stdout bytes.Buffer
	err := run(t.Context(), []string{"-seed", "5", "-calls", "12", "-out", out}, &stdout,
		env(map[string]string{"ANALYTICS_BASE_URL": s.URL, "ANALYTICS_API_KEY": emulator.DefaultAPIKey}), http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != "wrote "+out+": 12 calls\n" {
		t.Errorf("stdout %q", got)
	}
	f, err := apprecord.Load(out)
	if err != nil || f.Seed != 5 || len(f.Calls) != 12 {
		t.Fatalf("loaded %+v, %v", f, err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(emulator.DefaultAPIKey)) {
		t.Error("the recording holds the key")
	}
}

func TestRun_refusesIncompleteSettings(t *testing.T) {
	t.Parallel()
	full := map[string]string{"ANALYTICS_BASE_URL": "http://127.0.0.1:1", "ANALYTICS_API_KEY": "k"}
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no base URL", []string{"-seed", "1"}, map[string]string{"ANALYTICS_API_KEY": "k"}, "no base URL"},
		{"no key", []string{"-seed", "1"}, map[string]string{"ANALYTICS_BASE_URL": "http://h"}, "no API key"},
		{"no seed", nil, full, "no seed"},
		{"accept out of range", []string{"-seed", "1", "-accept", "2"}, full, "-accept must be"},
		{"no calls", []string{"-seed", "1", "-calls", "0"}, full, "-calls must be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := run(t.Context(), tc.args, &bytes.Buffer{}, env(tc.env), http.DefaultClient)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// -h and a bad base URL never show the base URL, which may hold a user and
// password: the error names the flag or variable to fix.
func TestRun_neverShowsTheBaseURL(t *testing.T) {
	t.Parallel()
	secret := "http://user:s3cret@analytics.example"
	var help bytes.Buffer
	err := run(t.Context(), []string{"-h"}, &help, env(map[string]string{"ANALYTICS_BASE_URL": secret}), http.DefaultClient)
	if err == nil || strings.Contains(help.String(), "s3cret") || !strings.Contains(help.String(), "-base-url") {
		t.Errorf("-h: %v\n%s", err, help.String())
	}
	for _, tc := range []struct {
		args      []string
		env, want string
	}{
		{nil, "http://user:s3cret@host:port", "ANALYTICS_BASE_URL is no"},
		{[]string{"-base-url", "user:s3cret@host"}, "", "-base-url is no"},
		{[]string{"-base-url", "ftp://user:s3cret@host"}, "", "-base-url is no"},
	} {
		args := append([]string{"-seed", "1"}, tc.args...)
		err := run(t.Context(), args, io.Discard, env(map[string]string{"ANALYTICS_BASE_URL": tc.env, "ANALYTICS_API_KEY": "k"}),
			http.DefaultClient)
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %q: err %v, want %q without the URL", tc.args, tc.env, err, tc.want)
		}
	}
}

// A recording is never overwritten: this generator's sequence for a seed
// differs from the committed files'.
func TestRun_refusesToOverwrite(t *testing.T) {
	t.Parallel()
	s := emulator.NewServer(t, emulator.Options{})
	out := filepath.Join(t.TempDir(), "websites-seed1.json")
	if err := os.WriteFile(out, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(t.Context(), []string{"-seed", "1", "-calls", "3", "-out", out}, io.Discard,
		env(map[string]string{"ANALYTICS_BASE_URL": s.URL, "ANALYTICS_API_KEY": emulator.DefaultAPIKey}), http.DefaultClient)
	if err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("err %v", err)
	}
	if raw, _ := os.ReadFile(out); string(raw) != "kept" {
		t.Error("the file was overwritten")
	}
}

// roundTrip is an http.RoundTripper from a function.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A complete recording whose clean-up fails is written, and the error
// still says what is left to delete.
func TestRun_writesDespiteACleanUpFailure(t *testing.T) {
	t.Parallel()
	s := emulator.NewServer(t, emulator.Options{})
	out := filepath.Join(t.TempDir(), "seed5.json")
	const calls = 40
	sent := 0
	client := &http.Client{Transport: roundTrip(func(req *http.Request) (*http.Response, error) {
		if sent++; sent > 2+calls { // GET /account, GET /websites, then the calls
			return &http.Response{StatusCode: http.StatusInternalServerError, Request: req,
				Body: io.NopCloser(strings.NewReader(`{"message":"Server Error"}`))}, nil
		}
		return http.DefaultTransport.RoundTrip(req)
	})}
	err := run(t.Context(), []string{"-seed", "5", "-calls", "40", "-out", out}, io.Discard,
		env(map[string]string{"ANALYTICS_BASE_URL": s.URL, "ANALYTICS_API_KEY": emulator.DefaultAPIKey}), client)
	if err == nil || !strings.Contains(err.Error(), "delete the websites left") {
		t.Fatalf("err %v", err)
	}
	if f, err := apprecord.Load(out); err != nil || len(f.Calls) != calls {
		t.Fatalf("not written: %v", err)
	}
}

package main

import (
	"bytes"
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
		env(map[string]string{"ANALYTICS_BASE_URL": s.URL, "ANALYTICS_API_KEY": emulator.DefaultAPIKey}))
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
			err := run(t.Context(), tc.args, &bytes.Buffer{}, env(tc.env))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

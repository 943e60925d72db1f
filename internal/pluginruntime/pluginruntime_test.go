package pluginruntime

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

func TestQuietUnreadLogs(t *testing.T) {
	loggers := []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_ANALYTICS"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want map[string]string // "" means unset
	}{
		{
			name: "Terraform discards provider logs",
			want: map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_ANALYTICS": "OFF"},
		},
		{
			name: "TF_LOG set",
			env:  map[string]string{"TF_LOG": "DEBUG"},
			want: map[string]string{},
		},
		{
			name: "TF_LOG_PROVIDER set",
			env:  map[string]string{"TF_LOG_PROVIDER": "TRACE"},
			want: map[string]string{},
		},
		{
			name: "explicit levels are kept",
			env:  map[string]string{"TF_LOG_SDK_FRAMEWORK": "DEBUG"},
			want: map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "DEBUG", "TF_LOG_PROVIDER_ANALYTICS": "OFF"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range append([]string{"TF_LOG", "TF_LOG_PROVIDER"}, loggers...) {
				t.Setenv(k, "") // restored after the test
				if err := os.Unsetenv(k); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			QuietUnreadLogs()
			for _, k := range loggers {
				if got := os.Getenv(k); got != tc.want[k] {
					t.Errorf("%s = %q, want %q", k, got, tc.want[k])
				}
			}
		})
	}
}

// TestCollectLessOften: without GOGC and GOMEMLIMIT the collector runs at
// gcPercent with a soft limit of gcMemoryLimit; either variable, when set,
// is left to the Go runtime.
func TestCollectLessOften(t *testing.T) {
	// The settings of this test process, restored afterwards.
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	for _, tc := range []struct {
		name         string
		env          map[string]string
		wantPercent  int
		wantMemLimit int64
	}{
		{name: "neither set", wantPercent: gcPercent, wantMemLimit: gcMemoryLimit},
		{name: "GOGC set", env: map[string]string{"GOGC": "100"}, wantPercent: 100, wantMemLimit: gcMemoryLimit},
		{name: "GOMEMLIMIT set", env: map[string]string{"GOMEMLIMIT": "1GiB"}, wantPercent: gcPercent, wantMemLimit: math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
				t.Setenv(k, "")
				if err := os.Unsetenv(k); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			CollectLessOften()
			if got := debug.SetGCPercent(100); got != tc.wantPercent {
				t.Errorf("GC percent %d, want %d", got, tc.wantPercent)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantMemLimit {
				t.Errorf("memory limit %d, want %d", got, tc.wantMemLimit)
			}
		})
	}
}

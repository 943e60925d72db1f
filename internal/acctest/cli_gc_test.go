package acctest

import (
	"os"
	"testing"
)

func TestLightChildGC(t *testing.T) {
	for _, tc := range []struct {
		name              string
		set               map[string]string
		wantGC, wantLimit string
	}{
		{"unset", nil, "off", childMemLimit},
		{"caller's GOGC kept", map[string]string{"GOGC": "50"}, "50", ""},
		{"caller's limit kept", map[string]string{"GOMEMLIMIT": "3GiB"}, "", "3GiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
				t.Setenv(k, "")
				_ = os.Unsetenv(k) // t.Setenv restores the caller's value
			}
			for k, v := range tc.set {
				t.Setenv(k, v)
			}
			lightChildGC()
			if got := os.Getenv("GOGC"); got != tc.wantGC {
				t.Errorf("GOGC = %q, want %q", got, tc.wantGC)
			}
			if got := os.Getenv("GOMEMLIMIT"); got != tc.wantLimit {
				t.Errorf("GOMEMLIMIT = %q, want %q", got, tc.wantLimit)
			}
		})
	}
}

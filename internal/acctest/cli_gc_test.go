package acctest

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestLightChildren(t *testing.T) {
	names := []string{"GOGC", "GOMEMLIMIT", "GOMAXPROCS"}
	for _, tc := range []struct {
		name string
		set  map[string]string
		want map[string]string
		// wantGoProcs is GOMAXPROCS in GoCommandEnv ("" for none).
		wantGoProcs string
	}{
		{"unset", nil, map[string]string{"GOGC": "off", "GOMEMLIMIT": childMemLimit, "GOMAXPROCS": "1"}, ""},
		{"caller's GOGC kept", map[string]string{"GOGC": "50"}, map[string]string{"GOGC": "50", "GOMEMLIMIT": childMemLimit, "GOMAXPROCS": "1"}, ""},
		{"caller's limit kept", map[string]string{"GOMEMLIMIT": "3GiB"}, map[string]string{"GOGC": "off", "GOMEMLIMIT": "3GiB", "GOMAXPROCS": "1"}, ""},
		{"caller's GOMAXPROCS kept", map[string]string{"GOMAXPROCS": "3"}, map[string]string{"GOGC": "off", "GOMEMLIMIT": childMemLimit, "GOMAXPROCS": "3"}, "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range names {
				t.Setenv(k, "")
				_ = os.Unsetenv(k) // t.Setenv restores the caller's value
			}
			for k, v := range tc.set {
				t.Setenv(k, v)
			}
			saved := childSet
			childSet = map[string]bool{}
			t.Cleanup(func() { childSet = saved })

			lightChildren()
			for _, k := range names {
				if got := os.Getenv(k); got != tc.want[k] {
					t.Errorf("%s = %q, want %q", k, got, tc.want[k])
				}
			}
			var procs []string
			for _, kv := range GoCommandEnv() {
				if v, ok := strings.CutPrefix(kv, "GOMAXPROCS="); ok {
					procs = append(procs, v)
				}
			}
			if want := slices.DeleteFunc([]string{tc.wantGoProcs}, func(s string) bool { return s == "" }); !slices.Equal(procs, want) {
				t.Errorf("GOMAXPROCS in GoCommandEnv = %q, want %q", procs, want)
			}
		})
	}
}

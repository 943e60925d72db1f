package emulator

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/apprecord"
)

// TestReplay_appRecordings sends every call a real installation answered
// (testdata/app-recordings, described by the README there) to a fresh
// emulator, in order, and compares each status and normalised body with the
// application's. It names the first call that differs. No difference is
// excused: each one found was the emulator's, and was fixed.
func TestReplay_appRecordings(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "app-recordings", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Exactly the three recordings, whole: a lost or cut file would
	// otherwise pass with fewer calls compared.
	want := []string{"websites-seed1.json", "websites-seed2.json", "websites-seed3.json"}
	if got := fmt.Sprint(baseNames(files)); got != fmt.Sprint(want) {
		t.Fatalf("recordings %s, want %s", got, want)
	}
	for i, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			rec, err := apprecord.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Seed != int64(i+1) || len(rec.Calls) != 150 {
				t.Fatalf("seed %d with %d calls, want seed %d with 150", rec.Seed, len(rec.Calls), i+1)
			}
			// One user on a plan without limits and an account holding no
			// website, as recorded. The throttle is off (the zero Options):
			// the recorder waited out every 429 and recorded none.
			s := NewServer(t, Options{Users: []User{{Key: keyA}}})
			r := &apprecord.Recorder{Base: s.URL, Key: keyA}
			diff, err := r.Replay(t.Context(), rec)
			if err != nil {
				t.Fatal(err)
			}
			if diff != nil {
				t.Fatalf("%v\n(the recording is the application's answer: fix the emulator)", diff)
			}
		})
	}
}

// baseNames are the paths' file names, in order.
func baseNames(paths []string) []string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names
}

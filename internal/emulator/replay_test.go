package emulator

import (
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/apprecord"
)

// TestReplay_appRecordings sends every call a real installation answered
// (testdata/app-recordings, described by the README there) to a fresh
// emulator, in order, and compares each status and normalised body with the
// application's. It names the first call that differs. No difference is
// excused: each one found was the emulator's, and was fixed.
//
// The folder must hold at least the three known recordings, whole (a lost
// or cut file would otherwise pass with fewer calls compared). Every further
// websites-seed<N>.json a maintainer records is replayed too, and must be a
// recording of seed N; any other .json file there is an error.
func TestReplay_appRecordings(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "app-recordings", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"websites-seed1.json": true, "websites-seed2.json": true, "websites-seed3.json": true}
	seeds := map[string]int64{}
	for _, path := range files {
		name := filepath.Base(path)
		m := recordingName.FindStringSubmatch(name)
		if m == nil {
			t.Fatalf("%s is no websites-seed<N>.json: rename or remove it", path)
		}
		seed, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		seeds[name] = seed
	}
	for name := range known {
		if _, ok := seeds[name]; !ok {
			t.Fatalf("the recording %s is missing", name)
		}
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec, err := apprecord.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Seed != seeds[name] || len(rec.Calls) == 0 {
				t.Fatalf("seed %d with %d calls, want seed %d with calls", rec.Seed, len(rec.Calls), seeds[name])
			}
			if known[name] && len(rec.Calls) != 150 {
				t.Fatalf("%d calls, want 150", len(rec.Calls))
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

// recordingName is a recording's file name; its group is the seed.
var recordingName = regexp.MustCompile(`^websites-seed([1-9][0-9]*)\.json$`)

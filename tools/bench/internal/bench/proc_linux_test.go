package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestProcWatcher: the processes of the watched program, started by the
// parent, are found, with their peak RSS; others are not counted.
func TestProcWatcher(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// A copy of its own, so that no other program's shell is counted.
	raw, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	sh = filepath.Join(t.TempDir(), "sh")
	if err := os.WriteFile(sh, raw, 0o700); err != nil { //nolint:gosec // a program to run
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := watchProcesses(sh, self)
	for range 2 {
		// A busy loop of about 0.2 s of CPU time to count, and no other
		// program (a fork before its exec would run the shell too).
		if out, err := exec.CommandContext(t.Context(), sh, "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done").CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	peak, processes, cpu := w.stop()
	if processes != 2 || peak <= 0 || cpu <= 0 {
		t.Errorf("peak %d KiB, %d processes, %.2f s of CPU; want 2 processes with a peak and CPU time", peak, processes, cpu)
	}
}

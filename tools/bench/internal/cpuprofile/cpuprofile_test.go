package cpuprofile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestStartCPUProfile: with a directory, the process's CPU profile is
// written to cpu-<pid>.pprof there once stopped (gzipped, as every pprof
// profile); without one nothing is written.
func TestStartCPUProfile(t *testing.T) {
	dir := t.TempDir()
	Start("")()
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Fatalf("files written without a directory: %v", files)
	}

	stop := Start(dir)
	stop()
	raw, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		t.Errorf("the profile is not gzipped: % x", raw[:min(len(raw), 8)])
	}

	Start(filepath.Join(dir, "missing"))() // a warning, and no profile
}

//go:build unix

package pluginruntime

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGateStderr runs itself again as a child that gates its standard
// error and then writes a secret to it three ways: through os.Stderr,
// through a *os.File for descriptor 2 made before the gate (as
// terraform-plugin-log keeps the os.Stderr of the process's start), and in
// a line longer than the pipe's buffer. The parent reads the child's real
// standard error.
func TestGateStderr(t *testing.T) {
	if os.Getenv("PLUGINRUNTIME_GATE_CHILD") == "1" {
		early := os.NewFile(2, "early-stderr")
		flush, err := GateStderr(func(s string) string { return strings.ReplaceAll(s, "s3cr3t-value", "[REDACTED]") })
		if err != nil {
			fmt.Println("gate:", err)
			os.Exit(3)
		}
		fmt.Fprintln(os.Stderr, "one s3cr3t-value")
		fmt.Fprintln(early, "two s3cr3t-value")
		fmt.Fprintln(os.Stderr, strings.Repeat("x", 200_000)+" three s3cr3t-value")
		flush()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGateStderr$")
	cmd.Env = append(os.Environ(), "PLUGINRUNTIME_GATE_CHILD=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("child: %v: %s %s", err, out, stderr.String())
	}
	got := stderr.String()
	if strings.Contains(got, "s3cr3t") {
		t.Errorf("the secret passed the gate:\n%.300s", got)
	}
	for _, want := range []string{"one [REDACTED]\n", "two [REDACTED]\n", "three [REDACTED]\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("standard error lacks %q (lines lost at the flush?)", want)
		}
	}
}

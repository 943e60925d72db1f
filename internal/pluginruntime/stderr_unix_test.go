//go:build unix

package pluginruntime

import (
	"fmt"
	"io"
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

// TestKeepStdio: go-plugin's Serve points os.Stdout and os.Stderr at pipes
// of its own, whose contents it streams to Terraform, which logs them
// ("unexpected data") past the gate; a library that takes os.Stderr after
// Serve (the AWS SDK's default logger does) writes there. KeepStdio, run
// by the provider's first call, points both back at the gated standard
// error. The child plays go-plugin's part.
func TestKeepStdio(t *testing.T) {
	if os.Getenv("PLUGINRUNTIME_GATE_CHILD") == "stdio" {
		flush, err := GateStderr(func(s string) string { return strings.ReplaceAll(s, "s3cr3t-value", "[REDACTED]") })
		if err != nil {
			fmt.Println("gate:", err)
			os.Exit(3)
		}
		r, w, err := os.Pipe()
		if err != nil {
			fmt.Println("pipe:", err)
			os.Exit(3)
		}
		stdout := os.Stdout
		os.Stdout, os.Stderr = w, w // as go-plugin's Serve does
		KeepStdio()
		fmt.Fprintln(os.Stderr, "four s3cr3t-value")
		fmt.Fprintln(os.Stdout, "five s3cr3t-value")
		_ = w.Close()
		streamed, _ := io.ReadAll(r)
		fmt.Fprintf(stdout, "streamed: %q\n", streamed)
		flush()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKeepStdio$")
	cmd.Env = append(os.Environ(), "PLUGINRUNTIME_GATE_CHILD=stdio")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v: %s %s", err, out, stderr.String())
	}
	if !strings.Contains(string(out), `streamed: ""`) {
		t.Errorf("the writes reached go-plugin's stream, past the gate: %s", out)
	}
	for _, want := range []string{"four [REDACTED]\n", "five [REDACTED]\n"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("standard error lacks %q: %q", want, stderr.String())
		}
	}
}

//go:build unix

package pluginruntime

import (
	"bufio"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// GateStderr makes every byte the process writes to its standard error
// (file descriptor 2) pass through scrub, a line at a time, before it
// reaches the real standard error: the log lines of terraform-plugin-log
// (whose loggers write to the os.Stderr of the process's start, file
// descriptor 2), of go-plugin and of any library. It is the log half of the
// provider's gate: a secret that reached a log line by any path leaves
// redacted. A crash (an unhandled panic or a fatal error) is also written to
// the real standard error directly (debug.SetCrashOutput), since the
// process ends before the gate's copy can run.
//
// flush, called before the process ends, closes the gate and waits (at
// most five seconds) until every line written so far has been copied.
func GateStderr(scrub func(string) string) (flush func(), err error) {
	orig, err := unix.Dup(2)
	if err != nil {
		return nil, err
	}
	out := os.NewFile(uintptr(orig), "/dev/stderr")
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if err := unix.Dup2(int(w.Fd()), 2); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if err := debug.SetCrashOutput(out, debug.CrashOptions{}); err != nil {
		return nil, err
	}
	gated.Store(os.NewFile(2, "/dev/stderr"))
	done := make(chan struct{})
	go func() {
		defer close(done)
		copyScrubbed(out, r, scrub)
	}()
	return func() {
		// Point file descriptor 2 at the real standard error again: the
		// pipe's last writer is gone, so the copy ends once it has read
		// everything.
		if unix.Dup2(orig, 2) != nil {
			return
		}
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}, nil
}

// copyScrubbed copies lines from r to out through scrub until r ends. The
// line break is not scrubbed: a line that ends with a secret cut short is
// a text that ends with it, where the redactor looks for cut secrets.
func copyScrubbed(out io.Writer, r io.Reader, scrub func(string) string) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			text := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
			_, _ = io.WriteString(out, scrub(text)+line[len(text):])
		}
		if err != nil {
			return
		}
	}
}

// gated is a file for descriptor 2 once GateStderr has put the gate there.
var gated atomic.Pointer[os.File]

// StderrGated reports whether GateStderr has put the gate on the process's
// standard error: then every log line passes the redactor there.
func StderrGated() bool { return gated.Load() != nil }

// KeepStdio points os.Stdout and os.Stderr at the gated standard error.
// go-plugin's Serve points them at pipes of its own, whose contents it
// streams to Terraform, which logs them ("unexpected data") past the gate:
// what a library writes to os.Stderr or os.Stdout as they are after Serve
// (the AWS SDK's default logger takes os.Stderr when the export opens a
// bucket) would leave unscrubbed. The provider's gate runs it at its first
// call, after Serve has swapped them. It does nothing without GateStderr
// (tests serve in process).
func KeepStdio() {
	if f := gated.Load(); f != nil {
		os.Stdout, os.Stderr = f, f
	}
}

//go:build !unix

package pluginruntime

// GateStderr does nothing where file descriptors cannot be swapped
// (Windows): there, log lines leave through the gate's log masks only
// (provider.NewServer).
func GateStderr(func(string) string) (flush func(), err error) { return func() {}, nil }

// KeepStdio does nothing without GateStderr.
func KeepStdio() {}

// StderrGated is false without GateStderr.
func StderrGated() bool { return false }

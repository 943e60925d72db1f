//go:build !linux

package bench

// procWatcher does nothing where there is no /proc.
type procWatcher struct{}

func watchProcesses(string, string) *procWatcher { return &procWatcher{} }

func (w *procWatcher) stop() (peakKiB int64, processes int, cpu float64) { return 0, 0, 0 }

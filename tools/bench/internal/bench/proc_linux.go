package bench

import (
	"time"

	"github.com/prometheus/procfs"
)

// pollInterval is how often the provider processes' memory is sampled.
const pollInterval = 20 * time.Millisecond

// procWatcher samples the peak RSS (VmHWM) and the CPU time of every process
// running exe while a step runs, from /proc (github.com/prometheus/procfs).
// Terraform starts the provider more than once per command (for
// validation, plan and apply), each a process of its own.
type procWatcher struct {
	exe, parent string
	stopc, done chan struct{}
	peak        int64           // KiB
	pids        map[int]float64 // processes of exe seen -> CPU seconds
	other       map[int]bool    // processes that are not, and will not become, exe
}

// watchProcesses starts sampling the processes that run exe, which are
// started by processes running parent (checked again until they exec).
func watchProcesses(exe, parent string) *procWatcher {
	w := &procWatcher{exe: exe, parent: parent, stopc: make(chan struct{}), done: make(chan struct{}),
		pids: map[int]float64{}, other: map[int]bool{}}
	go w.loop()
	return w
}

func (w *procWatcher) loop() {
	defer close(w.done)
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		w.sample()
		select {
		case <-w.stopc:
			return
		case <-t.C:
		}
	}
}

func (w *procWatcher) sample() {
	procs, err := procfs.AllProcs()
	if err != nil {
		return
	}
	for _, p := range procs {
		if w.other[p.PID] {
			continue
		}
		exe, err := p.Executable()
		switch {
		case err != nil || exe == "":
			if _, ours := w.pids[p.PID]; !ours {
				w.other[p.PID] = true // not ours to read, or gone
			}
			continue
		case exe == w.exe:
		case exe == w.parent:
			continue // Terraform, or a child of it about to exec the provider
		default:
			w.other[p.PID] = true
			continue
		}
		if st, err := p.Stat(); err == nil {
			w.pids[p.PID] = st.CPUTime()
		} else if _, seen := w.pids[p.PID]; !seen {
			w.pids[p.PID] = 0
		}
		if st, err := p.NewStatus(); err == nil && int64(st.VmHWM/1024) > w.peak { //nolint:gosec // KiB of a process's memory
			w.peak = int64(st.VmHWM / 1024) //nolint:gosec // as above
		}
	}
}

// stop ends the sampling and returns the peak RSS in KiB, the number of
// provider processes seen and their CPU time in seconds (as last sampled).
func (w *procWatcher) stop() (peakKiB int64, processes int, cpu float64) {
	close(w.stopc)
	<-w.done
	for _, c := range w.pids {
		cpu += c
	}
	return w.peak, len(w.pids), cpu
}

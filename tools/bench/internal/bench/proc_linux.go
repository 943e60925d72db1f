package bench

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"time"
)

// pollInterval is how often the provider processes' memory is sampled.
const pollInterval = 20 * time.Millisecond

// procWatcher samples the peak RSS (VmHWM) of every process running exe
// while a step runs. Terraform starts the provider more than once per
// command (for validation, plan and apply), each a process of its own.
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
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || w.other[pid] {
			continue
		}
		dir := "/proc/" + e.Name()
		exe, err := os.Readlink(dir + "/exe")
		switch {
		case err != nil:
			if _, ours := w.pids[pid]; !ours {
				w.other[pid] = true // not ours to read, or gone
			}
			continue
		case exe == w.exe:
		case exe == w.parent:
			continue // Terraform, or a child of it about to exec the provider
		default:
			w.other[pid] = true
			continue
		}
		if cpu, ok := readCPU(dir + "/stat"); ok || w.pids[pid] == 0 {
			w.pids[pid] = cpu
		}
		if hwm := readVmHWM(dir + "/status"); hwm > w.peak {
			w.peak = hwm
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

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// readCPU returns utime+stime of a /proc/<pid>/stat file in seconds.
func readCPU(path string) (float64, bool) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	return parseStatCPU(string(raw))
}

func parseStatCPU(stat string) (float64, bool) {
	// The command name (field 2) may contain spaces: fields are counted
	// after its closing parenthesis, from field 3 (state).
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14
	stime, err2 := strconv.ParseInt(f[12], 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return float64(utime+stime) / clockTicks, true
}

// readVmHWM returns the VmHWM line of a /proc/<pid>/status file, in KiB.
func readVmHWM(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	return parseVmHWM(bufio.NewScanner(f))
}

func parseVmHWM(sc *bufio.Scanner) int64 {
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fields := strings.Fields(rest)
			if len(fields) == 0 {
				return 0
			}
			n, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				return 0
			}
			return n // always in kB
		}
	}
	return 0
}

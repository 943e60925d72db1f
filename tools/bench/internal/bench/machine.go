package bench

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/prometheus/procfs"
)

// Machine describes where the benchmark ran.
type Machine struct {
	CPU       string  `json:"cpu"`
	Cores     int     `json:"cores"`
	MemoryGiB float64 `json:"memory_gib"`
	OS        string  `json:"os"`
	Kernel    string  `json:"kernel,omitempty"`
	Go        string  `json:"go"`
	Terraform string  `json:"terraform"`
	Commit    string  `json:"commit,omitempty"`
	// Dirty reports uncommitted changes in the working tree.
	Dirty bool `json:"dirty,omitempty"`
	// LoadStart and LoadEnd are the 1, 5 and 15 minute load averages
	// when the measurements started and ended: other work on the machine
	// makes wall times noisy.
	LoadStart string `json:"load_average_start,omitempty"`
	LoadEnd   string `json:"load_average_end,omitempty"`
}

// loadAverage returns the 1, 5 and 15 minute load averages ("" where
// /proc has none).
func loadAverage() string {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return ""
	}
	l, err := fs.LoadAvg()
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%.2f %.2f %.2f", l.Load1, l.Load5, l.Load15)
}

func machineInfo(ctx context.Context, root string) Machine {
	m := Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, Go: runtime.Version()}
	if fs, err := procfs.NewDefaultFS(); err == nil {
		if cpus, err := fs.CPUInfo(); err == nil && len(cpus) > 0 {
			m.CPU = cpus[0].ModelName
		}
		if mem, err := fs.Meminfo(); err == nil && mem.MemTotal != nil {
			m.MemoryGiB = math.Round(float64(*mem.MemTotal)/(1<<20)*10) / 10 // kB
		}
	}
	if raw, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(raw))
	}
	git := func(args ...string) string {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	m.Commit = git("rev-parse", "--short", "HEAD")
	m.Dirty = git("status", "--porcelain", "--untracked-files=no") != ""
	return m
}

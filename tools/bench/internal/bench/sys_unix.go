//go:build unix

package bench

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// killGroupOnCancel runs cmd in a process group of its own and, when its
// context ends, kills that group (Terraform and the provider processes it
// started), by the group's id.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}

// processUsage returns the peak RSS (KiB) and the CPU time (seconds) of a
// finished process, the latter including the children it waited for.
func processUsage(ps *os.ProcessState) (maxRSSKiB int64, cpu float64) {
	cpu = (ps.UserTime() + ps.SystemTime()).Seconds()
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, cpu
	}
	maxRSS := int64(ru.Maxrss) //nolint:unconvert // int32 on some platforms
	if runtime.GOOS == "darwin" {
		maxRSS /= 1024 // bytes there, KiB on Linux
	}
	return maxRSS, cpu
}

package s3test

import (
	"os/exec"
	"syscall"
)

// setDeathSignal kills weed when the process that started it dies, so that
// a test binary cut off (a timeout, ^C) leaves no store running.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

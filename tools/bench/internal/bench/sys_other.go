//go:build !unix

package bench

import (
	"os"
	"os/exec"
)

func killGroupOnCancel(*exec.Cmd) {}

func processUsage(ps *os.ProcessState) (maxRSSKiB int64, cpu float64) {
	return 0, (ps.UserTime() + ps.SystemTime()).Seconds()
}

//go:build unix

package bench

import (
	"testing"
	"time"
)

// selfCPU counts the CPU time this process spends: a busy loop makes it
// grow.
func TestSelfCPU(t *testing.T) {
	// Busy until the process has used 50 ms of CPU time more, which needs
	// 50 ms of a core: with selfCPU broken (stuck) that never happens. The
	// deadline is wall time, generous for a machine busy with other work.
	before := selfCPU()
	x := 0
	for deadline := time.Now().Add(10 * time.Second); selfCPU()-before < 0.05; x++ {
		if time.Now().After(deadline) {
			t.Fatalf("selfCPU grew by %.3f s over 10 s of a busy loop (x=%d)", selfCPU()-before, x)
		}
	}
}

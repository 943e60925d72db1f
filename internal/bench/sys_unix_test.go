//go:build unix

package bench

import (
	"testing"
	"time"
)

// selfCPU counts the CPU time this process spends: a busy loop of 100 ms
// shows.
func TestSelfCPU(t *testing.T) {
	before := selfCPU()
	x := 0
	for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
		x++
	}
	if spent := selfCPU() - before; spent < 0.05 {
		t.Errorf("selfCPU grew by %.3f s over a 100 ms busy loop (x=%d)", spent, x)
	}
}

package acctest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A subtest may start an acceptance test only when its top-level test
// called Parent or is marked Serial: otherwise the top-level test would
// run its subtests ahead of every parallel test, without saying why.
func TestHarness_subtestsNeedParentOrSerial(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		mark func(name string)
		want bool
	}{
		{"neither", func(string) {}, false},
		{"parent", func(name string) { parentTests.Store(name, true) }, true},
		{"serial", func(name string) { serialTests.Store(name, "a test of the harness") }, true},
	} {
		name := "TestHarnessExample_" + tc.name
		tc.mark(name)
		if got := decidedParent(name); got != tc.want {
			t.Errorf("%s: decidedParent = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A subtest that starts an acceptance test (parallel, as New and
// NewWorkdir call it) under a top-level test that called neither Parent
// nor Serial fails, naming acctest.Parent: run in a child process, which
// must fail (review rev42a).
func TestHarness_subtestUnderUndecidedParentFails(t *testing.T) {
	t.Parallel()
	if os.Getenv(childEnv) != "" {
		t.Skip("the child's own run")
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHarnessChild_undecided$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "call acctest.Parent(t)") {
		t.Errorf("a subtest that starts an acceptance test under a top-level test that called neither Parent "+
			"nor Serial did not fail (err %v):\n%s", err, out)
	}
}

// childEnv marks the child process of TestHarness_subtestUnderUndecidedParentFails.
const childEnv = "ACCTEST_HARNESS_CHILD"

// TestHarnessChild_undecided is the child of the test above.
func TestHarnessChild_undecided(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestHarness_subtestUnderUndecidedParentFails")
	}
	t.Run("sub", func(t *testing.T) { parallel(t) })
}

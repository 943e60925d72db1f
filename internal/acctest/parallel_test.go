package acctest

import "testing"

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

package acctest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// In a repeat pass, the harness skips a test not marked CLIDependent: it
// ran in the first run and the CLI does not change it.
func TestHarness_repeatPassSkipsUnmarked(t *testing.T) {
	t.Setenv(EnvRepeatPass, "1")
	reached := false
	t.Run("unmarked", func(t *testing.T) {
		startHarness(t)
		reached = true
	})
	if reached {
		t.Error("a test not marked CLIDependent ran in a repeat pass")
	}
}

// A marked test (and its subtests) runs in a repeat pass.
func TestHarness_repeatPassRunsMarked(t *testing.T) {
	t.Setenv(EnvRepeatPass, "1")
	CLIDependent(t, "a test of the harness")
	reached := false
	t.Run("marked", func(t *testing.T) {
		startHarness(t)
		reached = true
	})
	if !reached {
		t.Error("a test marked CLIDependent skipped in a repeat pass")
	}
}

// Outside a repeat pass, every test runs.
func TestHarness_firstRunRunsUnmarked(t *testing.T) {
	t.Setenv(EnvRepeatPass, "")
	reached := false
	t.Run("unmarked", func(t *testing.T) {
		startHarness(t)
		reached = true
	})
	if !reached {
		t.Error("a test not marked CLIDependent skipped outside a repeat pass")
	}
}

// In a repeat pass, Parent skips a parent not marked CLIDependent before any
// of its subtests runs.
func TestHarness_repeatPassSkipsUnmarkedParent(t *testing.T) {
	t.Setenv(EnvRepeatPass, "1")
	t.Setenv("TF_ACC", "1")
	reached := false
	t.Run("parent", func(t *testing.T) {
		parent(t)
		reached = true
	})
	if reached {
		t.Error("a parent not marked CLIDependent went on to its subtests in a repeat pass")
	}
}

// A marked parent goes on to its subtests in a repeat pass.
func TestHarness_repeatPassRunsMarkedParent(t *testing.T) {
	t.Setenv(EnvRepeatPass, "1")
	t.Setenv("TF_ACC", "1")
	CLIDependent(t, "a test of the harness")
	reached := false
	t.Run("parent", func(t *testing.T) {
		parent(t)
		reached = true
	})
	if !reached {
		t.Error("a parent marked CLIDependent skipped in a repeat pass")
	}
}

// A repeat pass runs only the steps a test keeps for it, in order.
func TestHarness_repeatPassSteps(t *testing.T) {
	steps := []resource.TestStep{{Config: "a"}, {Config: "b"}, {Config: "c"}}
	configs := func(steps []resource.TestStep) string {
		var s string
		for _, st := range steps {
			s += st.Config
		}
		return s
	}
	t.Setenv(EnvRepeatPass, "")
	if got := configs(RepeatPassSteps(steps, 0, 2)); got != "abc" {
		t.Errorf("first run: steps %q, want every step", got)
	}
	t.Setenv(EnvRepeatPass, "1")
	if got := configs(RepeatPassSteps(steps, 0, 2)); got != "ac" {
		t.Errorf("repeat pass: steps %q, want the kept ones (ac)", got)
	}
}

// A provider that make test built once (EnvProvider) is taken, not built
// again; a relative or wrong path is refused.
func TestHarness_providerFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "terraform-provider-analytics")
	if err := os.WriteFile(bin, nil, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvProvider, bin)
	if got, err := providerBinary(t, t.TempDir()); err != nil || got != dir {
		t.Errorf("providerBinary = %q, %v; want %q", got, err, dir)
	}
	for _, p := range []string{"terraform-provider-analytics", filepath.Join(dir, "other"), filepath.Join(t.TempDir(), "terraform-provider-analytics")} {
		t.Setenv(EnvProvider, p)
		if got, err := providerBinary(t, t.TempDir()); err == nil {
			t.Errorf("%s=%s: providerBinary = %q, want an error", EnvProvider, p, got)
		}
	}
}

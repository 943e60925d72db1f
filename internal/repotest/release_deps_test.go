package repotest

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// module is the provider's module path.
const module = "github.com/analytics-tf/terraform-provider-analytics"

// testSupport are this module's packages for tests and the bench: the
// acceptance harness, the fake clock, the object store, the certificates,
// and the emulator (which the standalone emulator command links, but the
// provider must not).
var testSupport = []string{"internal/acctest", "internal/testclock", "internal/s3test", "internal/tlstest", "internal/repotest"}

// goListDeps returns the packages that the package pattern pkg links, as
// `go list -deps -json` lists them (test files excluded).
func goListDeps(t *testing.T, pkg string) []goPackage {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", "list", "-deps", "-json", pkg)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			t.Fatalf("go list -deps %s: %v: %s", pkg, err, exitErr.Stderr)
		}
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// switchName matches a string literal that names an environment variable
// of a test or a profile, such as "ANALYTICS_TEST_RETRY_WAIT_MIN" or
// "TF_ANALYTICS_CPUPROFILE_DIR".
var switchName = regexp.MustCompile(`"[A-Z0-9_]*(TEST|PROFILE)[A-Z0-9_]*"`)

// TestReleaseLinksNoTestCode: the provider binary (the module's root
// package, what the release ships) links none of this module's test or
// bench packages, nor the emulator; and no package of this module that it
// or the standalone emulator command links imports the testing package (a
// dependency's own import of it, as go-plugin's, is its business). The
// bench is a module of its own (tools/bench), which the provider's module
// cannot even name. Nor does that code name an environment variable of a
// test or a profile (the switches a test or the bench would flip).
func TestReleaseLinksNoTestCode(t *testing.T) {
	acctest.OncePerTestRun(t, "go list of the release's dependencies, no CLI")
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, bin := range []struct {
		pkg    string
		banned []string
	}{
		{".", append([]string{"internal/emulator", "tools/bench"}, testSupport...)},
		{"./internal/cmd/analytics-emulator", testSupport},
	} {
		var ours []string
		for _, p := range goListDeps(t, bin.pkg) {
			rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
			if !ok {
				continue
			}
			ours = append(ours, rel)
			for _, banned := range bin.banned {
				if rel == banned || strings.HasPrefix(rel, banned+"/") {
					t.Errorf("%s links %s", bin.pkg, p.ImportPath)
				}
			}
			if slices.Contains(p.Imports, "testing") {
				t.Errorf("%s links %s, which imports testing", bin.pkg, p.ImportPath)
			}
			for _, f := range p.GoFiles {
				src, err := os.ReadFile(filepath.Join(p.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if m := switchName.Find(src); m != nil {
					t.Errorf("%s links %s/%s, which names %s: a test or bench switch", bin.pkg, p.ImportPath, f, m)
				}
			}
		}
		if len(ours) < 2 {
			t.Errorf("%s links only %q of this module: is the list right?", bin.pkg, ours)
		}
	}
}

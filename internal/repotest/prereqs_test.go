package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckPrereqs runs scripts/check-prereqs.sh with a stand-in for go
// that reports the Go version, C compiler and cgo setting of each case.
func TestCheckPrereqs(t *testing.T) {
	t.Parallel()
	stub := t.TempDir()
	script := "#!/bin/sh\n" +
		"case \"$1 $2\" in\n" +
		"'env GOVERSION') echo \"$STUB_GOVERSION\" ;;\n" +
		"'env CC') echo \"$STUB_CC\" ;;\n" +
		"'env CGO_ENABLED') echo \"$STUB_CGO\" ;;\n" +
		"*) exit 3 ;;\n" +
		"esac\n"
	if err := os.WriteFile(filepath.Join(stub, "go"), []byte(script), 0o700); err != nil { //nolint:gosec // an executable stub
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, target, goVersion, cc, cgo string
		want                             []string // in the error output; none: success
	}{
		{name: "demo with a new Go", target: "demo", goVersion: "go99.0.0", cc: "no-such-cc", cgo: "0"},
		{name: "test with everything", target: "test", goVersion: "go99.1.2", cc: "sh", cgo: "1"},
		{name: "release candidate", target: "test", goVersion: "go99.0rc1", cc: "sh", cgo: "1"},
		{name: "old Go for the provider", target: "install", goVersion: "go1.1.0", cc: "sh", cgo: "1",
			want: []string{"make install cannot run", "or later, asked for by go.mod", "found go1.1.0", "GOTOOLCHAIN=local"}},
		{name: "old Go for the tools", target: "test", goVersion: "go1.1.0", cc: "sh", cgo: "1",
			want: []string{"make test cannot run", "or later, asked for by tools/", "found go1.1.0"}},
		{name: "no C compiler", target: "test", goVersion: "go99.0.0", cc: "no-such-cc", cgo: "0",
			want: []string{"a C compiler for go test -race (cgo): 'no-such-cc' not found"}},
		{name: "cgo off", target: "test", goVersion: "go99.0.0", cc: "sh", cgo: "0",
			want: []string{"CGO_ENABLED is 0"}},
		{name: "everything missing at once", target: "test", goVersion: "go1.1.0", cc: "no-such-cc", cgo: "0",
			want: []string{"found go1.1.0", "'no-such-cc' not found", "See Prerequisites in README.md."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(filepath.Join("..", "..", "scripts", "check-prereqs.sh"), tc.target)
			cmd.Env = append(os.Environ(), "PATH="+stub+string(os.PathListSeparator)+os.Getenv("PATH"),
				"STUB_GOVERSION="+tc.goVersion, "STUB_CC="+tc.cc, "STUB_CGO="+tc.cgo)
			out, err := cmd.CombinedOutput()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("want success, got %v:\n%s", err, out)
				}
				return
			}
			if err == nil {
				t.Fatalf("want a failure, got success:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestMainIsTheRelease: this main is the release's (the repository's
// main.go) statement for statement, but for the CPU profile's, so that the
// bench measures the binary users run.
func TestMainIsTheRelease(t *testing.T) {
	t.Parallel()
	release := mainBody(t, filepath.Join("..", "..", "..", "main.go"))
	bench := mainBody(t, "main.go")
	var kept []string
	for _, s := range bench {
		if !strings.Contains(s, "cpuprofile.") && !strings.Contains(s, "stopProfile") {
			kept = append(kept, s)
		}
	}
	if got, want := strings.Join(kept, "\n"), strings.Join(release, "\n"); got != want {
		t.Errorf("the bench's main differs from the release's beyond the profile:\n%s\nwant\n%s", got, want)
	}
	if len(kept) == len(bench) {
		t.Error("the bench's main starts no CPU profile")
	}
}

// mainBody returns the statements of func main in file, printed.
func mainBody(t *testing.T, file string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "main" {
			for _, s := range fn.Body.List {
				var b bytes.Buffer
				if err := printer.Fprint(&b, fset, s); err != nil {
					t.Fatal(err)
				}
				out = append(out, b.String())
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no func main", file)
	}
	return out
}

package repotest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// recipeExampleTests are the tests CONTRIBUTING.md's "Adding an attribute"
// names that the contributor writes, each with where.
var recipeExampleTests = map[string]string{
	"TestAccWebsite_label": "the acceptance test of the recipe's example attribute (step 9)",
}

// `make test-guards` runs every guard test that CONTRIBUTING.md's "Adding
// an attribute" names: a guard it leaves out passes there while its edit is
// missing, and the contributor who ran it believes the recipe done.
func TestContributing_testGuardsRunsTheRecipesGuards(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, ok := strings.Cut(string(doc), "**Adding an attribute**")
	recipe, _, ok2 := strings.Cut(recipe, "**Where a new thing goes.**")
	if !ok || !ok2 {
		t.Fatal(`CONTRIBUTING.md has no "**Adding an attribute**" paragraph followed by "**Where a new thing goes.**"`)
	}
	makefile, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^GUARD_TESTS\s*:=\s*(.+)$`).FindSubmatch(makefile)
	if m == nil {
		t.Fatal("GNUmakefile has no GUARD_TESTS := line")
	}
	guards, err := regexp.Compile(strings.ReplaceAll(string(m[1]), "$$", "$"))
	if err != nil {
		t.Fatalf("GNUmakefile's GUARD_TESTS is no regular expression: %v", err)
	}
	// The packages the test-guards target's go test runs (its recipe, up
	// to the next blank line).
	target := regexp.MustCompile(`(?ms)^test-guards:.*?\n\n`).Find(makefile)
	if target == nil {
		t.Fatal("GNUmakefile has no test-guards target")
	}
	packages := map[string]bool{}
	for _, p := range regexp.MustCompile(`\./(internal/[\w/]+)`).FindAllSubmatch(target, -1) {
		packages[string(p[1])] = true
	}
	defined := definedTests(t, root, "internal")
	var named []string
	for _, n := range regexp.MustCompile("`(Test\\w+)`").FindAllStringSubmatch(recipe, -1) {
		if !slices.Contains(named, n[1]) {
			named = append(named, n[1])
		}
	}
	if len(named) < 10 {
		t.Fatalf("CONTRIBUTING.md's recipe names %d tests: %v", len(named), named)
	}
	for _, name := range named {
		_, example := recipeExampleTests[name]
		switch {
		case example:
		case len(defined[name]) == 0:
			t.Errorf("CONTRIBUTING.md's \"Adding an attribute\" names %s, which no test file under internal/ defines: "+
				"correct the name there, or name it in recipeExampleTests (internal/repotest/guards_test.go) if the "+
				"contributor writes it", name)
		case !guards.MatchString(name):
			t.Errorf("CONTRIBUTING.md's \"Adding an attribute\" names the guard %s, which `make test-guards` does not run: "+
				"add it to GUARD_TESTS in GNUmakefile", name)
		}
		for _, dir := range defined[name] {
			if !example && !packages[dir] {
				t.Errorf("CONTRIBUTING.md's \"Adding an attribute\" names the guard %s, defined in %s, a package "+
					"`make test-guards` does not test: add ./%s to the go test of the test-guards target in GNUmakefile",
					name, dir, dir)
			}
		}
	}
}

// definedTests are the test functions under root's dir, each with the
// packages (directories, relative to root) that define one of that name.
func definedTests(t *testing.T, root, dir string) map[string][]string {
	t.Helper()
	names := map[string][]string{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			if pkg := filepath.ToSlash(rel); !slices.Contains(names[string(m[1])], pkg) {
				names[string(m[1])] = append(names[string(m[1])], pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

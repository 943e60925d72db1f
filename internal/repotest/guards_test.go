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
	defined := definedTests(t, filepath.Join(root, "internal"))
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
		case !defined[name]:
			t.Errorf("CONTRIBUTING.md's \"Adding an attribute\" names %s, which no test file under internal/ defines: "+
				"correct the name there, or name it in recipeExampleTests (internal/repotest/guards_test.go) if the "+
				"contributor writes it", name)
		case !guards.MatchString(name):
			t.Errorf("CONTRIBUTING.md's \"Adding an attribute\" names the guard %s, which `make test-guards` does not run: "+
				"add it to GUARD_TESTS in GNUmakefile", name)
		}
	}
}

// definedTests are the names of the test functions under dir.
func definedTests(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

package repotest

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// blockNeeds are the CLI features a code block may use that the oldest
// supported CLI lacks: such a block is validated only on CLIs that have
// them. (Write-only attributes are checked differently: under older CLIs
// they must fail with exactly the framework's error.)
var blockNeeds = []struct{ marker, version, feature string }{
	{"identity =", "1.12.0", "an import block by identity"},
}

// markdownBlock is a fenced code block of a Markdown file.
type markdownBlock struct {
	file string // relative to the repository root
	line int    // of the opening fence
	text string
}

// terraformBlocks returns the ```terraform blocks of a Markdown file.
func terraformBlocks(t *testing.T, root, rel string) []markdownBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	var (
		blocks []markdownBlock
		cur    *markdownBlock
		body   strings.Builder
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```terraform":
			cur = &markdownBlock{file: rel, line: n}
			body.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: unterminated code block", rel, cur.line)
	}
	return blocks
}

// TestAccReadmeExamplesValidate runs `terraform validate` (or `tofu
// validate`) on every ```terraform block of README.md and of docs/, each
// alone, exactly as a reader would copy it into an empty directory, with the
// provider of this tree. The docs' blocks that tfplugindocs copied from
// examples/ are left to TestAccExamplesValidate, which validates them with
// the other files of their directory. A fragment that is not meant to
// validate alone belongs in a ```hcl block. A block with a `list` block is
// a query file, as the README says to write it (*.tfquery.hcl beside the
// provider's configuration), validated with `validate -query` on CLIs that
// have list resources (Terraform 1.14 and later). A block with an action
// must be refused, for its action blocks only, by CLIs without actions.
func TestAccReadmeExamplesValidate(t *testing.T) {
	acctest.CLIDependent(t, "each CLI validates the README's blocks (write-only, query and actions where it has them)")
	cli, root := cliTest(t)
	cliConfig := acctest.BuiltProvider(t)
	writeOnlySupported := acctest.CLIAtLeast(t, cli, "1.11.0")
	querySupported := acctest.CLIHasQuery(t, cli)
	// Blocks with actions use before_destroy triggers: Terraform 1.16.
	actionsSupported := querySupported && acctest.CLIAtLeast(t, cli, "1.16.0")

	// The contents of examples/, as tfplugindocs copies them.
	examples := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".tf" {
			return err
		}
		data, err := os.ReadFile(path)
		examples[strings.TrimSpace(string(data))] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	blocks := terraformBlocks(t, root, "README.md")
	readme := len(blocks)
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, b := range terraformBlocks(t, root, rel) {
			if !examples[strings.TrimSpace(b.text)] {
				blocks = append(blocks, b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if readme < 1 {
		t.Fatalf("found %d terraform blocks in README.md, expected at least 1", readme)
	}

	for _, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
			for _, need := range blockNeeds {
				if strings.Contains(b.text, need.marker) && !acctest.CLIAtLeast(t, cli, need.version) {
					t.Skipf("%s needs Terraform or OpenTofu %s or later: validated on the newer CLIs of make test", need.feature, need.version)
				}
			}
			work := t.TempDir()
			files := map[string]string{"main.tf": b.text}
			args := []string{"validate", "-no-color"}
			if isQueryFile(b.text) {
				if !querySupported {
					t.Skip("a query file: list resources need Terraform 1.14 or later (not OpenTofu); validated on the newer CLI of make test")
				}
				files = map[string]string{"main.tfquery.hcl": b.text, "main.tf": queryProviderConfig}
				args = append(args, "-query")
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(cli, args...)
			cmd.Dir = work
			cmd.Env = acctest.CLIEnviron(cliConfig)
			out, err := cmd.CombinedOutput()
			if strings.Contains(b.text, "action \"analytics_") && !actionsSupported {
				checkActionsRefused(t, string(out), err)
				return
			}
			usesWriteOnly := strings.Contains(b.text, "_wo ")
			checkValidateOutput(t, cli, string(out), err, usesWriteOnly && !writeOnlySupported)
		})
	}
}

// queryProviderConfig is the configuration beside a query file of the
// README or the docs, which the text around them says to have.
const queryProviderConfig = `
terraform {
  required_providers {
    analytics = { source = "analytics-tf/analytics" }
  }
}

provider "analytics" {}
`

// isQueryFile reports whether a code block holds a top-level list block,
// which only a .tfquery.hcl file may hold.
func isQueryFile(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "list \"") {
			return true
		}
	}
	return false
}

package repotest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccExamplesValidate runs `terraform validate` (or `tofu validate`) on
// every example configuration, with the provider built from this tree and
// installed through dev_overrides. Under a CLI older than 1.11, examples that
// use write-only attributes must fail with exactly the framework's
// "needs Terraform 1.11" error and nothing else. Query files (list blocks,
// *.tfquery.hcl) are validated too (`validate -query`) by Terraform 1.14 and
// later; older CLIs do not read them.
func TestAccExamplesValidate(t *testing.T) {
	acctest.CLIDependent(t, "each CLI validates the examples (write-only, query and actions where it has them)")
	cli, root := cliTest(t)

	cliConfig := acctest.BuiltProvider(t)

	writeOnlySupported := acctest.CLIAtLeast(t, cli, "1.11.0")
	querySupported := acctest.CLIHasQuery(t, cli)
	// The action examples use before_destroy triggers: Terraform 1.16.
	actionsSupported := querySupported && acctest.CLIAtLeast(t, cli, "1.16.0")
	dirs, err := filepath.Glob(filepath.Join(root, "examples", "*", "*", "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*.tf"))
	queries, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*", "*.tfquery.hcl"))
	seen := map[string]bool{}
	for _, f := range append(append(dirs, more...), queries...) {
		dir := filepath.Dir(f)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			work := t.TempDir()
			files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
			queryFiles, _ := filepath.Glob(filepath.Join(dir, "*.tfquery.hcl"))
			args := []string{"validate", "-no-color"}
			switch {
			case len(queryFiles) > 0 && querySupported:
				files = append(files, queryFiles...)
				args = append(args, "-query")
			case len(files) == 0:
				t.Skip("query files only: terraform query needs Terraform 1.14 or later")
			}
			usesWriteOnly, usesActions := false, false
			for _, src := range files {
				data, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				usesWriteOnly = usesWriteOnly || bytes.Contains(data, []byte("_wo "))
				usesActions = usesActions || bytes.Contains(data, []byte("action \"analytics_"))
				if err := os.WriteFile(filepath.Join(work, filepath.Base(src)), data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(cli, args...)
			cmd.Dir = work
			cmd.Env = acctest.CLIEnviron(cliConfig)
			out, err := cmd.CombinedOutput()
			if usesActions && !actionsSupported {
				checkActionsRefused(t, string(out), err)
				return
			}
			checkValidateOutput(t, cli, string(out), err, usesWriteOnly && !writeOnlySupported)
		})
	}
	if len(seen) < 5 {
		t.Fatalf("validated %d example directories, expected at least 5", len(seen))
	}
}

// checkValidateOutput fails the test unless `validate` succeeded or, when
// writeOnlyRefused (a configuration with write-only attributes under a CLI
// older than 1.11), failed with only the framework's write-only error.
func checkValidateOutput(t *testing.T, cli, out string, err error, writeOnlyRefused bool) {
	t.Helper()
	switch {
	case writeOnlyRefused:
		if err == nil || !strings.Contains(out, "WriteOnly Attribute Not Allowed") {
			t.Fatalf("want only the write-only version error under this CLI, got err=%v:\n%s", err, out)
		}
		if n := strings.Count(out, "Error: "); n != strings.Count(out, "Error: WriteOnly Attribute Not Allowed") {
			t.Fatalf("errors other than the write-only version error:\n%s", out)
		}
	case err != nil:
		t.Fatalf("%s validate: %v\n%s", filepath.Base(cli), err, out)
	case !strings.Contains(out, "The configuration is valid"):
		t.Fatalf("unexpected validate output:\n%s", out)
	}
}

// checkActionsRefused fails the test unless `validate` of a configuration
// with actions failed, under a CLI without them (Terraform below 1.14 and
// OpenTofu; before_destroy triggers: 1.16), with only errors about the
// action and action_trigger blocks.
func checkActionsRefused(t *testing.T, out string, err error) {
	t.Helper()
	const refused = "Error: Unsupported block type"
	if err == nil || !strings.Contains(out, refused) || !strings.Contains(out, `Blocks of type "action"`) {
		t.Fatalf("want the action blocks refused under this CLI, got err=%v:\n%s", err, out)
	}
	if n := strings.Count(out, "Error: "); n != strings.Count(out, refused) {
		t.Fatalf("errors other than the refused action blocks:\n%s", out)
	}
}

// cliTest starts an acceptance test that runs the CLI itself (not through
// terraform-plugin-testing): it returns the CLI of TF_ACC_TERRAFORM_PATH and
// the repository's root, or skips t without TF_ACC.
func cliTest(t *testing.T) (cli, root string) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	acctest.PreCheck(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return os.Getenv("TF_ACC_TERRAFORM_PATH"), root
}

package repotest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/provider"
	"github.com/analytics-tf/terraform-provider-analytics/internal/schemadump"
)

// docsSchemaCLI is the release whose `terraform providers schema -json`
// the docs' schema must equal: the newest the project builds
// (TERRAFORM_LATEST_VERSION in GNUmakefile), on which make test's second
// acceptance run (testacc-tfnew) runs this test.
const docsSchemaCLI = "1.16.4"

// `make docs` renders docs/ from the provider's schema dumped in process
// (internal/cmd/providers-schema, internal/schemadump), with no Terraform
// CLI. This proves the dump is what Terraform itself prints for the
// provider built from this tree: the same document, key for key, write-only
// attributes marked as Terraform marks them, the list resource's schema
// wrapped as Terraform wraps it. It runs on Terraform 1.16.4 and later (in
// make test, the testacc-tfnew run) and skips on older CLIs, whose dump
// lacks write-only marks and list resources, and on OpenTofu.
func TestAccProvidersSchema_dumpMatchesTerraform(t *testing.T) {
	acctest.CLIDependent(t, "the docs' schema equals Terraform 1.16.4's providers schema -json")
	w := acctest.NewWorkdir(t)
	if w.IsOpenTofu() {
		t.Skip("the docs' schema is Terraform's form; OpenTofu's differs")
	}
	if !acctest.CLIAtLeast(t, w.CLI, docsSchemaCLI) {
		t.Skipf("the docs' schema is the form of Terraform %s; make test runs this test on it (testacc-tfnew)", docsSchemaCLI)
	}
	w.Write("main.tf", `terraform {
  required_providers {
    analytics = {
      source = "`+schemadump.DocsAddress+`"
    }
  }
}
`)
	var fromCLI any
	raw := w.Stdout("providers", "schema", "-json")
	if err := json.Unmarshal(raw, &fromCLI); err != nil {
		t.Fatalf("terraform providers schema -json: %v\n%s", err, raw)
	}

	server, err := providerserver.NewProtocol6WithError(provider.New("dev")())()
	if err != nil {
		t.Fatal(err)
	}
	dump, err := schemadump.Dump(t.Context(), server, schemadump.DocsAddress)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(dump)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"write_only":true`) {
		t.Errorf("the dump marks no attribute write_only; analytics_website's password_wo is one")
	}
	var fromDump any
	if err := json.Unmarshal(data, &fromDump); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fromCLI, fromDump); diff != "" {
		t.Errorf("the in-process dump (internal/schemadump) differs from `terraform providers schema -json` of Terraform %s "+
			"(-terraform +dump); make schemadump write what Terraform writes:\n%s", acctest.CLIVersion(t, w.CLI), diff)
	}
}

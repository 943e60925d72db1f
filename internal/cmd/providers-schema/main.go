// Command providers-schema writes the provider's schema, in the JSON form
// that `terraform providers schema -json` prints, to the file given as its
// argument (or to standard output with no argument). It serves the provider
// of this tree in process (internal/schemadump), so neither a Terraform CLI
// nor a provider build is needed; `make docs` hands the file to tfplugindocs
// through --providers-schema.
//
//	go run ./internal/cmd/providers-schema OUT.json
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/analytics-tf/terraform-provider-analytics/internal/provider"
	"github.com/analytics-tf/terraform-provider-analytics/internal/schemadump"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "providers-schema:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("usage: providers-schema [OUT.json]")
	}
	server, err := providerserver.NewProtocol6WithError(provider.New("dev")())()
	if err != nil {
		return err
	}
	schemas, err := schemadump.Dump(context.Background(), server, schemadump.DocsAddress)
	if err != nil {
		return err
	}
	data, err := json.Marshal(schemas)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if len(args) == 0 {
		_, err = os.Stdout.Write(data)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(args[0]), 0o755); err != nil {
		return err
	}
	return os.WriteFile(args[0], data, 0o644)
}

// Build module for Terraform 1.15.9, the newest stable Terraform, used by the
// acceptance tests (make test) and for the docs' schema dump. Not part of the
// provider; built by scripts/install-tools.sh into .tools/bin/terraform-1.15.9.
// The Go module proxy's version list stops at v1.13.3, but it serves later
// releases when asked for the exact version (go get ...@v1.15.9).
//
// Terraform's go.mod replaces ten nested modules with local directories that
// the proxy does not serve. They are replaced here by stubs that
// scripts/install-tools.sh generates from stub.go.tmpl into
// .tools/terraform-stubs (a backend whose every method fails, and an empty
// legacy module). Build with GOFLAGS=-mod=mod; do not `go mod tidy`.
module github.com/analytics-tf/terraform-provider-analytics/tools/terraform

go 1.25.10

require github.com/hashicorp/terraform v1.15.9

replace github.com/hashicorp/terraform/internal/backend/remote-state/azure => ../../.tools/terraform-stubs/azure

replace github.com/hashicorp/terraform/internal/backend/remote-state/consul => ../../.tools/terraform-stubs/consul

replace github.com/hashicorp/terraform/internal/backend/remote-state/cos => ../../.tools/terraform-stubs/cos

replace github.com/hashicorp/terraform/internal/backend/remote-state/gcs => ../../.tools/terraform-stubs/gcs

replace github.com/hashicorp/terraform/internal/backend/remote-state/kubernetes => ../../.tools/terraform-stubs/kubernetes

replace github.com/hashicorp/terraform/internal/backend/remote-state/oci => ../../.tools/terraform-stubs/oci

replace github.com/hashicorp/terraform/internal/backend/remote-state/oss => ../../.tools/terraform-stubs/oss

replace github.com/hashicorp/terraform/internal/backend/remote-state/pg => ../../.tools/terraform-stubs/pg

replace github.com/hashicorp/terraform/internal/backend/remote-state/s3 => ../../.tools/terraform-stubs/s3

replace github.com/hashicorp/terraform/internal/legacy => ../../.tools/terraform-stubs/legacy

#!/usr/bin/env bash
# Writes the provider's schema, as `terraform providers schema -json` prints
# it, to the file given as the first argument. Used by `make docs` so that
# tfplugindocs never builds the provider itself nor looks for (or downloads)
# a Terraform CLI: it reads this file through --providers-schema.
#
#   scripts/providers-schema.sh OUT.json [PROVIDER_DIR]
#
# The provider is built from PROVIDER_DIR (default: this checkout) and handed
# to the project's Terraform (TERRAFORM, default .tools/bin/terraform)
# through a dev_overrides CLI configuration, so nothing is installed and no
# network access is needed.
set -euo pipefail

out="${1:?usage: $0 OUT.json [PROVIDER_DIR]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
provider_dir="${2:-${root}}"
terraform="${TERRAFORM:-${root}/.tools/bin/terraform}"

if [[ ! -x "${terraform}" ]]; then
	echo "providers-schema: no Terraform CLI at ${terraform}; run scripts/install-tools.sh terraform" >&2
	exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

(cd "${provider_dir}" && go build -o "${work}/bin/terraform-provider-analytics" .)

# tfplugindocs looks a provider's schema up under "<name>" or
# "registry.terraform.io/hashicorp/<name>" only, so the throwaway
# configuration names the provider by that address; dev_overrides maps it to
# the binary just built (the address does not reach the provider itself).
cat >"${work}/cli.tfrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/hashicorp/analytics" = "${work}/bin"
  }
}
EOF
mkdir "${work}/config"
cat >"${work}/config/main.tf" <<'EOF'
terraform {
  required_providers {
    analytics = {
      source = "registry.terraform.io/hashicorp/analytics"
    }
  }
}
EOF

# stderr carries Terraform's "provider development overrides are in effect"
# warning; show it only when the command fails.
if ! (
	cd "${work}/config"
	env TF_CLI_CONFIG_FILE="${work}/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 \
		"${terraform}" providers schema -json >"${work}/schema.json" 2>"${work}/stderr"
); then
	cat "${work}/stderr" >&2
	echo "providers-schema: terraform providers schema -json failed" >&2
	exit 1
fi

mkdir -p "$(dirname "${out}")"
mv "${work}/schema.json" "${out}"

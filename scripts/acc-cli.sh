#!/usr/bin/env bash
# Resolves the TF of `make testacc` and `make testacc-live` to a CLI binary:
#
#   scripts/acc-cli.sh TF     TF: 1.8.5, the newest built Terraform version
#                             (tools/terraform), tofu, or the path or name of
#                             any terraform or tofu binary
#
# The project's own CLIs are built first when absent (install-tools.sh).
# Prints three lines: the binary's absolute path, the provider registry host
# the acceptance tests must register the provider under (empty for
# Terraform, registry.opentofu.org for OpenTofu) and the CLI's version line.
# The version is read with an empty CLI configuration: OpenTofu prints a
# warning about a missing one on stdout, before its version.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${root}/.tools/bin"
latest="$(cd "${root}/tools/terraform" && go list -m -f '{{.Version}}' github.com/hashicorp/terraform)"
latest="${latest#v}"

tf="${1:?usage: acc-cli.sh TF}"
case "${tf}" in
1.8.5)
	"${root}/scripts/install-tools.sh" terraform >&2
	bin="${tools}/terraform"
	;;
"${latest}")
	"${root}/scripts/install-tools.sh" terraform-latest >&2
	bin="${tools}/terraform-${latest}"
	;;
tofu)
	"${root}/scripts/install-tools.sh" tofu >&2
	bin="${tools}/tofu"
	;;
*)
	bin="$(command -v -- "${tf}" || true)"
	if [[ -z "${bin}" || ! -x "${bin}" ]]; then
		echo "TF must be 1.8.5, ${latest}, tofu or the path of a terraform or tofu binary, not '${tf}'" >&2
		exit 2
	fi
	bin="$(cd "$(dirname "${bin}")" && pwd)/$(basename "${bin}")"
	;;
esac

version="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "${bin}" version 2>/dev/null | grep -m 1 -E '^(Terraform|OpenTofu) v' || true)"
if [[ -z "${version}" ]]; then
	echo "${bin} does not report a Terraform or OpenTofu version ('${bin} version')" >&2
	exit 2
fi
host=""
if [[ "${version}" == OpenTofu* ]]; then
	host=registry.opentofu.org
fi
printf '%s\n%s\n%s\n' "${bin}" "${host}" "${version}"

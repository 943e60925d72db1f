#!/usr/bin/env bash
# make install: builds the provider from this tree and installs it into a
# filesystem mirror where `terraform init` and `tofu init` find it without
# any CLI configuration:
#
#   ${PLUGIN_DIR}/registry.terraform.io/analytics-tf/analytics/${VERSION}/${GOOS}_${GOARCH}/
#   ${PLUGIN_DIR}/registry.opentofu.org/analytics-tf/analytics/${VERSION}/${GOOS}_${GOARCH}/
#
# PLUGIN_DIR  default ~/.terraform.d/plugins, one of the directories both
#             CLIs search implicitly (on Linux and macOS) when the CLI
#             configuration has no provider_installation block
# VERSION     default: the tag vX.Y.Z at HEAD without its "v", else the newest
#             version in CHANGELOG.md (a plain X.Y.Z, so that constraints such
#             as "~> 0.2" match it; Terraform only selects a pre-release such
#             as 0.2.0-dev when a constraint names it exactly)
#
# Afterwards it prints the required_providers block that selects this build
# and, for those who rebuild often, the dev_overrides CLI configuration
# that skips `terraform init` altogether. scripts/demo.sh installs the
# provider the same way, into its own directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"

# -q: install without the explanation; --print-version: print the version
# that would be installed, and install nothing.
quiet=0
print_version=0
case "${1:-}" in
-q) quiet=1 ;;
--print-version) print_version=1 ;;
"") ;;
*)
	echo "usage: $0 [-q | --print-version]" >&2
	exit 2
	;;
esac

if [[ -z "${VERSION:-}" ]]; then
	VERSION="$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null || true)"
	VERSION="${VERSION#v}"
fi
if [[ -z "${VERSION}" ]]; then
	VERSION="$(sed -n 's/^## \([0-9][0-9.]*[0-9]\)\( .*\)\{0,1\}$/\1/p' CHANGELOG.md | head -n 1)"
fi
if [[ ! "${VERSION}" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "install-provider: VERSION must be a version such as 0.2.0, not '${VERSION}'" >&2
	exit 2
fi
if [[ ${print_version} -eq 1 ]]; then
	echo "${VERSION}"
	exit 0
fi
plugin_dir="${PLUGIN_DIR:-${HOME}/.terraform.d/plugins}"
os_arch="$(go env GOOS)_$(go env GOARCH)"
binary="terraform-provider-analytics_v${VERSION}"

dirs=()
for host in registry.terraform.io registry.opentofu.org; do
	dirs+=("${plugin_dir}/${host}/analytics-tf/analytics/${VERSION}/${os_arch}")
done
mkdir -p "${dirs[@]}"
# As the release builds (.goreleaser.yml): static, without cgo, so that the
# same source, version and Go release give the same binary, and checksum,
# anywhere.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o "${dirs[0]}/${binary}" .
cp "${dirs[0]}/${binary}" "${dirs[1]}/${binary}"

[[ ${quiet} -eq 1 ]] && exit 0
cat <<EOF
Installed terraform-provider-analytics ${VERSION} (${os_arch}) into
  ${dirs[0]}/
  ${dirs[1]}/

terraform init and tofu init now install it from there, with no CLI configuration, for
configurations that require it as follows:

  terraform {
    required_providers {
      analytics = {
        source  = "analytics-tf/analytics"
        version = "${VERSION}"
      }
    }
  }

To use a rebuilt provider without re-running init, write instead a CLI configuration
(~/.terraformrc, ~/.tofurc or the file named by TF_CLI_CONFIG_FILE) with:

  provider_installation {
    dev_overrides {
      "registry.terraform.io/analytics-tf/analytics"  = "${dirs[0]}"
      "registry.opentofu.org/analytics-tf/analytics" = "${dirs[1]}"
    }
    direct {}
  }
EOF

#!/usr/bin/env bash
# make demo: build the provider, build Terraform if absent, start the local
# emulator, run a real `terraform init` and `terraform apply` of
# examples/demo against it through a CLI configuration that points at the
# local build, print the outputs, show that a second plan has no changes, and
# stop the emulator. The provider is installed as `make install` does
# (scripts/install-provider.sh), into .demo/plugins instead of
# ~/.terraform.d/plugins, and its checksum is recorded in the lock file before
# `terraform init`, as a pipeline would commit it.
set -euo pipefail

# shellcheck source=scripts/emulator-url.sh
source "$(dirname "${BASH_SOURCE[0]}")/emulator-url.sh"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"

demo="${root}/.demo"
version="$(scripts/install-provider.sh --print-version)"
os_arch="$(go env GOOS)_$(go env GOARCH)"
work="${demo}/work"
export CHECKPOINT_DISABLE=1

say() { printf '\n==> %s\n' "$*"; }

say "Building Terraform if absent (project-local, .tools/bin)"
scripts/install-tools.sh terraform
terraform="${root}/.tools/bin/terraform"
# TF_CLI_CONFIG_FILE may name a file that does not exist on a fresh machine,
# on which Terraform warns; the demo's own configuration is written below.
env -u TF_CLI_CONFIG_FILE CHECKPOINT_DISABLE=1 "${terraform}" version

say "Building the provider ${version} and the emulator"
rm -rf "${demo}"
mkdir -p "${work}"
PLUGIN_DIR="${demo}/plugins" VERSION="${version}" scripts/install-provider.sh -q
go build -o "${demo}/analytics-emulator" ./internal/cmd/analytics-emulator

say "Starting the emulator"
api_key="demo-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"${demo}/analytics-emulator" -addr 127.0.0.1:0 -api-key "${api_key}" \
	-rate-limit 60 -state-file "${demo}/emulator-state.json" >"${demo}/emulator.out" 2>"${demo}/emulator.log" &
emulator_pid=$!
trap 'kill "${emulator_pid}" 2>/dev/null || true; wait "${emulator_pid}" 2>/dev/null || true' EXIT
base_url="$(emulator_url "${demo}/emulator.out" "${demo}/emulator.log" "${emulator_pid}")"
echo "emulator at ${base_url} (60 requests/minute throttle on, as on a real installation)"

# The CLI configuration installs the provider from the local build only.
cat >"${demo}/terraformrc" <<CFG
provider_installation {
  filesystem_mirror {
    path    = "${demo}/plugins"
    include = ["registry.terraform.io/analytics-tf/analytics"]
  }
  direct {
    exclude = ["registry.terraform.io/analytics-tf/analytics"]
  }
}
CFG
export TF_CLI_CONFIG_FILE="${demo}/terraformrc"
export ANALYTICS_BASE_URL="${base_url}"
export ANALYTICS_API_KEY="${api_key}"
export TF_IN_AUTOMATION=1

cp examples/demo/main.tf "${work}/"
tf() { "${terraform}" -chdir="${work}" "$@"; }

say "terraform providers lock: record the local build's checksum in .terraform.lock.hcl"
# Without a lock file, init computes the checksum itself and warns
# ("Incomplete lock file information") that it holds this platform's only.
tf providers lock -no-color -fs-mirror="${demo}/plugins" -platform="${os_arch}" \
	registry.terraform.io/analytics-tf/analytics

say "terraform init"
tf init -input=false -no-color
echo "Note: \"(unauthenticated)\" above is expected: a provider built locally carries no registry"
echo "signature; the checksum in .terraform.lock.hcl is what pins this build."

say "terraform apply"
tf apply -input=false -auto-approve -no-color

say "terraform output"
tf output -no-color

say "Second plan: expecting no changes"
set +e
tf plan -input=false -detailed-exitcode -no-color
code=$?
set -e
if [[ ${code} -ne 0 ]]; then
	echo "the second plan was not empty (exit code ${code})" >&2
	exit 1
fi

say "Requests the emulator answered"
curl -fsS "${base_url%/}/__emulator/stats" 2>/dev/null || true
echo
say "Done: the websites are in the emulator's state file ${demo}/emulator-state.json; stopping the emulator"

#!/usr/bin/env bash
# Builds the project-local development tools into .tools/bin (git-ignored).
#
#   scripts/install-tools.sh [tool...]    tools: terraform terraform-latest tofu
#                                         golangci-lint tfplugindocs goreleaser
#                                         gremlins terraform-provider-time
#                                         weed changie (default: all)
#
# Everything is built from source through the Go module proxy, but changie,
# whose Go module the proxy does not serve: it comes from its npm package,
# which ships the binaries (npm pack, checked against CHANGIE_INTEGRITY). A binary that is already present is reused when it
# reports the pinned version, so repeated runs cost nothing.
#
# Where the versions live:
#   terraform      TERRAFORM_VERSION below (go install of the module itself):
#                  the oldest Terraform the provider supports
#   terraform-latest
#                  tools/terraform/go.mod (a wrapper module with stubs for the
#                  nested modules the proxy does not serve): the newest
#                  Terraform the proxy serves, as .tools/bin/terraform-<version>
#                  (1.16.4; it refuses 1.16.5 and 1.17). The proxy lists versions only up to 1.13.3 but
#                  serves later ones when asked for the exact version.
#   tofu           tools/opentofu/go.mod (needs a replace directive, so it is
#                  built from a module of ours rather than with go install)
#   golangci-lint  tools/golangci-lint/go.mod
#   tfplugindocs   tools/tfplugindocs/go.mod
#   goreleaser     tools/goreleaser/go.mod
#   gremlins       tools/gremlins/go.mod (mutation testing, make mutate)
#   terraform-provider-time
#                  TIME_PROVIDER_VERSION below (go install of the module
#                  itself): hashicorp/time, a stock terraform-plugin-framework
#                  provider that does no I/O, the baseline of make bench
#                  (launched through dev_overrides, never installed by
#                  Terraform)
#   weed           tools/seaweedfs/go.mod (SeaweedFS, pinned to a commit; needs
#                  a replace directive, so built from a module of ours): the
#                  S3-compatible store the export tests and make bench start
#                  on loopback (internal/s3test). About 4.5 minutes to build
#                  on two cores; make test builds it in the background.
#   changie        CHANGIE_VERSION and CHANGIE_INTEGRITY below: the npm
#                  package changie (its registry's sha512), from which the
#                  binary of this platform (npm/dist/<os>-<arch>) is copied;
#                  the changelog's fragments (make changelog). Needs npm.
# Each tools/<name> module holds a single tool, so it resolves exactly the
# dependency versions of that tool's own go.mod (the same build as
# `go install <tool>@<version>`). To upgrade one: cd tools/<name> &&
# go get -tool <package>@<version>. Do not `go mod tidy` these modules: tidy
# also fetches the tests' dependencies of every dependency, some of which the
# module proxy refuses (e.g. go.digitalxero.dev/go-msix for goreleaser), and
# the build needs none of them.
set -euo pipefail

TERRAFORM_VERSION=1.8.5
TIME_PROVIDER_VERSION=0.14.2
CHANGIE_VERSION=1.26.0
CHANGIE_INTEGRITY=sha512-uxNt7qEj5K0m+OzESAABldgUVn3I+KkiMH2gYjDCPJmsr0Qpoc5F6R2udiQkc8SJNsc7vfJBUaoHW8a0emflmg==

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${root}/.tools/bin"
mkdir -p "${bin}"

export CHECKPOINT_DISABLE=1
# Build with the local toolchain only; never fetch another Go release.
export GOTOOLCHAIN=local
# The compiler collects garbage less often (a fifth less CPU for these
# builds, which decide a first make test's time; each compile takes more
# memory, well within what a 2-core machine has). GOGC set by the caller wins.
export GOGC="${GOGC:-400}"

log() { printf 'install-tools: %s\n' "$*" >&2; }

# module_version DIR MODULE: the version of MODULE required by tools/DIR/go.mod.
module_version() {
	(cd "${root}/tools/$1" && go list -m -f '{{.Version}}' "$2")
}

# module_time DIR MODULE: the release time of MODULE, used as the build date.
module_time() {
	(cd "${root}/tools/$1" && go list -m -f '{{with .Time}}{{.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' "$2")
}

# built_version BINARY MODULE: the version of MODULE linked into BINARY,
# read from the Go build information (empty when BINARY does not exist).
built_version() {
	[[ -x "$1" ]] || return 0
	go version -m "$1" 2>/dev/null | awk -v m="$2" '($1 == "mod" || $1 == "dep") && $2 == m { print $3; exit }'
}

# up_to_date NAME CURRENT WANTED: reports and succeeds when CURRENT == WANTED.
up_to_date() {
	if [[ "$2" == "$3" ]]; then
		log "$1 $3 already installed"
		return 0
	fi
	if [[ -n "$2" ]]; then
		log "$1: found ${2}, want ${3}; rebuilding"
	fi
	return 1
}

# timed NAME COMMAND...: runs COMMAND and reports how long it took.
timed() {
	local name="$1" start
	shift
	start=${SECONDS}
	log "building ${name} (this can take a few minutes)"
	"$@"
	log "built ${name} in $((SECONDS - start))s"
}

install_terraform() {
	local current
	current="$(terraform_version "${bin}/terraform")"
	up_to_date terraform "${current}" "${TERRAFORM_VERSION}" && return 0
	# version.dev=no drops the "-dev" suffix, as in release builds, so that
	# `terraform version` reports exactly v${TERRAFORM_VERSION}.
	# -s -w: no symbol table or DWARF, which the tests never use; the link,
	# among the longest steps of a cold make test, takes less time.
	timed terraform env GOBIN="${bin}" go install -trimpath \
		-ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" \
		"github.com/hashicorp/terraform@v${TERRAFORM_VERSION}"
}

# terraform_version BINARY: the version a Terraform binary reports.
terraform_version() {
	[[ -x "$1" ]] || return 0
	"$1" version -json 2>/dev/null | sed -n 's/^ *"terraform_version": *"\([^"]*\)".*/\1/p'
}

install_terraform_latest() {
	local want current stubs="${root}/.tools/terraform-stubs" name
	want="$(module_version terraform github.com/hashicorp/terraform)"
	current="v$(terraform_version "${bin}/terraform-${want#v}")"
	up_to_date terraform "${current#v}" "${want#v}" && return 0
	# The stubs of the nested modules that tools/terraform/go.mod replaces.
	for name in azure consul cos gcs kubernetes oci oss pg s3; do
		mkdir -p "${stubs}/${name}"
		printf 'module github.com/hashicorp/terraform/internal/backend/remote-state/%s\n\ngo 1.24.5\n' "${name}" \
			>"${stubs}/${name}/go.mod"
		sed "s/NAME/${name}/g" "${root}/tools/terraform/stub.go.tmpl" >"${stubs}/${name}/stub.go"
	done
	mkdir -p "${stubs}/legacy"
	printf 'module github.com/hashicorp/terraform/internal/legacy\n\ngo 1.24.5\n' >"${stubs}/legacy/go.mod"
	# -mod=mod: the build adds what the stubs need to go.sum; never tidy.
	(cd "${root}/tools/terraform" && timed "terraform ${want}" env GOFLAGS=-mod=mod go build -trimpath \
		-ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" \
		-o "${bin}/terraform-${want#v}" github.com/hashicorp/terraform)
}

install_tofu() {
	local want current=""
	want="$(module_version opentofu github.com/opentofu/opentofu)"
	if [[ -x "${bin}/tofu" ]]; then
		current="v$("${bin}/tofu" version -json 2>/dev/null | sed -n 's/^ *"terraform_version": *"\([^"]*\)".*/\1/p')"
	fi
	up_to_date tofu "${current}" "${want}" && return 0
	# OpenTofu's go.mod replaces hashicorp/hcl/v2 with its fork, which only
	# takes effect in the main module: tools/opentofu/go.mod repeats it.
	(cd "${root}/tools/opentofu" && timed tofu go build -trimpath \
		-ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
		-o "${bin}/tofu" github.com/opentofu/opentofu/cmd/tofu)
}

install_golangci_lint() {
	local mod=github.com/golangci/golangci-lint/v2 want date
	want="$(module_version golangci-lint "${mod}")"
	up_to_date golangci-lint "$(built_version "${bin}/golangci-lint" "${mod}")" "${want}" && return 0
	date="$(module_time golangci-lint "${mod}")"
	(cd "${root}/tools/golangci-lint" && timed golangci-lint go build -trimpath \
		-ldflags "-s -w -X main.version=${want#v} -X main.commit=${want} -X main.date=${date:-unknown}" \
		-o "${bin}/golangci-lint" "${mod}/cmd/golangci-lint")
}

install_tfplugindocs() {
	local mod=github.com/hashicorp/terraform-plugin-docs want
	want="$(module_version tfplugindocs "${mod}")"
	up_to_date tfplugindocs "$(built_version "${bin}/tfplugindocs" "${mod}")" "${want}" && return 0
	(cd "${root}/tools/tfplugindocs" && timed tfplugindocs go build -trimpath \
		-ldflags "-s -w -X ${mod}/cmd/tfplugindocs/build.version=${want#v} -X ${mod}/cmd/tfplugindocs/build.commit=${want}" \
		-o "${bin}/tfplugindocs" "${mod}/cmd/tfplugindocs")
}

install_goreleaser() {
	local mod=github.com/goreleaser/goreleaser/v2 want date
	want="$(module_version goreleaser "${mod}")"
	up_to_date goreleaser "$(built_version "${bin}/goreleaser" "${mod}")" "${want}" && return 0
	date="$(module_time goreleaser "${mod}")"
	(cd "${root}/tools/goreleaser" && timed goreleaser go build -trimpath \
		-ldflags "-s -w -X main.version=${want#v} -X main.commit=${want} -X main.date=${date:-unknown} -X main.builtBy=install-tools" \
		-o "${bin}/goreleaser" "${mod}")
}

install_gremlins() {
	local mod=github.com/go-gremlins/gremlins want
	want="$(module_version gremlins "${mod}")"
	up_to_date gremlins "$(built_version "${bin}/gremlins" "${mod}")" "${want}" && return 0
	(cd "${root}/tools/gremlins" && timed gremlins go build -trimpath -ldflags "-s -w" \
		-o "${bin}/gremlins" "${mod}/cmd/gremlins")
}

install_weed() {
	local mod=github.com/seaweedfs/seaweedfs want
	want="$(module_version seaweedfs "${mod}")"
	up_to_date weed "$(built_version "${bin}/weed" "${mod}")" "${want}" && return 0
	# Built to a temporary name and renamed, so that a cut-off build never
	# leaves a half-written weed that would be taken for the pinned one.
	(cd "${root}/tools/seaweedfs" && timed "weed ${want}" go build -trimpath -ldflags "-s -w" \
		-o "${bin}/.weed.tmp" "${mod}/weed")
	mv -f "${bin}/.weed.tmp" "${bin}/weed"
}

install_time_provider() {
	local mod=github.com/hashicorp/terraform-provider-time
	up_to_date terraform-provider-time "$(built_version "${bin}/terraform-provider-time" "${mod}")" \
		"v${TIME_PROVIDER_VERSION}" && return 0
	timed "terraform-provider-time v${TIME_PROVIDER_VERSION}" env GOBIN="${bin}" go install -trimpath \
		"${mod}@v${TIME_PROVIDER_VERSION}"
}

install_changie() {
	local current="" os arch tmp integrity
	if [[ -x "${bin}/changie" ]]; then
		current="$("${bin}/changie" --version 2>/dev/null | sed -n 's/^changie version v//p')"
	fi
	up_to_date changie "${current}" "${CHANGIE_VERSION}" && return 0
	command -v npm >/dev/null 2>&1 || {
		log "changie: needs npm (its npm package ships the binary): install Node.js's npm"
		return 1
	}
	case "$(uname -s)" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	*) log "changie: no binary for $(uname -s) in the npm package"; return 1 ;;
	esac
	case "$(uname -m)" in
	x86_64 | amd64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) log "changie: no binary for $(uname -m) in the npm package"; return 1 ;;
	esac
	tmp="$(mktemp -d)"
	# npm pack checks the tarball against the registry's integrity; the
	# pinned one guards against a republished package.
	integrity="$(cd "${tmp}" && npm pack --json --silent "changie@${CHANGIE_VERSION}" |
		sed -n 's/^ *"integrity": *"\([^"]*\)".*/\1/p')"
	if [[ "${integrity}" != "${CHANGIE_INTEGRITY}" ]]; then
		log "changie: the npm package's integrity is '${integrity}', want ${CHANGIE_INTEGRITY}"
		rm -rf "${tmp}"
		return 1
	fi
	tar -xzf "${tmp}/changie-${CHANGIE_VERSION}.tgz" -C "${tmp}" "package/npm/dist/${os}-${arch}"
	install -m 0755 "${tmp}/package/npm/dist/${os}-${arch}" "${bin}/.changie.tmp"
	mv -f "${bin}/.changie.tmp" "${bin}/changie"
	rm -rf "${tmp}"
	log "installed changie ${CHANGIE_VERSION}"
}

if [[ $# -eq 0 ]]; then
	set -- terraform terraform-latest tofu golangci-lint tfplugindocs goreleaser gremlins terraform-provider-time weed changie
fi

# lock NAME: holds a lock on NAME's build until this script exits, so that a
# second install of the same tool (make test starts OpenTofu's build in the
# background, then its OpenTofu run asks for it again) waits for the first
# and then finds the tool built. Without flock, no lock.
lock() {
	command -v flock >/dev/null 2>&1 || return 0
	local fd
	exec {fd}>"${bin}/.$1.lock"
	if ! flock -n "${fd}"; then
		log "$1: another build is running; waiting for it"
		flock "${fd}"
	fi
}

for tool in "$@"; do
	lock "${tool}"
	case "${tool}" in
	terraform) install_terraform ;;
	terraform-latest | terraform-1.16) install_terraform_latest ;;
	gremlins) install_gremlins ;;
	tofu | opentofu) install_tofu ;;
	golangci-lint) install_golangci_lint ;;
	tfplugindocs) install_tfplugindocs ;;
	goreleaser) install_goreleaser ;;
	terraform-provider-time) install_time_provider ;;
	weed | seaweedfs) install_weed ;;
	changie) install_changie ;;
	*)
		log "unknown tool '${tool}' (known: terraform terraform-latest tofu golangci-lint tfplugindocs goreleaser gremlins terraform-provider-time weed changie)"
		exit 2
		;;
	esac
done

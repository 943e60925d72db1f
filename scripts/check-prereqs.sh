#!/usr/bin/env bash
# Checks, before a long make target starts, that the machine has what it
# needs, and names everything that is missing at once:
#
#   scripts/check-prereqs.sh test     make test: Go new enough to build every
#                                     tool of the test matrix (the tools are
#                                     built with GOTOOLCHAIN=local, so another
#                                     Go is never fetched), a C compiler with
#                                     cgo on (go test -race), git
#   scripts/check-prereqs.sh demo     make demo, make install: Go new enough
#                                     for the provider (go.mod)
#
# The Go versions are read from the go lines of go.mod and of the tools'
# modules (tools/*/go.mod), so they follow every upgrade.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${1:-}"
case "${target}" in
test) modules=(go.mod tools/terraform/go.mod tools/opentofu/go.mod tools/golangci-lint/go.mod tools/tfplugindocs/go.mod tools/seaweedfs/go.mod) ;;
demo | install) modules=(go.mod) ;;
*)
	echo "usage: $0 test|demo|install" >&2
	exit 2
	;;
esac

missing=()

# version_ge A B: A >= B for dotted versions (1.26.6), missing fields 0.
version_ge() {
	local IFS=. i
	local -a a b
	read -r -a a <<<"$1"
	read -r -a b <<<"$2"
	for i in 0 1 2; do
		((10#${a[i]:-0} > 10#${b[i]:-0})) && return 0
		((10#${a[i]:-0} < 10#${b[i]:-0})) && return 1
	done
	return 0
}

# The newest go line among the modules, and the module that asks for it.
need="0" need_from=""
for m in "${modules[@]}"; do
	v="$(sed -n 's/^go \([0-9][0-9.]*\).*$/\1/p' "${root}/${m}" | head -n 1)"
	if [[ -n "${v}" ]] && ! version_ge "${need}" "${v}"; then
		need="${v}" need_from="${m}"
	fi
done

if ! command -v go >/dev/null 2>&1; then
	missing+=("Go ${need} or later (go on PATH), asked for by ${need_from}")
else
	have="$(go env GOVERSION)"
	have="${have#go}"
	have="${have%%[!0-9.]*}"
	if [[ -z "${have}" ]]; then
		echo "check-prereqs: cannot read the version of $(command -v go) ($(go env GOVERSION)); going on" >&2
	elif ! version_ge "${have}" "${need}"; then
		missing+=("Go ${need} or later, asked for by ${need_from} (found go${have} at $(command -v go); the tools are built with GOTOOLCHAIN=local)")
	fi
fi

for tool in git; do
	command -v "${tool}" >/dev/null 2>&1 || missing+=("${tool}")
done

if [[ "${target}" == "test" ]] && command -v go >/dev/null 2>&1; then
	cc="$(go env CC)"
	cc="${cc%% *}"
	if ! command -v "${cc}" >/dev/null 2>&1; then
		missing+=("a C compiler for go test -race (cgo): '${cc}' not found; install gcc or clang, or set CC")
	elif [[ "$(go env CGO_ENABLED)" != "1" ]]; then
		missing+=("cgo for go test -race: CGO_ENABLED is 0; unset it or set CGO_ENABLED=1")
	fi
fi

if ((${#missing[@]} > 0)); then
	{
		echo "make ${target} cannot run on this machine; missing:"
		printf '  - %s\n' "${missing[@]}"
		echo "See Prerequisites in README.md."
	} >&2
	exit 1
fi

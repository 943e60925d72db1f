#!/usr/bin/env bash
# Runs commands at the same time and reports each one's output when it has
# ended, in the order given, under a heading:
#
#   scripts/run-together.sh 'command 1' 'command 2' ...
#
# make test uses it for the acceptance runs after the first: each waits
# mostly on Terraform, on the emulator or on its throttle, so together they
# take little longer than the longest alone. Each heading gives the
# command's wall time and the CPU time it and its children used. Fails when
# any command failed, naming them.
set -uo pipefail

work="$(mktemp -d "${TMPDIR:-/tmp}/run-together.XXXXXX")"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "${work}"' EXIT
trap 'exit 130' INT TERM

pids=()
for i in "$@"; do
	n=${#pids[@]}
	# shellcheck disable=SC2016 # expanded by the inner bash
	bash -c 'TIMEFORMAT="%R %U %S"; { time bash -c "$1" >"$2" 2>&1; } 2>"$3"' _ "$i" \
		"${work}/${n}.log" "${work}/${n}.time" &
	pids+=("$!")
done

failed=()
for n in "${!pids[@]}"; do
	cmd="${@:n+1:1}"
	if wait "${pids[n]}"; then status=ok; else status="FAILED (exit $?)"; failed+=("${cmd}"); fi
	read -r real user sys <"${work}/${n}.time" || true
	printf '\n==> %s: %s (%ss; CPU %ss user, %ss sys)\n' "${cmd}" "${status}" "${real:-?}" "${user:-?}" "${sys:-?}"
	cat "${work}/${n}.log"
done
if ((${#failed[@]} > 0)); then
	printf '\nFailed:\n' >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi

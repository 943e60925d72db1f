#!/usr/bin/env bash
# Runs commands at the same time and reports each one's output when it has
# ended, in the order given, under a heading:
#
#   scripts/run-together.sh 'command 1' 'command 2' ...
#
# make test uses it for the acceptance runs after the first: each waits
# mostly on Terraform, on the emulator or on its throttle, so together they
# take little longer than the longest alone. Fails when any command failed,
# naming them.
set -uo pipefail

work="$(mktemp -d "${TMPDIR:-/tmp}/run-together.XXXXXX")"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "${work}"' EXIT
trap 'exit 130' INT TERM

pids=()
for i in "$@"; do
	n=${#pids[@]}
	bash -c "$i" >"${work}/${n}.log" 2>&1 &
	pids+=("$!")
done

failed=()
for n in "${!pids[@]}"; do
	cmd="${@:n+1:1}"
	if wait "${pids[n]}"; then status=ok; else status="FAILED (exit $?)"; failed+=("${cmd}"); fi
	printf '\n==> %s: %s\n' "${cmd}" "${status}"
	cat "${work}/${n}.log"
done
if ((${#failed[@]} > 0)); then
	printf '\nFailed:\n' >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi

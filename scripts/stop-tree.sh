#!/usr/bin/env bash
# Stops each process given that is still a child of PARENT, and every
# process it started, children first:
#
#   scripts/stop-tree.sh PARENT PID...
#
# make test runs it when it ends, so that the tool builds it started in the
# background do not outlive a run that failed early. A PID that is no
# longer PARENT's child has ended, and its number may be another program's
# by now: it is left alone.
parent="$1"
shift
stop() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null); do
		stop "${child}"
	done
	kill "$1" 2>/dev/null || true
}
for pid in "$@"; do
	if [[ "$(ps -o ppid= -p "${pid}" 2>/dev/null | tr -d ' ')" == "${parent}" ]]; then
		stop "${pid}"
	fi
done

#!/usr/bin/env bash
# Stops each process given and every process it started, children first:
#
#   scripts/stop-tree.sh PID...
#
# make test runs it when it ends, so that the tool builds it started in the
# background do not outlive a run that failed early.
stop() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null); do
		stop "${child}"
	done
	kill "$1" 2>/dev/null || true
}
for pid in "$@"; do
	stop "${pid}"
done

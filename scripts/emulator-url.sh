# Sourced by the scripts that start the standalone emulator (demo.sh,
# testacc-live-local.sh).
#
# emulator_url OUT LOG PID: waits (up to 10 s) until the emulator started
# as PID has written its "listening on" line to OUT, and prints its base URL.
# Fails, printing LOG, when the emulator exits or never says where it listens.
emulator_url() {
	local out="$1" log="$2" pid="$3" url=""
	for _ in $(seq 1 100); do
		url="$(sed -n 's/^analytics-emulator: listening on //p' "${out}")"
		if [[ -n "${url}" ]]; then
			printf '%s\n' "${url}"
			return 0
		fi
		kill -0 "${pid}" 2>/dev/null || { cat "${log}" >&2; return 1; }
		sleep 0.1
	done
	echo "the emulator did not start" >&2
	return 1
}

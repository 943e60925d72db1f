#!/usr/bin/env bash
# make testacc-live-local (part of make test, TEST_LIVE=1): starts the
# standalone emulator as if it were an installation (its own process, a free
# port, two users with keys, the throttle on, a state file holding websites
# that are not the tests' and two leftovers of a test run cut off), runs the
# live mode of the acceptance tests against it (make testacc-live), checks
# that they left nothing behind, runs the sweepers (make sweep), and checks
# that the emulator then holds exactly the websites that are not the tests'.
# The emulator is stopped on failure too. Needs nothing but Go and coreutils.
#
# LIVE_RATE_WINDOW is the throttle's window for its 60 requests: a minute on
# a real installation, shortened here so that CI time stays bounded; see
# contributing/live-mode.md for the measured cost. TF selects the CLI as for make
# testacc-live.
set -euo pipefail

# shellcheck source=scripts/emulator-url.sh
source "$(dirname "${BASH_SOURCE[0]}")/emulator-url.sh"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"

rate_limit="${LIVE_RATE_LIMIT:-60}"
rate_window="${LIVE_RATE_WINDOW:-5s}"
make_cmd="${MAKE:-make}"

work="$(mktemp -d "${TMPDIR:-/tmp}/analytics-live.XXXXXX")"
emulator_pid=""
stop_emulator() {
	if [[ -n "${emulator_pid}" ]]; then
		kill "${emulator_pid}" 2>/dev/null || true
		wait "${emulator_pid}" 2>/dev/null || true
		emulator_pid=""
	fi
}
trap 'stop_emulator; rm -rf "${work}"' EXIT

say() { printf '\n==> %s\n' "$*"; }

key() { printf 'live-%s' "$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"; }
key1="$(key)"
key2="$(key)"

# The installation's websites before the tests: websites that are not the
# tests' (the sweepers must leave them alone, even the one whose domain
# holds the prefix after its start), and two leftovers of a test run cut off
# (the sweepers must delete them).
state="${work}/state.json"
site() { printf '{"id":%d,"owner":"%s","domain":"%s","privacy":0,"email":0,"exclude_bots":1,"created_at":"%s","updated_at":"%s"}' \
	"$1" "$2" "$3" "2026-01-01T00:00:00Z" "2026-01-01T00:00:00Z"; }
cat >"${state}" <<STATE
{"version":1,"next_id":6,"websites":[
$(site 1 "${key1}" keep-live.example.com),
$(site 2 "${key1}" shop-tf-acc-keep.example.com),
$(site 3 "${key2}" keep-live-other.example.org),
$(site 4 "${key1}" tf-acc-cutoff1-lifecycle.example.com),
$(site 5 "${key2}" tf-acc-cutoff2-taken.example.com)
]}
STATE
keep="keep-live-other.example.org,keep-live.example.com,shop-tf-acc-keep.example.com"
cutoff="tf-acc-cutoff1-lifecycle.example.com,tf-acc-cutoff2-taken.example.com"

# domains lists the domains of the emulator's state file (which it rewrites
# after every change), sorted; with an argument, those starting with it.
domains() {
	sed -n 's/^ *"domain": "\([^"]*\)",\{0,1\}$/\1/p' "${state}" | { grep "^${1:-}" || true; } | sort | paste -sd, -
}

say "Starting the standalone emulator (${rate_limit} requests per ${rate_window}, two users)"
go build -o "${work}/analytics-emulator" ./internal/cmd/analytics-emulator
"${work}/analytics-emulator" -addr 127.0.0.1:0 -api-key "${key1}" -api-key "${key2}" \
	-rate-limit "${rate_limit}" -rate-window "${rate_window}" -state-file "${state}" -v \
	>"${work}/emulator.out" 2>"${work}/emulator.log" &
emulator_pid=$!
base_url="$(emulator_url "${work}/emulator.out" "${work}/emulator.log" "${emulator_pid}")"
echo "emulator at ${base_url}"

# requests counts the requests the emulator has served (one -v line each)
# to the API and to the tracking endpoint (/api/event, where the tests send
# pageviews), both behind the throttle; refused counts those it refused
# with 429 (the throttle).
requests() { grep -cE ' /api/(v1/|event)' "${work}/emulator.log" || true; }
refused() { grep -cE ' /api/(v1/[^ ]*|event) 429 ' "${work}/emulator.log" || true; }

export ANALYTICS_ACC_BASE_URL="${base_url}"
export ANALYTICS_ACC_API_KEY="${key1}"
export ANALYTICS_ACC_API_KEY2="${key2}"

say "Live acceptance tests against the emulator (make testacc-live)"
before="$(requests)"
before429="$(refused)"
start="$(date +%s)"
"${make_cmd}" --no-print-directory testacc-live | tee "${work}/live.log"
elapsed=$(($(date +%s) - start))
spent=$(($(requests) - before))
throttled=$(($(refused) - before429))
ran="$(grep -c -- '^--- PASS: TestAcc' "${work}/live.log" || true)"
skipped="$(grep -c -- '^--- SKIP: TestAcc' "${work}/live.log" || true)"
echo "live pass: ${ran} tests passed, ${skipped} skipped; ${spent} requests (${throttled} refused with 429) in ${elapsed}s"

# The tests of features the pass's CLI lacks run again on the newest
# Terraform: the statistics export action (actions need Terraform 1.14).
latest="$(cd tools/terraform && go list -m -f '{{.Version}}' github.com/hashicorp/terraform)"
latest="${latest#v}"
say "Live acceptance tests of actions on Terraform ${latest}"
"${make_cmd}" --no-print-directory testacc-live TF="${latest}" LIVE_TESTARGS='-run ^TestAccStatisticsExport_live$' |
	tee "${work}/live-actions.log"
if ! grep -q -- '^--- PASS: TestAccStatisticsExport_live' "${work}/live-actions.log"; then
	echo "the live test of the export action did not pass on Terraform ${latest}" >&2
	exit 1
fi

left="$(domains tf-acc-)"
if [[ "${left}" != "${cutoff}" ]]; then
	echo "the live pass left websites behind: ${left}" >&2
	exit 1
fi

say "Sweepers (make sweep): the leftovers of a run cut off go, nothing else"
"${make_cmd}" --no-print-directory sweep

say "Checking that the emulator holds no test website"
stop_emulator # the state file is complete once the emulator stopped
left="$(domains)"
if [[ "${left}" != "${keep}" ]]; then
	echo "the emulator holds ${left:-nothing}, want exactly ${keep}" >&2
	exit 1
fi
echo "left: ${left}"

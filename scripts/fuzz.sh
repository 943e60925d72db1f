#!/usr/bin/env bash
# Runs every Go native fuzz target of the module (a `func FuzzX(f *testing.F)`
# in a _test.go file of any package), one after the other, each for
# FUZZTIME (make fuzz):
#
#   FUZZTIME=5s FUZZ='FuzzBaseURL|FuzzImportID' FUZZ_PARALLEL=1 FUZZ_MINIMIZETIME=5s scripts/fuzz.sh
#
# It fuzzes in a copy of the tree (the files git tracks or would track, in a
# temporary folder), never in the checkout: go writes a failing input into
# the package's testdata/fuzz/<target>/, and a test run reading the checkout
# at the same time would fail on it. The new inputs go is left with are
# copied to FUZZ_OUT (default .fuzz-finds/) as
# <package dir>/testdata/fuzz/<target>/<file>, where a developer reviews them
# and copies the ones to keep into the checkout (contributing/testing.md,
# "Fuzzing").
#
# FUZZ is a regular expression that a target's whole name must match (all
# targets by default); FUZZ_PARALLEL the number of fuzzing workers (go's
# default: GOMAXPROCS). The targets are found, not listed here: the
# `func FuzzX(f *testing.F)` declarations in the test files that `go list`
# names for each package (so build tags are respected), nothing compiled.
# Fails when a target failed, naming it and its input in FUZZ_OUT.
set -euo pipefail

fuzztime=${FUZZTIME:-5s}
filter=${FUZZ:-.*}
parallel=${FUZZ_PARALLEL:+-parallel=${FUZZ_PARALLEL}}
# FUZZ_MINIMIZETIME bounds go's minimizing of each new interesting input
# (go's default: 60s, which can take a short run's whole time).
minimize=${FUZZ_MINIMIZETIME:+-fuzzminimizetime=${FUZZ_MINIMIZETIME}}
root=$(git rev-parse --show-toplevel)
out=${FUZZ_OUT:-${root}/.fuzz-finds}
mkdir -p "${out}"
out=$(cd "${out}" && pwd)

# The copy: what git tracks, and new files it would track (a target being
# written), without the ignored ones (.tools, build output).
work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT
(cd "${root}" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [[ -e "${f}" ]] && printf '%s\0' "${f}"; done |
	tar --null -T - -cf -) | tar -xf - -C "${work}"
cd "${work}"
# The corpus files of the copy before fuzzing: what is new afterwards is a
# find.
before=$(mktemp)
find . -path '*/testdata/fuzz/*' -type f | sort >"${before}"

start=${SECONDS}
ran=0
failed=()
while read -r pkg dir files; do
	[[ -n "${files}" ]] || continue
	for target in $(cd "${dir}" && sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(\w+ \*testing\.F\).*/\1/p' ${files} |
		grep -xE "${filter}" || true); do
		t0=${SECONDS}
		log=$(mktemp)
		# -run '^$': the unit tests and the seed corpora already run in go test.
		fuzz() { go test -count=1 -run '^$' -fuzz "^${target}\$" -fuzztime "${fuzztime}" ${parallel} ${minimize} "${pkg}" >"${log}" 2>&1; }
		ok=0
		fuzz && ok=1
		# go's coordinator can end a short run with only "context deadline
		# exceeded" when the fuzz time runs out while its worker is busy (on
		# a loaded machine): no input failed and none was written. Such a
		# run goes again once; a failing input always fails.
		if ((!ok)) && grep -q 'context deadline exceeded' "${log}" && ! grep -q 'Failing input written' "${log}"; then
			printf 'again %-28s %s: go ended the run with "context deadline exceeded" and no failing input\n' "${target}" "${pkg}"
			fuzz && ok=1
		fi
		if ((ok)); then
			printf 'ok    %-28s %s (%ds)\n' "${target}" "${pkg}" $((SECONDS - t0))
		else
			printf 'FAIL  %-28s %s (%ds)\n' "${target}" "${pkg}" $((SECONDS - t0))
			cat "${log}"
			failed+=("${target} (${pkg})")
		fi
		rm -f "${log}"
		ran=$((ran + 1))
	done
done < <(go list -f '{{.ImportPath}} {{.Dir}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./...)

found=0
while IFS= read -r f; do
	mkdir -p "${out}/$(dirname "${f}")"
	cp "${f}" "${out}/${f}"
	printf 'new input %s\n' "${out}/${f#./}"
	found=$((found + 1))
done < <(find . -path '*/testdata/fuzz/*' -type f | sort | comm -13 "${before}" -)
rm -f "${before}"

if ((ran == 0)); then
	echo "no fuzz target matches FUZZ='${filter}'" >&2
	exit 1
fi
printf '%d fuzz targets, %s each, in %ds\n' "${ran}" "${fuzztime}" $((SECONDS - start))
if ((${#failed[@]} > 0)); then
	printf '\nFailed (the failing inputs are in %s/<package dir>/testdata/fuzz/<target>/; see contributing/testing.md, "Fuzzing"):\n' "${out}" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi

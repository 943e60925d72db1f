#!/usr/bin/env bash
# make changelog-fragments: turns the entries of CHANGELOG.md's unreleased
# section that no fragment of .changes/unreleased holds into fragments, each
# of the kind of the heading it stands under, in their order, then assembles
# CHANGELOG.md again (make changelog).
#
# For a branch that added lines to CHANGELOG.md by hand (as the changelog was
# kept before changie): merge it, then run `make changelog-fragments` and
# commit .changes/ and CHANGELOG.md. An entry the fragments already hold, word
# for word, is left alone, so running it twice adds nothing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"
changie="${CHANGIE:-${root}/.tools/bin/changie}"
header="${CHANGELOG_UNRELEASED_HEADER:?the heading of the unreleased section, e.g. ## 0.2.0 (Unreleased)}"

# What the fragments render today (nothing while there are none).
held="$(mktemp)"
trap 'rm -f "${held}"' EXIT
"${changie}" merge --dry-run --include-unreleased "${header}" >"${held}"

# The unreleased section: from a "## ... (Unreleased)" heading to the next
# "## " heading. Each entry is one line "* ..." under a "KIND:" line.
kinds="$(sed -n 's/^  - label: //p' .changie.yaml)"
added=0
kind=""
in_section=0
while IFS= read -r line; do
	case "${line}" in
	"## "*"(Unreleased)"*) in_section=1; continue ;;
	"## "*) [[ ${in_section} -eq 1 ]] && break; continue ;;
	esac
	[[ ${in_section} -eq 1 ]] || continue
	if [[ "${line}" =~ ^([A-Z][A-Z\ ]*):$ ]]; then
		kind="${BASH_REMATCH[1]}"
		if ! grep -qxF "${kind}" <<<"${kinds}"; then
			echo "changelog-fragments: CHANGELOG.md has a heading '${kind}:', which is no kind of .changie.yaml (${kinds//$'\n'/, })" >&2
			exit 1
		fi
		continue
	fi
	[[ "${line}" == "* "* ]] || continue
	if [[ -z "${kind}" ]]; then
		echo "changelog-fragments: an entry stands under no heading in CHANGELOG.md: ${line:0:80}" >&2
		exit 1
	fi
	grep -qxF -- "${line}" "${held}" && continue
	"${changie}" new --interactive=false --kind "${kind}" --body "${line#\* }"
	added=$((added + 1))
done <CHANGELOG.md

echo "changelog-fragments: ${added} new fragment(s) in .changes/unreleased" >&2
"${changie}" merge --include-unreleased "${header}"

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Command-line contract tests that need no fabric: usage and exit codes,
# the catalogue, a policy with several bad lines (each reported), a scan
# with no InfiniBand device (exit 3, honest report), and agreement between
# the program and its manual.  Bad invocations and inputs, one by one, are
# tests/robust/test_errors.sh.
# usage: tests/cli.sh FABAUDIT
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

rc() { "$@" >"$T/out" 2>"$T/err"; echo $?; }

expect_eq "no arguments exits 2" "$(rc "$BIN")" 2
expect_eq "-h exits 0" "$(rc "$BIN" -h)" 0
expect_grep "-h prints usage on stdout" '^usage: fabaudit scan' "$T/out"
expect_eq "--version exits 0" "$(rc "$BIN" --version)" 0
expect_grep "--version prints the version" '^fabaudit [0-9]+\.[0-9]+\.[0-9]+$' "$T/out"

# The catalogue.
expect_eq "checks exits 0" "$(rc "$BIN" checks)" 0
expect_grep "checks lists IB-SMKEY-DISCLOSED" '^IB-SMKEY-DISCLOSED +ib +critical ' "$T/out"
expect_grep "checks lists IB-PKEY-DEFAULT-FULL" '^IB-PKEY-DEFAULT-FULL +ib +high ' "$T/out"
"$BIN" checks --format json >"$T/checks.json"
expect_eq "checks json lists the same checks as the text form" \
    "$(jq -r 'map(.id) | join(" ")' "$T/checks.json")" \
    "$("$BIN" checks | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "every check in json carries an MSA clause and remediation" \
    "$(jq -r 'map(select((.msa_clause | length) > 40 and (.remediation | length) > 40)) | length' "$T/checks.json")" \
    "$(jq -r 'length' "$T/checks.json")"
for id in $(jq -r '.[].id' "$T/checks.json"); do
	expect_grep "$id is a published ID" "^$id\$" tests/ids.frozen
done
expect_eq "checks --family eth lists the thirteen checks" \
    "$("$BIN" checks --family eth | wc -l)" 13
expect_eq "checks --format man exits 0" "$(rc "$BIN" checks --format man)" 0
expect_eq "SOURCE_DATE_EPOCH=bogus exits 2" \
    "$(SOURCE_DATE_EPOCH=bogus rc "$BIN" checks --format man)" 2
SOURCE_DATE_EPOCH=1764547200 "$BIN" checks --format man >"$T/page"
expect_grep "SOURCE_DATE_EPOCH dates the page" '^\.Dd December 1, 2025$' \
    "$T/page"
"$BIN" checks --format man >/dev/full 2>/dev/null
expect_eq "checks --format man to a full disk exits 3" "$?" 3
expect_eq "checks --family eth --format man has the thirteen checks" \
    "$("$BIN" checks --family eth --format man | grep -c '^\.Ss ETH-')" 13
expect_eq "every check in json says what it sends and its outcomes" \
    "$(jq '[.[] | select((.sends | type) == "string" and
    (.outcomes | type) == "string")] | length' "$T/checks.json")" \
    "$(jq length "$T/checks.json")"

# Bad policy: FILE:LINE: message, exit 2, nothing written.
printf 'tenant_node acme-*\n\nfrobnicate yes\ntenant_guid 0xZZ\n' >"$T/bad.conf"
expect_eq "bad policy exits 2" "$(rc "$BIN" scan -c "$T/bad.conf" -o "$T/out-bad")" 2
expect_grep "bad policy error names file and line" "^fabaudit: $T/bad.conf:3: " "$T/err"
expect_grep "every bad line is reported" "^fabaudit: $T/bad.conf:4: " "$T/err"
expect_eq "bad policy writes no report" "$(test -e "$T/out-bad" && echo yes || echo no)" no

# No InfiniBand device (this machine has none without the simulator):
# exit 3, and a complete report that says nothing was tested.
if [ -z "${LD_PRELOAD:-}" ] && ! ls /sys/class/infiniband_mad/umad* >/dev/null 2>&1; then
	expect_eq "scan without a device exits 3" "$(rc "$BIN" scan --ib -o "$T/nodev")" 3
	expect_grep "scan without a device says why" '^fabaudit: ib: skipped: ' "$T/err"
	expect_eq "no-device report has no pass" \
	    "$(jq -r '[.results[] | select(.status == "pass")] | length' "$T/nodev/report.json")" 0
	expect_eq "no-device report says not tested" \
	    "$(jq -r '[.results[] | select(.status == "not_tested")] | length' "$T/nodev/report.json")" \
	    "$(jq -r '.results | length' "$T/nodev/report.json")"
	expect_eq "no-device offline check exits 0" \
	    "$(rc "$BIN" check -q -o "$T/nodev-off" "$T/nodev/snapshot.json")" 0
	expect_eq "no-device offline check gives the same results" \
	    "$(jq -S .results "$T/nodev-off/report.json")" \
	    "$(jq -S .results "$T/nodev/report.json")"
else
	fa_fail "no-device tests need a machine without umad devices"
fi

# The manual documents every published check ID (implemented or reserved),
# every exit status, and every option the program has.
for id in $(grep -v '^#' tests/ids.frozen); do
	expect_grep "fabaudit.8 lists $id" "$id" man/man8/fabaudit.8
done
for code in 0 1 2 3; do
	expect_grep "fabaudit.8 EXIT STATUS has $code" "^\.It $code$" man/man8/fabaudit.8
done
for id in $(jq -r '.[].id' "$T/checks.json"); do
	expect_grep "fabaudit.8 documents $id" "$id" man/man8/fabaudit.8
done
"$BIN" -h >"$T/usage"
for opt in $(grep -oE '\-\-?[a-zA-Z][a-z-]*' "$T/usage" | sort -u); do
	case "$opt" in
	--*) pat="^\.(It )?(Op )?Fl -${opt#--}( |$)" ;;
	*) pat="Fl ${opt#-}( |$)" ;;
	esac
	if grep -Eq "$pat" man/man8/fabaudit.8; then
		fa_pass "fabaudit.8 documents $opt"
	else
		fa_fail "fabaudit.8 does not document $opt"
	fi
done

# diff: two reports, finding by finding (no fabric needed: host fixtures).
"$BIN" scan -q --host=fixtures/host/hardened -o "$T/d-old" >/dev/null 2>&1
"$BIN" scan -q --host=fixtures/host/vm -o "$T/d-new" >/dev/null 2>&1
expect_eq "diff: new high failures exit 1" \
    "$(rc "$BIN" diff "$T/d-old/report.json" "$T/d-new/report.json")" 1
expect_grep "diff: a new failure is listed" \
    '^new +high +HOST-NVIDIA-CTK-VULN +dpkg:nvidia-container-toolkit' "$T/out"
expect_grep "diff: the summary line" '^Diff: [0-9]+ new failures' "$T/out"
expect_eq "diff: the other way round nothing is new, exit 0" \
    "$(rc "$BIN" diff "$T/d-new/report.json" "$T/d-old/report.json")" 0
expect_grep "diff: what was fixed is resolved" \
    '^resolved +high +HOST-NVIDIA-CTK-VULN +dpkg:nvidia-container-toolkit' \
    "$T/out"
expect_eq "diff: --fail-on critical ignores new high failures" \
    "$(rc "$BIN" diff --fail-on critical "$T/d-old/report.json" \
    "$T/d-new/report.json")" 0
# A severity re-rated between runs is a change, not a new failure.
jq '(.results[] | select(.id == "HOST-NVIDIA-CTK-VULN") | .severity) =
    "low"' \
    "$T/d-new/report.json" >"$T/d-rerated.json"
"$BIN" diff -f json "$T/d-new/report.json" "$T/d-rerated.json" \
    >"$T/d.json" 2>&1
expect_eq "diff: a re-rated failure is changed" \
    "$(jq -c '[.changed[] | [.id, .was_severity, .severity]]' "$T/d.json")" \
    '[["HOST-NVIDIA-CTK-VULN","high","low"]]'
expect_eq "diff: json counts unchanged failures" \
    "$(jq '.unchanged_failures > 0' "$T/d.json")" true

# --fail-on none: the audit ran, so the status is 0 whatever it found;
# the same snapshot with the default threshold exits 1.
S=fixtures/reports/careless.snapshot.json
expect_eq "check of a snapshot with failures exits 1" \
    "$(rc "$BIN" check -q -o "$T/fo1" "$S")" 1
expect_eq "... and 0 with --fail-on none" \
    "$(rc "$BIN" check -q --fail-on none -o "$T/fo2" "$S")" 0
expect_eq "... whose report still counts the failures" \
    "$(jq '.summary.failing_at_or_above > 0' "$T/fo2/report.json")" true
expect_eq "merge with --fail-on none exits 0" \
    "$(rc "$BIN" merge -q --fail-on none -o "$T/fo3" "$T/fo1/report.json")" 0
jq '.results |= map(select(.status != "fail"))' "$T/fo1/report.json" \
    >"$T/old.json"
expect_eq "diff with new failures exits 1" \
    "$(rc "$BIN" diff "$T/old.json" "$T/fo1/report.json")" 1
expect_eq "... and 0 with --fail-on none" \
    "$(rc "$BIN" diff --fail-on none "$T/old.json" "$T/fo1/report.json")" 0
expect_eq "--fail-on nonsense is a usage error" \
    "$(rc "$BIN" check --fail-on nonsense "$S")" 2
expect_grep "... naming none among the choices" 'or none' "$T/err"
fa_done

#!/bin/sh
# Command-line contract tests that need no fabric: usage and exit codes,
# the catalogue, bad inputs (each exits 2 with a clear line and writes no
# report), a scan with no InfiniBand device (exit 3, honest report), and
# agreement between the program and its manual.
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
expect_eq "unknown command exits 2" "$(rc "$BIN" frobnicate)" 2
expect_grep "unknown command is named" "unknown command 'frobnicate'" "$T/err"
expect_eq "unknown scan option exits 2" "$(rc "$BIN" scan --bogus)" 2
expect_eq "scan --timeout 0 exits 2" "$(rc "$BIN" scan --timeout 0)" 2
expect_grep "scan --timeout 0 says why" '^fabaudit: --timeout: .0. is too small' "$T/err"
expect_eq "scan -f pdf exits 2" "$(rc "$BIN" scan -f pdf)" 2
expect_eq "scan --fail-on bogus exits 2" "$(rc "$BIN" scan --fail-on bogus)" 2
expect_eq "scan operand exits 2" "$(rc "$BIN" scan extra)" 2

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
expect_eq "checks --family bogus exits 2" "$(rc "$BIN" checks --family bogus)" 2
expect_eq "checks --format man exits 0" "$(rc "$BIN" checks --format man)" 0
expect_eq "checks --format bogus exits 2" "$(rc "$BIN" checks --format bogus)" 2
expect_grep "... naming the formats" "man" "$T/err"
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
expect_eq "missing policy exits 2" "$(rc "$BIN" scan -c "$T/nonexistent.conf" -o "$T/o2")" 2

# Bad snapshots for `check`.
expect_eq "check without operand exits 2" "$(rc "$BIN" check)" 2
expect_eq "check of a missing file exits 2" "$(rc "$BIN" check "$T/none.json")" 2
printf '{"schema": "fabaudit-snapshot/1",\n "families": }\n' >"$T/broken.json"
expect_eq "check of broken JSON exits 2" "$(rc "$BIN" check "$T/broken.json")" 2
expect_grep "broken JSON error has file and line" "^fabaudit: $T/broken.json:2: " "$T/err"
printf '{"schema": "other"}\n' >"$T/other.json"
expect_eq "check of a non-snapshot exits 2" "$(rc "$BIN" check "$T/other.json")" 2
expect_grep "non-snapshot is explained" "not a fabaudit snapshot" "$T/err"
head -c 100 /dev/urandom >"$T/random.json"
expect_eq "check of random bytes exits 2" "$(rc "$BIN" check "$T/random.json")" 2

# An output path that is a file.
: >"$T/afile"
expect_eq "scan into a file path exits 2" "$(rc "$BIN" scan -o "$T/afile")" 2

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
expect_grep "diff: a new failure is listed" '^new +high +HOST-KERNEL-VULN +kernel' \
    "$T/out"
expect_grep "diff: the summary line" '^Diff: [0-9]+ new failures' "$T/out"
expect_eq "diff: the other way round nothing is new, exit 0" \
    "$(rc "$BIN" diff "$T/d-new/report.json" "$T/d-old/report.json")" 0
expect_grep "diff: what was fixed is resolved" \
    '^resolved +high +HOST-KERNEL-VULN +kernel' "$T/out"
expect_eq "diff: --fail-on critical ignores new high failures" \
    "$(rc "$BIN" diff --fail-on critical "$T/d-old/report.json" \
    "$T/d-new/report.json")" 0
# A severity re-rated between runs is a change, not a new failure.
jq '(.results[] | select(.id == "HOST-KERNEL-VULN") | .severity) = "low"' \
    "$T/d-new/report.json" >"$T/d-rerated.json"
"$BIN" diff -f json "$T/d-new/report.json" "$T/d-rerated.json" \
    >"$T/d.json" 2>&1
expect_eq "diff: a re-rated failure is changed" \
    "$(jq -c '[.changed[] | [.id, .was_severity, .severity]]' "$T/d.json")" \
    '[["HOST-KERNEL-VULN","high","low"]]'
expect_eq "diff: json counts unchanged failures" \
    "$(jq '.unchanged_failures > 0' "$T/d.json")" true
# Bad inputs: exit 2, the file named.
expect_eq "diff: one operand exits 2" "$(rc "$BIN" diff "$T/d-old/report.json")" 2
expect_eq "diff: a snapshot is not a report, exit 2" \
    "$(rc "$BIN" diff "$T/d-old/snapshot.json" "$T/d-new/report.json")" 2
expect_grep "diff: and says which file" "d-old/snapshot.json: not a fabaudit-report/1 report" \
    "$T/err"
jq '.results[0].status = "maybe"' "$T/d-old/report.json" >"$T/d-bad.json"
expect_eq "diff: an invalid status exits 2" \
    "$(rc "$BIN" diff "$T/d-bad.json" "$T/d-new/report.json")" 2
expect_grep "diff: naming the entry" 'd-bad.json: results\[0\]' "$T/err"
jq '.results += [.results[0]]' "$T/d-old/report.json" >"$T/d-dup.json"
expect_eq "diff: a duplicated result exits 2" \
    "$(rc "$BIN" diff "$T/d-dup.json" "$T/d-new/report.json")" 2
printf '{"schema": ' >"$T/d-trunc.json"
expect_eq "diff: truncated JSON exits 2" \
    "$(rc "$BIN" diff "$T/d-trunc.json" "$T/d-new/report.json")" 2

fa_done

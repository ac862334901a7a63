#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --max-time SECONDS (core/deadline.h): the scan stops sending when the
# budget is spent and still writes a complete report, in which whatever
# was not observed is not_tested with the reason, and no pass appears that
# the full scan does not have.  The simulator's MADs are slowed by
# tests/robust/slowmad.c (built here) to stop the IB scan in a chosen
# phase.  usage: tests/robust/test_maxtime.sh BUILD_DIR  (repo root, root)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: test_maxtime.sh BUILD_DIR}
BIN=$PWD/$B/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
POL=fixtures/ib/careless/policy.conf

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# complete DIR: the report set is there and its counts add up.
complete() {
	for f in report.json report.txt report.xml report.html snapshot.json
	do
		[ -s "$1/$f" ] || { echo "missing $f"; return; }
	done
	jq -r '(.summary.pass + .summary.fail + .summary.not_tested +
	    .summary.not_applicable + .summary.error) == (.results | length)' \
	    "$1/report.json"
}

# passes FAMILY REPORT: "id target" of the family's passes, sorted.
passes() {
	jq -r --arg f "$1" '.results[] | select(.family == $f and
	    .status == "pass") | "\(.id) \(.target)"' "$2" | sort
}
# fails FAMILY REPORT: "ID TARGET" of the family's fails, sorted.
fails() {
	jq -r --arg f "$1" '.results[] | select(.family == $f and
	    .status == "fail") | "\(.id) \(.target)"' "$2" | sort
}

# --- usage -----------------------------------------------------------------
for v in 0 -1 abc 604801; do
	"$BIN" scan --host -q --max-time "$v" -o "$T/u" 2>"$T/u.err"
	expect_eq "--max-time $v: exit 2" "$?" 2
done
expect_grep "--max-time: the diagnostic names the option" \
    "^fabaudit: --max-time: " "$T/u.err"

# --- Ethernet: --listen 30 --max-time 2 ends in about 2 s ----------------
t0=$(now_ms)
"$BIN" scan --eth=lo --listen 30 --max-time 2 -o "$T/eth" >/dev/null \
    2>"$T/eth.err"
rc=$?
t=$(($(now_ms) - t0))
expect_eq "eth --listen 30 --max-time 2: exit 0 (nothing failed)" "$rc" 0
expect_eq "eth: it ended within 2-4 s (took $t ms)" \
    "$([ "$t" -ge 1900 ] && [ "$t" -le 4000 ] && echo yes)" yes
expect_eq "eth: the report set is complete" "$(complete "$T/eth")" true
expect_eq "eth: the cut is recorded" \
    "$(jq -r '.observations[] | select(.kind == "scan.max_time") |
    "\(.target) \(.state)"' "$T/eth/snapshot.json")" "eth not_collected"
expect_grep "eth: the reason says --max-time and how much was heard" \
    '"--max-time 2 s reached after [12] of the 30 s of listening"' \
    "$T/eth/snapshot.json"
expect_eq "eth: no pass" "$(passes eth "$T/eth/report.json")" ""
expect_eq "eth: every not_tested says why, with --max-time" \
    "$(jq -r '[.results[] | select(.family == "eth" and
    .status == "not_tested") | select(.reason | test("--max-time") |
    not)] | length' "$T/eth/report.json")" 0
expect_grep "eth: stderr says the budget ran out" \
    "^fabaudit: --max-time: 2 s reached" "$T/eth.err"

# --- InfiniBand ------------------------------------------------------------
SLOW=$T/slowmad.so
if ! cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -shared -fPIC -O1 \
    -o "$SLOW" tests/robust/slowmad.c -ldl 2>"$T/cc.err"; then
	fa_fail "slowmad.so does not build: $(head -c 300 "$T/cc.err")"
	fa_done
	exit
fi
# ib NAME [SCAN OPTION...]: scan the careless fabric into $T/NAME, the
# scan's own time in $T/NAME.ms and its status in $T/NAME.rc.
ib() {
	n=$1
	shift
	tests/ib/with-fabric.sh fixtures/ib/careless -- sh -c '
	    t0=$(date +%s%N); "$@"; r=$?
	    echo $((($(date +%s%N) - t0) / 1000000)) >"$0.ms"; exit $r' \
	    "$T/$n" "$BIN" scan --ib -q -c "$POL" -o "$T/$n" "$@" \
	    2>"$T/$n.err"
	echo $? >"$T/$n.rc"
}
ib full
expect_eq "ib full: exit 1" "$(cat "$T/full.rc")" 1
passes ib "$T/full/report.json" >"$T/full.pass"
expect_eq "ib full: it has passes to lose" \
    "$(test -s "$T/full.pass" && echo yes)" yes

# Stopped during discovery: DR SMPs (discovery's) take 50 ms each.
FA_SLOWMAD_DR_MS=50 LD_PRELOAD=$SLOW ib disc --max-outstanding 1 \
    --max-time 1
# The part of the fabric discovered is evaluated: what it shows failing
# fails (exit 1), and is a failure of the full scan too.
fails ib "$T/full/report.json" >"$T/full.fail"
fails ib "$T/disc/report.json" >"$T/disc.fail"
expect_eq "ib cut in discovery: exit 0 or 1 by what was seen" \
    "$(case $(cat "$T/disc.rc") in 0|1) echo yes ;; esac)" yes
expect_eq "ib cut in discovery: each fail is one of the full scan's" \
    "$(comm -23 "$T/disc.fail" "$T/full.fail")" ""
expect_eq "ib cut in discovery: ended in 1-3 s ($(cat "$T/disc.ms") ms)" \
    "$(m=$(cat "$T/disc.ms"); [ "$m" -ge 950 ] && [ "$m" -le 3000 ] &&
    echo yes)" yes
expect_eq "ib cut in discovery: the report set is complete" \
    "$(complete "$T/disc")" true
expect_eq "ib cut in discovery: the topology is marked incomplete" \
    "$(jq -r '.observations[] | select(.kind == "ib.topology") |
    .state' "$T/disc/snapshot.json")" incomplete
expect_grep "ib cut in discovery: the cut is named" \
    '"--max-time 1 s reached during discovery"' "$T/disc/snapshot.json"
expect_eq "ib cut in discovery: no pass" \
    "$(passes ib "$T/disc/report.json")" ""
expect_eq "ib cut in discovery: not_tested with the reason" \
    "$(jq -r '[.results[] | select(.family == "ib" and
    .status == "not_tested" and (.reason | test("--max-time 1 s")))] |
    length > 0' "$T/disc/report.json")" true
expect_nogrep "ib cut in discovery: libibnetdisc's per-SMP noise muted" \
    "bad status" "$T/disc.err"

# Stopped during the audit: discovery runs at full speed, every other MAD
# takes 100 ms (the audit needs 3 s and more).
FA_SLOWMAD_MS=100 LD_PRELOAD=$SLOW ib audit --max-outstanding 1 \
    --max-time 2
expect_eq "ib cut in the audit: exit 1 (what was seen fails)" \
    "$(cat "$T/audit.rc")" 1
expect_eq "ib cut in the audit: ended in 2-4 s ($(cat "$T/audit.ms") ms)" \
    "$(m=$(cat "$T/audit.ms"); [ "$m" -ge 1950 ] && [ "$m" -le 4000 ] &&
    echo yes)" yes
expect_eq "ib cut in the audit: the report set is complete" \
    "$(complete "$T/audit")" true
expect_grep "ib cut in the audit: the cut is named" \
    '"--max-time 2 s reached during the audit: [0-9]+ requests not sent' \
    "$T/audit/snapshot.json"
expect_eq "ib cut in the audit: requests recorded as not collected" \
    "$(jq -r '[.observations[] | select(.state == "not_collected" and
    (.reason // "" | test("--max-time 2 s reached before it was")))] |
    length > 0' "$T/audit/snapshot.json")" true
expect_eq "ib cut in the audit: the discovered topology is complete" \
    "$(jq -r '.observations[] | select(.kind == "ib.topology") |
    .state' "$T/audit/snapshot.json")" complete
passes ib "$T/audit/report.json" >"$T/audit.pass"
expect_eq "ib cut in the audit: no pass the full scan does not have" \
    "$(comm -23 "$T/audit.pass" "$T/full.pass")" ""
expect_eq "ib cut in the audit: no pass at all (the family was cut)" \
    "$(cat "$T/audit.pass")" ""
expect_eq "ib cut in the audit: each full-scan pass is now not_tested" \
    "$(jq -r '.results[] | select(.family == "ib" and
    .status == "not_tested") | "\(.id) \(.target)"' \
    "$T/audit/report.json" | sort | comm -13 - "$T/full.pass")" ""
expect_eq "ib cut in the audit: a pass of what was seen says so" \
    "$(jq -r '[.results[] | select(.reason |
    test("the part scanned passed"))] | length > 0' \
    "$T/audit/report.json")" true
# A fail it saw is kept: the fabric's SM_Key is still disclosed.
expect_eq "ib cut in the audit: the fails it saw stay" \
    "$(jq -r '.results[] | select(.id == "IB-SMKEY-DISCLOSED") | .status' \
    "$T/audit/report.json")" fail
# The snapshot re-evaluates to the same verdicts offline.
"$BIN" check -q -f json -o "$T/recheck" "$T/audit/snapshot.json" \
    2>/dev/null
jq -r '.results[] | "\(.id) \(.status) \(.target)"' \
    "$T/recheck/report.json" | sort >"$T/recheck.res"
jq -r '.results[] | "\(.id) \(.status) \(.target)"' \
    "$T/audit/report.json" | sort >"$T/audit.res"
expect_eq "ib cut in the audit: check on its snapshot agrees" \
    "$(cmp -s "$T/recheck.res" "$T/audit.res" && echo same)" same

# --- host: the budget is asked between steps -----------------------------
"$BIN" scan --host=fixtures/host/hardened --max-time 30 -q -o "$T/host" \
    2>/dev/null
expect_eq "host within the budget: no cut recorded" \
    "$(jq -r '[.observations[] | select(.kind == "scan.max_time")] |
    length' "$T/host/snapshot.json")" 0
fa_done

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The re-audit loop as cron runs it: --history (one directory per run,
# `latest`, the hash chain, retention), --quiet silent until a failure is
# new, --baseline, the history lock against overlapping runs, --metrics,
# --syslog, expired waivers, and interrupted runs that leave nothing.
# The host family on the fixture trees makes each scan take milliseconds;
# a scan listening on lo is the long-running one to interrupt or overlap.
# usage: tests/report/test_cron.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/report/test_cron.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
HARD=fixtures/host/hardened
PRIV=fixtures/host/gpu-privileged
"$B/tests/mkspecial" "$PRIV/" || fa_fail "mkspecial $PRIV"

rc() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
runs() { find "$1" -mindepth 1 -maxdepth 1 -type d -name '2*' | sort; }
nruns() { runs "$1" | wc -l | tr -d ' '; }

# --- history: runs, latest, chain, quiet -------------------------------
H=$T/hist
expect_eq "first run (hardened host) exits 0" \
    "$(rc "$BIN" scan -q --host="$HARD" --history "$H")" 0
expect_eq "... prints nothing with -q" "$(wc -c <"$T/out" | tr -d ' ')" 0
first=$(runs "$H" | tail -1)
expect_eq "... one run directory, named by its UTC start" \
    "$(basename "$first" | grep -cE '^[0-9]{8}T[0-9]{6}Z(-[2-9])?$')" 1
expect_eq "... latest names it" "$(readlink "$H/latest")" \
    "$(basename "$first")"
expect_eq "... the first run has no previous report" \
    "$(jq -r '.previous // "none"' "$first/report.json")" none
for f in report.json report.txt report.xml report.html snapshot.json; do
	expect_eq "... wrote $f" "$(test -f "$first/$f" && echo yes)" yes
done
expect_eq "... no temporary file left" \
    "$(find "$H" -name '.*.??????' | wc -l | tr -d ' ')" 0

expect_eq "second run, same host: nothing new, exit 0" \
    "$(rc "$BIN" scan -q --host="$HARD" --history "$H")" 0
expect_eq "... -q prints nothing" "$(wc -c <"$T/out" | tr -d ' ')" 0
second=$(runs "$H" | tail -1)
expect_eq "... previous.sha256 is the first report's digest" \
    "$(jq -r .previous.sha256 "$second/report.json")" \
    "$(sha256sum <"$first/report.json" | cut -c1-64)"
expect_eq "... every result is unchanged or added" \
    "$(jq '[.results[].baseline | select(. != "unchanged" and . != "added")]
    | length' "$second/report.json")" 0

# A provider change that makes things worse: the privileged container.
expect_eq "third run, privileged: new failures exit 1" \
    "$(rc "$BIN" scan -q --host="$PRIV" --history "$H")" 1
expect_grep "... -q now prints the new failures" '^New: critical HOST-PRIVILEGED' \
    "$T/out"
expect_grep "... and the comparison" '^Baseline .*: [0-9]+ new failures' \
    "$T/out"
third=$(runs "$H" | tail -1)
expect_eq "... latest moved to it" "$(readlink "$H/latest")" \
    "$(basename "$third")"
expect_eq "... HOST-PRIVILEGED is marked new" \
    "$(jq -r '.results[] | select(.id == "HOST-PRIVILEGED") | .baseline' \
    "$third/report.json")" new
expect_eq "verify --chain accepts the three runs" \
    "$(rc "$BIN" verify --chain "$H")" 0

# Retention: --keep 2 leaves the newest two runs.
"$BIN" scan -q --host="$PRIV" --history "$H" --keep 2 >/dev/null 2>&1
expect_eq "--keep 2 leaves two runs" "$(nruns "$H")" 2
expect_eq "... the oldest went" "$(test -d "$first" && echo yes || echo no)" no
expect_eq "... the chain still verifies (its start pruned)" \
    "$(rc "$BIN" verify --chain "$H")" 0
expect_grep "... and says where it starts" "predecessor not kept" "$T/out"

# A tampered middle report breaks the chain, naming the run.
cp -r "$H" "$T/hist-tampered"
mid=$(runs "$T/hist-tampered" | head -1)
sed -i 's/"fail"/"pass"/' "$mid/report.json"
expect_eq "verify --chain: a changed report breaks the chain" \
    "$(rc "$BIN" verify --chain "$T/hist-tampered")" 1
expect_grep "... naming the run after it" "$(basename "$(runs \
    "$T/hist-tampered" | tail -1)")" "$T/out"

# --- an explicit baseline ---------------------------------------------
"$BIN" check -q -f json -o "$T/b1" fixtures/reports/careless.snapshot.json \
    >/dev/null 2>&1
jq '.results |= map(if .id == "IB-SMKEY-DEFAULT" then .status = "pass"
    else . end)' "$T/b1/report.json" >"$T/base.json"
expect_eq "check --baseline: one new failure, exit 1" \
    "$(rc "$BIN" check -q --baseline "$T/base.json" -o "$T/b2" \
    fixtures/reports/careless.snapshot.json)" 1
expect_eq "... counted in report.json" \
    "$(jq .baseline.failing_at_or_above "$T/b2/report.json")" 1
expect_eq "check --baseline of itself: nothing new, exit 0" \
    "$(rc "$BIN" check -q --baseline "$T/b1/report.json" -o "$T/b3" \
    fixtures/reports/careless.snapshot.json)" 0
echo '{"schema": "fabaudit-snapshot/1"}' >"$T/notreport.json"
expect_eq "a baseline that is not a report exits 2" \
    "$(rc "$BIN" scan --host="$HARD" --baseline "$T/notreport.json" \
    -o "$T/b4")" 2
expect_grep "... naming it" "notreport.json: not a fabaudit-report/2" \
    "$T/err"
expect_eq "... before anything is written" \
    "$(test -e "$T/b4" && echo yes || echo no)" no

# --- waivers: in force, and expired ----------------------------------
printf 'waive HOST-PRIVILEGED host 2099-12-31 "accepted until the VM move"\n' \
    >"$T/waive-ok.conf"
printf 'waive HOST-PRIVILEGED host 2026-01-01 "provider said Q4 2025"\n' \
    >"$T/waive-old.conf"
"$BIN" scan -q --host="$PRIV" -c "$T/waive-ok.conf" -o "$T/w1" \
    >/dev/null 2>&1
expect_eq "a waiver in force marks the failure waived" \
    "$(jq -r '.results[] | select(.id == "HOST-PRIVILEGED") |
    .waived.expires' "$T/w1/report.json")" 2099-12-31
expect_eq "an expired waiver is not an error" \
    "$(rc "$BIN" scan -q --host="$PRIV" -c "$T/waive-old.conf" \
    -o "$T/w2")" 1
expect_eq "... it suppresses nothing" \
    "$(jq -r '.results[] | select(.id == "HOST-PRIVILEGED") |
    (.waived == null)' "$T/w2/report.json")" true
expect_eq "... the failure says which waiver expired" \
    "$(jq -r '.results[] | select(.id == "HOST-PRIVILEGED") |
    .waiver_expired.expires' "$T/w2/report.json")" 2026-01-01
expect_eq "... and the report lists it" \
    "$(jq -r '.expired_waivers[0].check_id' "$T/w2/report.json")" \
    HOST-PRIVILEGED
expect_grep "... as does report.html" "provider said Q4 2025" \
    "$T/w2/report.html"
expect_eq "... and the failing count includes it again" \
    "$(jq '.summary.failing_at_or_above > 0 and .summary.waived == 0' \
    "$T/w2/report.json")" true

# --- metrics -----------------------------------------------------------
M=$T/prom/fabaudit.prom
mkdir -p "$T/prom"
expect_eq "--metrics: a run writes the file" \
    "$(rc "$BIN" scan -q --host="$PRIV" -o "$T/m1" --metrics "$M")" 1
expect_eq "... readable by node_exporter (0644)" "$(stat -c %a "$M")" 644
expect_grep "... counts critical failures" \
    '^fabaudit_failures\{severity="critical"\} [1-9]' "$M"
expect_grep "... the run succeeded" '^fabaudit_last_run_success 1$' "$M"
expect_grep "... per-check status" \
    '^fabaudit_check_status\{check="HOST-PRIVILEGED",status="fail"\} 1$' "$M"
last=$(sed -n 's/^fabaudit_last_success_timestamp_seconds //p' "$M")
# A run that cannot scan (no InfiniBand here) still writes its metrics.
expect_eq "a run that could not scan exits 3" \
    "$(rc "$BIN" scan -q --ib -o "$T/m2" --metrics "$M")" 3
expect_grep "... and says so in the metrics" '^fabaudit_last_run_success 0$' \
    "$M"
expect_eq "... keeping the last success time" \
    "$(sed -n 's/^fabaudit_last_success_timestamp_seconds //p' "$M")" \
    "$last"

# --- syslog: a private /dev/log in a mount namespace -------------------
cat >"$T/recv.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[2] + ".ready", "w").close()
s.settimeout(10)
try:
    open(sys.argv[2], "wb").write(s.recv(65536))
except socket.timeout:
    pass
EOF
mkdir -p "$T/dev"
: >"$T/dev/null"
unshare -m sh -c '
	mount --bind /dev/null "$1/dev/null" && mount --bind "$1/dev" /dev ||
	    exit 1
	python3 "$1/recv.py" /dev/log "$1/syslog.msg" &
	i=0
	while [ ! -e "$1/syslog.msg.ready" ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1)); done
	"$2" scan -q --host="$3" -o "$1/s1" --syslog
	wait' sh "$T" "$BIN" "$PRIV" >/dev/null 2>"$T/err"
expect_grep "--syslog: one line, tagged fabaudit" \
    'fabaudit\[[0-9]+\]: scan of .*: [0-9]+ pass, [0-9]+ fail, .*; exit 1; report ' \
    "$T/syslog.msg"
expect_grep "... at warning priority (daemon.warning is <28>)" '^<28>' \
    "$T/syslog.msg"

# --- overlapping runs and interruptions ---------------------------------
# A scan listening on lo for 20 s holds the history lock meanwhile.
L=$T/hist-lock
"$BIN" scan -q --eth=lo --listen 20 --host="$HARD" --history "$L" \
    >/dev/null 2>&1 &
slow=$!
i=0
while [ ! -e "$L/.lock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
expect_eq "an overlapping run exits 3 at once" \
    "$(rc "$BIN" scan -q --host="$HARD" --history "$L")" 3
expect_grep "... naming the lock" "another fabaudit run holds .*/\.lock" \
    "$T/err"
kill -INT "$slow"
wait "$slow"
expect_eq "SIGINT during a run: exit 130" "$?" 130
expect_eq "... leaves no run directory" "$(nruns "$L")" 0
expect_eq "... and no latest link" \
    "$(test -e "$L/latest" && echo yes || echo no)" no
expect_eq "after it, the lock is free: a run completes" \
    "$(rc "$BIN" scan -q --host="$HARD" --history "$L")" 0

"$BIN" scan -q --eth=lo --listen 20 --host="$HARD" -o "$T/int/run" \
    >/dev/null 2>&1 &
slow=$!
sleep 1
kill -TERM "$slow"
wait "$slow"
expect_eq "SIGTERM during a run: exit 143" "$?" 143
expect_eq "... the output directory it made is gone" \
    "$(test -e "$T/int/run" && echo yes || echo no)" no

# An interrupted run into an existing directory leaves its old report.
"$BIN" scan -q --host="$HARD" -o "$T/keep" >/dev/null 2>&1
sum=$(sha256sum "$T/keep/report.json")
"$BIN" scan -q --eth=lo --listen 20 --host="$PRIV" -o "$T/keep" \
    >/dev/null 2>&1 &
slow=$!
sleep 1
kill -INT "$slow"
wait "$slow"
expect_eq "an interrupted rerun exits 130" "$?" 130
expect_eq "... the earlier report is untouched" \
    "$(sha256sum "$T/keep/report.json")" "$sum"
expect_eq "... and no temporary file is left" \
    "$(find "$T/keep" -name '.*' -type f | wc -l | tr -d ' ')" 0

# --- merge and sign ----------------------------------------------------
"$BIN" keygen -o "$T/k" >/dev/null 2>&1
jq '.scan.host = "node-b"' "$T/m1/report.json" >"$T/node-b.json"
expect_eq "merge --sign of two nodes' reports" \
    "$(rc "$BIN" merge -q --sign "$T/k.pem" -o "$T/mg" "$T/w1/report.json" \
    "$T/node-b.json")" 1
expect_eq "... verifies" "$(rc "$BIN" verify -p "$T/k.pub.pem" "$T/mg")" 0
expect_eq "... and covers the html report" \
    "$(grep -c ' report.html$' "$T/mg/SHA256SUMS")" 1

# A signed history: every run signed, the chain checked with the key.
for i in 1 2; do
	expect_eq "scan --history --sign, run $i" \
	    "$(rc "$BIN" scan -q --host="$HARD" --history "$T/hs" \
	    --sign "$T/k.pem")" 0
done
expect_eq "... SHA256SUMS covers the snapshot and every report" \
    "$(cut -c67- "$T/hs/latest/SHA256SUMS" | tr '\n' ' ')" \
    "report.html report.json report.txt report.xml snapshot.json "
expect_eq "verify --chain --pubkey of the signed history" \
    "$(rc "$BIN" verify --chain -p "$T/k.pub.pem" "$T/hs")" 0

fa_done

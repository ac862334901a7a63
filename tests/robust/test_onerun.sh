#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An output directory holds one run (issue 24): rescanning into a
# directory leaves nothing of the previous run beside the new one (its
# renderings, SHA256SUMS and signature would otherwise sit beside a report
# they do not describe, and verify fail on a legitimate one); a file that
# is no run's stays; `check` of the snapshot in the directory keeps it; a
# directory every user may write is refused before anything is scanned, a
# sticky or group-writable one is warned about.
# usage: tests/robust/test_onerun.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/robust/test_onerun.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
H=$(pwd)/fixtures/host/vm
D=$T/out
K=$T/key

rc() { "$@" >"$T/so" 2>"$T/se"; echo $?; }
files() { (cd "$1" && ls -A | tr '\n' ' '); }
ALL=json,txt,html,xml,junit

expect_eq "keygen" "$(rc "$BIN" keygen -o "$K")" 0
echo "notes of the operator" >"$T/notes"

# 1. Every format, signed; then JSON only, unsigned.
rc "$BIN" scan -q --host="$H" -f $ALL --sign "$K.pem" -o "$D" >/dev/null
cp "$T/notes" "$D/notes.txt"
expect_eq "first scan: every format and the signature" "$(files "$D")" \
    "SHA256SUMS SHA256SUMS.sig junit.xml notes.txt report.html report.json report.txt report.xml snapshot.json "
expect_eq "rescan -f json unsigned: exit status" \
    "$(rc "$BIN" scan -q --host="$H" -f json -o "$D")" 1
expect_eq "rescan -f json unsigned: only its files, and the operator's" \
    "$(files "$D")" "notes.txt report.json snapshot.json "
expect_eq "the operator's file is untouched" "$(cat "$D/notes.txt")" \
    "notes of the operator"

# 2. Every format signed, then JSON only signed: verify passes.
rc "$BIN" scan -q --host="$H" -f $ALL --sign "$K.pem" -o "$D" >/dev/null
expect_eq "rescan -f json --sign: exit status" \
    "$(rc "$BIN" scan -q --host="$H" -f json --sign "$K.pem" -o "$D")" 1
expect_eq "rescan -f json --sign: its files" "$(files "$D")" \
    "SHA256SUMS SHA256SUMS.sig notes.txt report.json snapshot.json "
expect_eq "SHA256SUMS lists exactly this run's files" \
    "$(cut -c67- "$D/SHA256SUMS" | tr '\n' ' ')" "report.json snapshot.json "
expect_eq "verify passes on the rescanned directory" \
    "$(rc "$BIN" verify --pubkey "$K.pub.pem" "$D")" 0

# 3. check of the snapshot in the directory, into the directory: the
# snapshot it re-evaluates stays (its evidence), the rest is the check's.
expect_eq "check DIR/snapshot.json -o DIR: exit status" \
    "$(rc "$BIN" check -q -f txt -o "$D" "$D/snapshot.json")" 1
expect_eq "check into the scan's directory keeps the snapshot" \
    "$(files "$D")" "notes.txt report.txt snapshot.json "
expect_eq "the kept snapshot still loads" \
    "$(rc "$BIN" check -q "$D/snapshot.json")" 1
# ... and a check of another snapshot removes the earlier one.
"$BIN" scan -q --host="$H" -f json -o "$T/other" >/dev/null 2>&1
expect_eq "check of another snapshot: exit status" \
    "$(rc "$BIN" check -q -f json -o "$D" "$T/other/snapshot.json")" 1
expect_eq "check of another snapshot: no stale snapshot beside it" \
    "$(files "$D")" "notes.txt report.json "

# 4. merge into a scan's directory: a cluster report only.
rc "$BIN" scan -q --host="$H" -f $ALL -o "$D" >/dev/null
expect_eq "merge into a scan's directory: exit status" \
    "$(rc "$BIN" merge -q -f json,txt -o "$D" "$T/other/report.json")" 1
expect_eq "merge into a scan's directory: no snapshot, no old rendering" \
    "$(files "$D")" "notes.txt report.json report.txt "

# 5. Who else may write the directory.
mkdir "$T/ww" && chmod 0777 "$T/ww"
expect_eq "world-writable directory: usage error" \
    "$(rc "$BIN" scan -q --host="$H" -o "$T/ww")" 2
expect_grep "world-writable directory: says why" "every user may write" \
    "$T/se"
expect_eq "world-writable directory: nothing written" "$(files "$T/ww")" ""
mkdir "$T/st" && chmod 1777 "$T/st"
expect_eq "sticky world-writable directory: scanned" \
    "$(rc "$BIN" scan -q --host="$H" -f json -o "$T/st")" 1
expect_grep "sticky world-writable directory: warned" \
    "warning: .*every user may write" "$T/se"
mkdir "$T/gw" && chmod 0770 "$T/gw"
expect_eq "group-writable directory: scanned" \
    "$(rc "$BIN" scan -q --host="$H" -f json -o "$T/gw")" 1
expect_grep "group-writable directory: warned" \
    "warning: .*its group may write" "$T/se"
expect_eq "merge into a world-writable directory: usage error" \
    "$(rc "$BIN" merge -q -o "$T/ww" "$T/other/report.json")" 2
fa_done

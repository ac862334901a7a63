#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Output directory faults: a full disk (a small tmpfs) and a read-only
# directory (a read-only tmpfs: root ignores mode bits), each in a private
# mount namespace (unshare -m).  scan, check, merge and keygen must exit
# non-zero with one line on stderr, leave no temporary or partial file,
# and leave a previous report in the directory exactly as it was, even
# when the disk fills up between two files of the set.
# usage: tests/robust/test_outdir.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=$1
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
H=$(pwd)/fixtures/host/vm
S=$T/snap.json
cp fixtures/reports/careless.snapshot.json "$S"

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	fa_fail "output directory faults need root and unshare -m"
	fa_done
	exit
fi
# The previous report: a small one (a host scan), so that the new one, of
# a large snapshot, does not fit where the old one was.
"$BIN" scan -q --host="$H" -o "$T/small" >/dev/null 2>&1
"$BIN" check -q -o "$T/prev" "$T/small/snapshot.json" >/dev/null 2>&1
"$BIN" merge -q -o "$T/mprev" "$T/prev/report.json" >/dev/null 2>&1
"$BIN" check -q -o "$T/big" "$S" >/dev/null 2>&1
[ -s "$T/prev/report.json" ] && [ -s "$T/mprev/report.json" ] &&
    [ -s "$T/big/report.json" ] || fa_fail "setup: no previous report"
# KiB of the previous report set, and of the new report.json: room for
# the new report.json, not for the rest of the set.
SET=$(du -sk "$T/prev" | cut -f1)
JSON=$(du -k "$T/big/report.json" | cut -f1)

# The tests proper run in a private mount namespace, as one script.
cat >"$T/inner.sh" <<'INNER'
set -u
. tests/lib.sh
BIN=$1 T=$2 S=$3 H=$4 SET=$5 JSON=$6
M=$T/mnt
mkdir -p "$M"
cases=0

# state DIR: names, sizes and content of DIR (to compare before/after).
state() { (cd "$1" && ls -A && md5sum -- * 2>/dev/null); }

# case NAME WANT-STATUS DIR CMD...: run, then check status, stderr and
# that DIR is as it was (no new, temporary or changed file).
case_() {
	n=$1 want=$2 dir=$3
	shift 3
	cases=$((cases + 1))
	state "$dir" >"$T/before"
	timeout 60 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "$n: exit status" "$rc" "$want"
	expect_eq "$n: one line on stderr" "$(wc -l <"$T/err")" 1
	state "$dir" >"$T/after"
	if cmp -s "$T/before" "$T/after"; then
		fa_pass "$n: the directory is as it was"
	else
		fa_fail "$n: the directory changed"
		diff "$T/before" "$T/after" | head -5
	fi
}

# A full disk, empty directory: nothing is left.
mount -t tmpfs -o size=64k tmpfs "$M" || fa_fail "mount tmpfs"
mkdir "$M/out"
case_ "check to a full disk" 3 "$M/out" "$BIN" check -q -o "$M/out" "$S"
expect_grep "check to a full disk: says so" \
    'No space left on device' "$T/err"
case_ "scan to a full disk" 3 "$M/out" "$BIN" scan -q --host="$H" \
    -o "$M/out"
case_ "merge to a full disk" 3 "$M/out" "$BIN" merge -q -o "$M/out" \
    "$T/prev/report.json"
# Fill it up to the last byte for keygen (a key pair is small): a key
# pair or nothing.
dd if=/dev/zero of="$M/fill" bs=1k 2>/dev/null
case_ "keygen to a disk with no byte free" 3 "$M/out" "$BIN" keygen \
    -o "$M/out/k"
umount "$M"

# A full disk between two files of the set: the previous report stays.
mount -t tmpfs -o size=$((SET + JSON + 40))k tmpfs "$M" ||
    fa_fail "mount tmpfs"
cp -a "$T/prev" "$M/out"
case_ "check filling the disk mid-set" 3 "$M/out" "$BIN" check -q \
    -o "$M/out" "$S"
case_ "check --sign filling the disk mid-set" 3 "$M/out" "$BIN" check \
    -q --sign "$T/key.pem" -o "$M/out" "$S"
umount "$M"
mount -t tmpfs -o size=$((SET + JSON + 40))k tmpfs "$M" ||
    fa_fail "mount tmpfs"
cp -a "$T/mprev" "$M/out"
case_ "merge filling the disk mid-set" 3 "$M/out" "$BIN" merge -q \
    -o "$M/out" "$T/big/report.json"
umount "$M"

# A read-only directory holding a previous report.
mount -t tmpfs -o size=2m tmpfs "$M" || fa_fail "mount tmpfs"
cp -a "$T/prev" "$M/out"
mount -o remount,ro "$M" || fa_fail "remount read-only"
case_ "check into a read-only directory" 2 "$M/out" "$BIN" check -q \
    -o "$M/out" "$S"
expect_grep "check into a read-only directory: says so" \
    "$M/out: .*Read-only file system" "$T/err"
case_ "scan into a read-only directory" 2 "$M/out" "$BIN" scan -q \
    --host="$H" -o "$M/out"
case_ "merge into a read-only directory" 2 "$M/out" "$BIN" merge -q \
    -o "$M/out" "$T/prev/report.json"
case_ "keygen into a read-only directory" 2 "$M/out" "$BIN" keygen \
    -o "$M/out/k"
case_ "scan making a directory on a read-only file system" 2 "$M" \
    "$BIN" scan -q --host="$H" -o "$M/new"
umount "$M"
echo "FIGURE outdir_fault_cases $cases"
fa_done
INNER
"$BIN" keygen -o "$T/key" >/dev/null 2>&1 || fa_fail "setup: keygen"
unshare -m sh "$T/inner.sh" "$BIN" "$T" "$S" "$H" "$SET" "$JSON" ||
    FA_FAILS=$((FA_FAILS + 1))
fa_done

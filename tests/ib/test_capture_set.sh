#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mads.pcap belongs to the run whose report it stands beside (issue 24):
# the capture is written under a temporary name and placed with the
# report, so a rescan that fails after its capture is complete leaves the
# earlier run's capture, report and snapshot as they were (byte for byte)
# and no temporary file; a rescan that succeeds replaces all three.  The
# failure is a real one of the output set: report.txt's place is taken by
# a directory, which rename(2) will not replace (EISDIR).  On the careless
# fixture fabric (ibsim + opensm), with the privilege-separated child
# (the default as root) and without it (--user root).
# usage: tests/ib/test_capture_set.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
B=${1:?usage: tests/ib/test_capture_set.sh BUILD_DIR}
BIN=$(cd "$B" && pwd)/fabaudit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"

# The three scans, run on the fabric: SCANS OUTDIR [SCAN OPTION...]
cat >"$T/scans" <<'EOS'
d=$1 bin=$2
shift 2
sums() { (cd "$d" && sha256sum mads.pcap report.json snapshot.json); }
temps() { find "$d" -name '.*' | wc -l; }
"$bin" scan -q --ib "$@" -f json,txt -o "$d" >/dev/null 2>"$d.1.err"
echo $? >"$d.1.rc"
sums >"$d.first" 2>&1
rm -f "$d/report.txt" && mkdir "$d/report.txt"
"$bin" scan -q --ib "$@" -f json,txt -o "$d" >/dev/null 2>"$d.2.err"
echo $? >"$d.2.rc"
rmdir "$d/report.txt"
sums >"$d.failed" 2>&1
temps >"$d.failed.temps"
"$bin" scan -q --ib "$@" -f json,txt -o "$d" >/dev/null 2>"$d.3.err"
echo $? >"$d.3.rc"
sums >"$d.last" 2>&1
temps >"$d.last.temps"
EOS

for how in child root; do
	D=$T/$how
	case $how in
	child) set -- ;;
	root) set -- --user root ;;
	esac
	sh tests/ib/with-fabric.sh fixtures/ib/careless -- \
	    sh "$T/scans" "$D" "$BIN" "$@" >"$T/$how.fab" 2>&1
	expect_eq "$how: fabric up, the scans run" "$?" 0
	expect_eq "$how: the first scan exits 1 (failures)" \
	    "$(cat "$D.1.rc")" 1
	expect_eq "$how: it wrote a capture, a report and a snapshot" \
	    "$(grep -c '  ' "$D.first")" 3
	expect_eq "$how: the rescan that cannot place report.txt exits 3" \
	    "$(cat "$D.2.rc")" 3
	expect_grep "$how: and says why" 'report.txt' "$D.2.err"
	expect_eq "$how: it left the earlier capture, report and snapshot" \
	    "$(diff "$D.first" "$D.failed" && echo same)" same
	expect_eq "$how: and no temporary file" "$(cat "$D.failed.temps")" 0
	expect_eq "$how: the rescan that succeeds exits 1" \
	    "$(cat "$D.3.rc")" 1
	expect_eq "$how: its capture, report and snapshot are new" \
	    "$(diff "$D.first" "$D.last" | grep -c '^>')" 3
	expect_eq "$how: and no temporary file" "$(cat "$D.last.temps")" 0
done
fa_done

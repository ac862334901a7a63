#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# demo.sh: the `make demo` run. Scans the bundled demo cluster
# (fixtures/ib/demo: ibsim + a real OpenSM, see fixtures/ib/README) with
#
#   FABAUDIT_BIN scan --ib --eth --listen 5 --host -c fixtures/ib/demo/policy.conf -o <repo>/demo-report
#
# run from tenant node acme-gpu-01 through tests/ib/with-fabric.sh, then
# prints where the report is and the files in it.
#
#   tests/ib/demo.sh FABAUDIT_BIN
#
# fabaudit exit 0 (no failing findings) and 1 (failing findings: expected
# here, the demo provider is careless) count as success; anything else
# (2 usage/policy error, 3 fabric or scanner failure, signals) is a failure.
# Works from any cwd; a previous <repo>/demo-report is removed first.

prog=demo.sh

if [ $# -ne 1 ]; then
	echo "usage: $prog FABAUDIT_BIN" >&2
	exit 2
fi

here=$(cd "$(dirname "$0")" && pwd) || exit 2
root=$(cd "$here/../.." && pwd) || exit 2

# An absolute path to the binary (a bare name is looked up in PATH).
bin=$1
case $bin in
*/*) bin=$(cd "$(dirname "$bin")" 2>/dev/null && pwd)/$(basename "$bin") ;;
*) bin=$(command -v "$bin") || bin=$1 ;;
esac
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
	echo "$prog: fabaudit binary not found or not executable: $1" >&2
	exit 2
fi

scen=$root/fixtures/ib/demo
out=$root/demo-report
rm -rf "$out"

"$here/with-fabric.sh" "$scen" -- \
	"$bin" scan --ib --eth --listen 5 --host -c "$scen/policy.conf" -o "$out"
rc=$?

case $rc in
0) echo "$prog: fabaudit finished: no failing findings" ;;
1) echo "$prog: fabaudit finished: failing findings reported (expected for this demo)" ;;
*)
	echo "$prog: FAILED: fabaudit scan exited with status $rc" >&2
	[ "$rc" = 3 ] && echo "$prog: (3 is also with-fabric.sh's status when ibsim/opensm did not come up; see the messages above)" >&2
	[ "$rc" -gt 128 ] && echo "$prog: (killed by signal $((rc - 128)))" >&2
	exit 1
	;;
esac

if [ ! -d "$out" ]; then
	echo "$prog: FAILED: fabaudit wrote no report directory $out" >&2
	exit 1
fi
echo "fabaudit demo report: $out"
(cd "$out" && find . -type f | sed 's|^\./|  |' | sort)
echo "For procurement and legal: $out/report.html (self-contained; print it"
echo "or save it as PDF, e.g. chromium --headless --no-sandbox \\"
echo "    --print-to-pdf=audit.pdf $out/report.html)"
exit 0

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mergebench.sh: part of `make bench` (bench/README): how fast and how lean
# is `fabaudit merge` of a large cluster's node reports?  Issue 23's
# target: 10,000 node reports merged in at most 10 s and 256 MiB peak RSS
# on this 2-CPU machine.
#
# Two rows, each from a real node report copied into N nodes' reports by
# bench/mkreports (their own node name, host name and scan id; one node in
# a thousand with a result of another status):
#   node     what a node of the Slurm job writes: `fabaudit scan --host
#            --eth=lo --listen 1` of this machine (about 100 KB);
#   ib+node  `fabaudit check` of the careless-provider fixture: InfiniBand,
#            Ethernet and host results with all their evidence (about
#            150 KB), as the one node that also walks the fabric writes.
# bench/rusage measures one run of
#
#   fabaudit merge -q -o OUT NODES_DIR        (json, txt, xml, html)
#
# and one row is printed per kind: reports, their total size, seconds,
# CPU seconds, peak MiB, the sizes of report.json and report.xml, and
# each figure against its target.  Everything is removed afterwards,
# also on failure.
#
#   sh bench/mergebench.sh BUILD_DIR [N]      (from the repository root)
#
# Exit status: 0 when the merge ran (it exits 1 on these reports: they
# have findings), 1 if a measurement could not be made, 2 usage.
set -u
[ $# -ge 1 ] || { echo "usage: mergebench.sh BUILD_DIR [N]" >&2; exit 2; }
bb=$(cd "$1" && pwd) || exit 2
n=${2:-10000}
case $n in ''|*[!0-9]*) echo "mergebench.sh: N: '$n'" >&2; exit 2 ;; esac
for f in fabaudit bench/mkreports bench/rusage; do
	[ -x "$bb/$f" ] ||
		{ echo "mergebench.sh: no $bb/$f (make bench-build)" >&2; exit 2; }
done

d=$(mktemp -d /tmp/mergebench.XXXXXX) || exit 1
trap 'rm -rf "$d"' EXIT
trap 'exit 1' INT TERM HUP

# val FILE KEY: one key=value of rusage's line.
val() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }

fail=0
rows=
# one KIND BASE_REPORT: generate, merge, measure; a row into $rows.
one() {
	rm -rf "$d/nodes" "$d/out"
	echo "mergebench: $1: writing $n node reports of" \
	    "$(($(wc -c <"$2") / 1024)) KB to $d/nodes"
	"$bb/bench/mkreports" "$2" "$d/nodes" "$n" || { fail=1; return; }
	in_mb=$(du -sm "$d/nodes" | cut -f1)
	# Read once first: the page cache holds the inputs, as it does for
	# a merge run just after the nodes wrote them.
	find "$d/nodes" -name report.json -exec cat {} + >/dev/null
	sync	# and none is still being written back meanwhile
	"$bb/bench/rusage" -t 600 -o "$d/m.ru" -- "$bb/fabaudit" merge -q \
	    -o "$d/out" "$d/nodes" >"$d/m.out" 2>"$d/m.err"
	st=$(val "$d/m.ru" status)
	merged=$(jq .merged.reports "$d/out/report.json" 2>/dev/null)
	if { [ "${st:-x}" != 0 ] && [ "${st:-x}" != 1 ]; } ||
	    [ "${merged:-0}" != "$n" ]; then
		echo "mergebench: $1: merge failed (status ${st:-?}," \
		    "${merged:-no} reports merged):" >&2
		head -5 "$d/m.err" >&2
		fail=1
		return
	fi
	rows="$rows$(awk -v k="$1" -v n="$n" -v mb="$in_mb" \
	    -v w="$(val "$d/m.ru" wall)" -v r="$(val "$d/m.ru" maxrss_kb)" \
	    -v u="$(val "$d/m.ru" utime)" -v s="$(val "$d/m.ru" stime)" \
	    -v js="$(wc -c <"$d/out/report.json")" \
	    -v xs="$(wc -c <"$d/out/report.xml")" 'BEGIN {
	printf "%-8s %8d %7d | %6.2f %-9s | %5.1f | %6.1f %-9s | %7.1f %7.1f\n",
	    k, n, mb, w, w <= 10 ? "(met)" : "(NOT met)", u + s, r / 1024,
	    r / 1024 <= 256 ? "(met)" : "(NOT met)", js / 1e6, xs / 1e6 }')
"
}

"$bb/fabaudit" scan -q --host --eth=lo --listen 1 --node-name base \
    -f json -o "$d/node" >/dev/null 2>&1
if [ -s "$d/node/report.json" ]; then
	one node "$d/node/report.json"
else
	echo "mergebench: this machine's scan wrote no report" >&2
	fail=1
fi
"$bb/fabaudit" check -q -f json -o "$d/ib" \
    fixtures/reports/careless.snapshot.json >/dev/null 2>&1
if [ -s "$d/ib/report.json" ]; then
	one ib+node "$d/ib/report.json"
else
	echo "mergebench: no report of the careless fixture" >&2
	fail=1
fi
echo
echo "Cluster merge, fabaudit merge of N node reports ($(nproc) CPUs;" \
    "one run each; targets: 10 s, 256 MiB at 10,000)"
echo "kind      reports   in MB | wall s (10 s)    | CPU s | peak MiB (256)   |  json MB  xml MB"
printf '%s' "$rows"
exit "$fail"

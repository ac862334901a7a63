#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# figures.sh: issue 8's robustness figures in one table.
#
#   tests/robust/figures.sh [--fuzz-time SECONDS] BUILD_DIR FUZZ_BUILD_DIR
#   tests/robust/figures.sh --from LOG
#
# The first form runs the three suites that measure them: every fuzz
# target (fuzz/run.sh, SECONDS each, default 60), the InfiniBand fault
# scenarios (tests/ib/test_faults.sh) and the interruption runs
# (tests/robust/test_interrupt.sh); the second reads a log that holds their
# output already (tests/run.sh, i.e. `make check`, passes its own).  Each
# suite prints "FIGURE NAME N" lines; this script adds them up and prints
#   fuzz targets, executions per target, crashes
#   fault scenarios run, false passes
#   interrupted runs, runs that left partial files
# A figure no suite printed is shown as "not measured", never as 0.
# Exit status: 0 when every figure was measured and crashes, false passes
# and partial files are all 0; 1 otherwise; 2 for a usage error.
set -u
prog=figures.sh
usage() {
	echo "usage: $prog [--fuzz-time SECONDS] BUILD_DIR FUZZ_BUILD_DIR" >&2
	echo "       $prog --from LOG" >&2
	exit 2
}
cd "$(dirname "$0")/../.." || exit 2

ft=60
log=
while [ $# -gt 0 ]; do
	case $1 in
	--fuzz-time)
		[ $# -ge 2 ] || usage
		case $2 in ''|*[!0-9]*) usage ;; esac
		ft=$2
		shift 2 ;;
	--from)
		[ $# -ge 2 ] || usage
		log=$2
		shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done

tmp=
if [ -z "$log" ]; then
	[ $# -eq 2 ] || usage
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	log=$tmp
	echo "$prog: fuzzing every target for ${ft} s, then the fault" \
	    "scenarios and the interruption runs" >&2
	sh fuzz/run.sh "$2" --time "$ft" >>"$log" 2>&1
	sh tests/ib/test_faults.sh "$1" >>"$log" 2>&1
	sh tests/robust/test_interrupt.sh "$1" >>"$log" 2>&1
else
	[ $# -eq 0 ] || usage
	[ -r "$log" ] || { echo "$prog: $log: cannot read" >&2; exit 2; }
fi

awk '
$1 == "FIGURE" && NF == 3 && $3 ~ /^[0-9]+$/ {
	if ($2 ~ /^fuzz_execs\./) {
		t = substr($2, 12)
		if (!(t in execs))
			order[nt++] = t
		execs[t] += $3
	} else {
		fig[$2] += $3
		seen[$2] = 1
	}
}
function show(label, name, must_be_zero) {
	if (!(name in seen)) {
		printf "  %-40s not measured\n", label
		bad = 1
		return
	}
	printf "  %-40s %d\n", label, fig[name]
	if (must_be_zero && fig[name] != 0)
		bad = 1
}
END {
	print "Robustness figures (issue 8)"
	if (nt == 0) {
		printf "  %-40s not measured\n", "fuzz targets"
		bad = 1
	} else {
		printf "  %-40s %d\n", "fuzz targets", nt
		for (i = 0; i < nt; i++)
			printf "    %-38s %d executions\n", order[i],
			    execs[order[i]]
	}
	show("fuzz crashes", "fuzz_crashes", 1)
	show("fault scenarios run", "fault_scenarios", 0)
	show("false passes", "false_passes", 1)
	show("interrupted runs", "interrupted_runs", 0)
	show("interrupted runs leaving partial files", "partial_files", 1)
	exit bad
}' "$log"

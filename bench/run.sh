#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# shellcheck disable=SC2317  # functions run from traps look unreachable
# run.sh: `make bench`.  For each fabric size: write a fat tree with
# bench/mkfattree, bring up ibsim + a real opensm ONCE with
# tests/ib/with-fabric.sh, and run bench/measure.sh inside that session
# (every measurement of the size); then print the figures and how they
# stand against issue 25's targets, and write that with the date and
# the exact commands to BUILD_DIR/bench/results.txt (atomically).
#
#   sh bench/run.sh BUILD_DIR [SIZE ...]      (from the repository root;
#                                              default 648 2016 10044)
#
# SIZE is an HCA count (bench/mkfattree -n).  The smallest size also gets
# the infiniband-diags script (bench/diags-audit.sh) and the
# --max-outstanding 1 scan; the script's cost per port is extrapolated to
# the larger sizes (the table says so).
#
# Environment: BENCH_SCAN_TIMEOUT (s for the scan, default 300),
# BENCH_MAXOUT1_TIMEOUT (s for the --max-outstanding 1 scan, default 120),
# BENCH_DIAGS_TIMEOUT (s for the diags script, default 600),
# BENCH_SM_TIMEOUT (s for opensm to bring a fabric up, default 180),
# BENCH_IBND_RUNS (default 3), BENCH_SCAN_RUNS (1-4, default 3: scans of
# each kind per size), BENCH_CEILING_N (default 100000),
# BENCH_KEEP=1 keeps the scans' output directories (large),
# BENCH_RMPP=0 runs on the stock simulated transport (below).
#
# The simulated hosts' kernels do RMPP (bench/rmpp/README): opensm runs
# with librmppsim.so in front of libumad2sim.so (the SA host kernel's
# sender), every client with librmpprecv.so behind it (the receiver), so
# an SA GetTable answer arrives whole, as on hardware.  The stock
# umad2sim cuts every SA answer at 256 bytes, and fabaudit then asks
# each port's PathRecord instead (BENCH_RMPP=0 measures that path).
#
# Exit status: 0 whether or not targets are met; 1 if a measurement could
# not be made (each is named on stderr and in the table); 2 usage.
# Every process is started through with-fabric.sh, which stops ibsim and
# opensm by their recorded PIDs, also on failure or interruption.

set -u
[ $# -ge 1 ] || { echo "usage: run.sh BUILD_DIR [SIZE ...]" >&2; exit 2; }
bdir=$1
shift
[ $# -gt 0 ] || set -- 648 2016 10044
sizes=$(printf '%s\n' "$@" | sort -n | tr '\n' ' ')
sizes=${sizes% }
root=$(pwd)
[ -r "$root/bench/measure.sh" ] || {
	echo "run.sh: run from the repository root" >&2
	exit 2
}
bb=$(cd "$bdir" && pwd) || exit 2
for f in fabaudit bench/mkfattree bench/rusage bench/smpceiling \
    bench/librmppsim.so bench/librmpprecv.so; do
	[ -f "$bb/$f" ] ||
		{ echo "run.sh: no $bb/$f (make bench)" >&2; exit 2; }
done
for c in ibsim opensm ibnetdiscover smpquery saquery ibaddr jq awk; do
	command -v "$c" >/dev/null 2>&1 ||
		{ echo "run.sh: $c not found (make deps)" >&2; exit 2; }
done

# count NAME VALUE MIN MAX: a whole number in range, else usage error.
# BENCH_SCAN_RUNS is at most 4: every fabaudit scan keeps one of ibsim's
# 10 client slots to the end of the session (its acquisition child leaves
# with _exit, so umad2sim never disconnects), opensm holds one, and the
# smallest size runs 2 x BENCH_SCAN_RUNS + 1 scans.
count() {
	case $2 in
	''|*[!0-9]*) ;;
	*) [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && return 0 ;;
	esac
	echo "run.sh: $1 must be a whole number from $3 to $4, not '$2'" >&2
	exit 2
}
count BENCH_SCAN_RUNS "${BENCH_SCAN_RUNS:-3}" 1 4
count BENCH_IBND_RUNS "${BENCH_IBND_RUNS:-3}" 1 99
count BENCH_CEILING_N "${BENCH_CEILING_N:-100000}" 1000 100000000
for t in BENCH_SCAN_TIMEOUT BENCH_MAXOUT1_TIMEOUT BENCH_DIAGS_TIMEOUT \
    BENCH_SM_TIMEOUT; do
	eval "count $t \"\${$t:-60}\" 1 86400"
done
for n in $sizes; do
	count SIZE "$n" 2 1000000	# mkfattree -n's range
done

sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a - b }'; }

# Work files of the last run only: older run.* directories are removed.
out=$bb/bench
mkdir -p "$out" || exit 2
rm -rf "$out"/run.*
work=$(mktemp -d "$out/run.XXXXXX") || exit 2
wf_pid=
cleanup() {
	rc=$?
	trap '' INT TERM HUP
	# with-fabric.sh stops its ibsim/opensm/command itself on TERM.
	if [ -n "$wf_pid" ]; then
		kill -TERM "$wf_pid" 2>/dev/null
		wait "$wf_pid" 2>/dev/null
	fi
	rm -f "$out/.results.txt.$$"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

case ${BENCH_RMPP:-1} in
0)	sm_pre= cl_after=
	transport="stock umad2sim (SA answers cut at 256 bytes)" ;;
1)	sm_pre=$bb/bench/librmppsim.so cl_after=$bb/bench/librmpprecv.so
	transport="simulated kernel RMPP (librmppsim.so in opensm,"
	transport="$transport librmpprecv.so in the clients)" ;;
*)	echo "run.sh: BENCH_RMPP is 0 or 1" >&2; exit 2 ;;
esac

smallest=${sizes%% *}
failed=
t_all=$(date +%s.%N)
for n in $sizes; do
	d=$work/ft$n
	mkdir -p "$d/out" || exit 1
	echo "bench: $n HCAs: writing the fabric" >&2
	if ! "$bb/bench/mkfattree" -n "$n" -o "$d/fabric" 2>"$d/mkfattree.log"
	then
		cat "$d/mkfattree.log" >&2
		failed="$failed $n:fabric"
		continue
	fi
	FT_IBSIM_ARGS='' FT_HCAS='' FT_SWITCHES='' FT_PORTS=''
	FT_SWITCH_PORTS='' FT_SHAPE='' FT_PRED_SMPS=
	# shellcheck source=/dev/null
	. "$d/fabric/scenario"
	echo "bench: $n HCAs: $FT_SHAPE; ibsim ${FT_IBSIM_ARGS:-(defaults)};" \
	    "bringing up ibsim + opensm" >&2
	t0=$(date +%s.%N)
	# with-fabric.sh's work dir (ibsim/opensm logs, OSM_CACHE_DIR,
	# OSM_TMP_DIR) goes under ours through TMPDIR.
	TMPDIR=$d FA_IBSIM_ARGS=$FT_IBSIM_ARGS \
	    FA_SM_PRELOAD=$sm_pre FA_PRELOAD_AFTER=$cl_after \
	    FA_SM_TIMEOUT=${BENCH_SM_TIMEOUT:-180} FA_VERBOSE=1 \
	    sh "$root/tests/ib/with-fabric.sh" "$d/fabric" -- \
	    sh "$root/bench/measure.sh" "$bb" "$d/out" \
	    "$([ "$n" = "$smallest" ] && echo 1 || echo 0)" \
	    2>"$d/session.log" &
	wf_pid=$!
	wait "$wf_pid"
	rc=$?
	wf_pid=
	t1=$(date +%s.%N)
	case $rc in
	0) ;;
	3)	tail -n 15 "$d/session.log" >&2
		failed="$failed $n:fabric-bring-up" ;;
	*)	grep '^measure.sh:' "$d/session.log" >&2
		failed="$failed $n:measurement" ;;
	esac
	{
		echo "size=$n"
		echo "hcas=$FT_HCAS"
		echo "switches=$FT_SWITCHES"
		echo "ports=$FT_PORTS"
		echo "switch_ports=$FT_SWITCH_PORTS"
		echo "pred_smps=$FT_PRED_SMPS"
		echo "shape=$FT_SHAPE"
		echo "ibsim_args=$FT_IBSIM_ARGS"
		echo "session_wall=$(sub "$t1" "$t0")"
		if [ -r "$d/out/results.kv" ]; then
			cat "$d/out/results.kv"
			st=$(sed -n 's/^session_start=//p' "$d/out/results.kv")
			echo "bringup_wall=$(sub "$st" "$t0")"
		fi
	} >"$d/all.kv"
	grep '_error=' "$d/all.kv" >&2
	if [ "${BENCH_KEEP:-0}" != 1 ]; then
		rm -rf "$d/out/scan" "$d/out/maxout1" "$d/out/recheck" \
		    "$d/out"/ibnd.*.out
		find "$d/out" -maxdepth 1 -type d -name 'scan[0-9]*' \
		    -exec rm -rf {} +
	fi
	echo "bench: $n HCAs: done in $(sub "$t1" "$t0") s" >&2
done
t_all=$(sub "$(date +%s.%N)" "$t_all")
if ! ls "$work"/ft*/all.kv >/dev/null 2>&1; then
	echo "run.sh: no size could be measured:$failed" >&2
	exit 1
fi

# --- the table ----------------------------------------------------------------
table() {
	awk -v smallest="$smallest" -f "$root/bench/table.awk" \
	    "$work"/ft*/all.kv
}
{
	echo "fabaudit make bench, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host: $(uname -sr), $(nproc) CPUs;" \
	    "$("$bb/fabaudit" --version 2>/dev/null | head -n 1)," \
	    "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null)$(
	    git -C "$root" diff --quiet HEAD 2>/dev/null || echo '+changes')"
	echo "sizes: $sizes; total $(printf '%.0f' "$t_all") s"
	echo "SA transport: $transport"
	echo
	table
	echo
	echo "Commands (per size; POLICY, DIR etc. are the size's files," \
	    "all under LD_PRELOAD=libumad2sim.so${cl_after:+ librmpprecv.so}," \
	    "SIM_HOST=tenantA-gpu-00001):"
	echo "  $bb/bench/mkfattree -n SIZE -o FABRIC"
	echo "  FA_IBSIM_ARGS='<flags>' FA_SM_TIMEOUT=${BENCH_SM_TIMEOUT:-180}" \
	    "${sm_pre:+FA_SM_PRELOAD=$sm_pre }\\"
	[ -n "$cl_after" ] && echo "    FA_PRELOAD_AFTER=$cl_after \\"
	echo "    tests/ib/with-fabric.sh FABRIC -- sh bench/measure.sh ..."
	for n in $sizes; do
		a=$(sed -n 's/^ibsim_args=//p' "$work/ft$n/all.kv")
		echo "    ibsim flags for $n: ${a:-(none)}"
	done
	f=$work/ft$smallest/out/commands.txt
	[ -r "$f" ] && sed "s|^|  |" "$f"
} >"$out/.results.txt.$$"
mv -f "$out/.results.txt.$$" "$out/results.txt" || exit 1
table
echo
echo "Written to $out/results.txt (work files: $work)."
if [ -n "$failed" ]; then
	echo "bench: measurements that could not be made:$failed" \
	    "(see $work/ft*/session.log)" >&2
	exit 1
fi
exit 0
